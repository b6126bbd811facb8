// docs/ci/gitlab-ci.yml, the GitLab job the README shows: its declaration, and its script run here
// in bash as GitLab's shell runs it, in a project that has the package installed.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { PACKAGE_ROOT, fromPackage } from '../../src/paths.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { tempDir } from '../support/temp-dir.ts';
import { baseEnv, makeMachine, runBash, standIn, yamlBlocks } from './runner.ts';

interface GitlabJob {
  image: string;
  script: string[];
  artifacts: { when: string; paths: string[]; reports: { junit: string } };
}

const text = readFileSync(fromPackage('docs', 'ci', 'gitlab-ci.yml'), 'utf8');
const job = (parseYaml(text) as Record<string, GitlabJob>).conformance!;
const KEY = 'gitlab-test-key-93f0c2aa71';

describe('docs/ci/gitlab-ci.yml', () => {
  it('is in the README as it is here', () => {
    expect(yamlBlocks(readFileSync(fromPackage('README.md'), 'utf8'))).toContain(text);
  });

  it('keeps the reports as artifacts whatever the outcome, junit.xml as the test report', () => {
    expect(job.artifacts).toEqual({ when: 'always', paths: ['reports/'], reports: { junit: 'reports/junit.xml' } });
    expect(job.image).toMatch(/^node:(2[0-9])$/);
    expect(job.script.join('\n')).not.toContain('API_KEY');
  });

  describe('its script, run in bash with the variables GitLab sets', () => {
    let reference: RunningReference;
    beforeAll(async () => {
      reference = await startReference({ apiKey: KEY, deviations: ['fault-auth-403'] });
    });
    afterAll(async () => {
      await reference?.close();
    });

    it('fails the job with the run exit code, leaves every artifact it names, and shows the key nowhere', async () => {
      const machine = makeMachine(tempDir('asc-gitlab-'));
      const project = machine.workspace;
      const npmLog = join(machine.temp, 'npm.log');
      // `npm ci` would fetch the dependencies: a stand-in records it, and the package is linked in as npm would install it.
      standIn(machine, 'npm', npmLog);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'store-staging-checks', private: true, devDependencies: { 'animal-store-conformance': '*' } }));
      mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'animal-store-conformance'));
      symlinkSync('../animal-store-conformance/bin/animal-store-conformance.mjs', join(project, 'node_modules', '.bin', 'animal-store-conformance'));
      const variables = { STAGING_BASE_URL: reference.baseUrl, MESSAGES_BASE_URL: reference.messagesBaseUrl, API_KEY: KEY, RUNS: '2', SEED: '5' };
      const env = { ...baseEnv(machine), GITLAB_CI: 'true', CI_PROJECT_DIR: project, CI_JOB_NAME: 'conformance', npm_config_offline: 'true', ...variables };
      // GitLab's shell executor runs the script lines in one bash with -eo pipefail; the job fails with the first failing line's code.
      const result = await runBash(job.script.join('\n'), { cwd: project, env, file: join(machine.temp, 'script.sh') });
      expect(readFileSync(npmLog, 'utf8')).toBe(`${project}\tci --no-audit --no-fund\n`);
      expect(result.stderr).not.toMatch(/npm (ERR|error)/);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/auth\.required/);
      const reports = join(project, 'reports');
      for (const name of ['junit.xml', 'report.json', 'report.html', 'summary.md', 'created.json']) expect(existsSync(join(reports, name)), name).toBe(true);
      expect(readFileSync(join(project, job.artifacts.reports.junit), 'utf8')).toContain('<testsuites');
      const files = ['junit.xml', 'report.json', 'report.html', 'summary.md', 'created.json'].map((name) => readFileSync(join(reports, name), 'utf8'));
      expect([result.stdout, result.stderr, ...files].filter((text) => text.includes(KEY))).toEqual([]);
    });
  });
});
