// docs/ci/gitlab-shards.yml: its 4 parallel shard jobs and the merge job, their scripts run here in
// bash as GitLab's shell runs them (CI_NODE_INDEX, CI_NODE_TOTAL set per job), one project folder
// standing for the artifacts GitLab passes from the shards to the merge.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { PACKAGE_ROOT, fromPackage } from '../../src/paths.ts';
import type { RunReport } from '../../src/report/model.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { tempDir } from '../support/temp-dir.ts';
import { baseEnv, makeMachine, runBash, standIn } from './runner.ts';

interface Job {
  parallel?: number;
  variables?: Record<string, string>;
  script: string[];
  needs?: string[];
  when?: string;
  artifacts: { when: string; paths: string[]; reports?: { junit: string } };
}

const jobs = parseYaml(readFileSync(fromPackage('docs', 'ci', 'gitlab-shards.yml'), 'utf8')) as Record<string, Job>;
const shardJob = jobs['conformance-shard']!;
const mergeJob = jobs['conformance-merge']!;
const KEY = 'gitlab-shards-key-4c1d9e';

describe('docs/ci/gitlab-shards.yml', () => {
  it('runs 4 shards of one seed, and merges them whatever their outcome', () => {
    expect(shardJob.parallel).toBe(4);
    expect(shardJob.variables?.SEED).toBe('$CI_PIPELINE_ID');
    expect(mergeJob).toMatchObject({ when: 'always', needs: ['conformance-shard'], artifacts: { when: 'always', reports: { junit: 'reports/junit.xml' } } });
  });

  describe('its scripts, run in bash with the variables GitLab sets', () => {
    let reference: RunningReference;
    beforeAll(async () => void (reference = await startReference({ apiKey: KEY, deviations: ['fault-orders-missing'] })));
    afterAll(() => reference.close());

    it('fails the merge job with the run exit code, and the merged report is the run of all shards', async () => {
      const machine = makeMachine(tempDir('asc-gitlab-shards-'));
      const project = machine.workspace;
      standIn(machine, 'npm', join(machine.temp, 'npm.log'));
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'store-deep-checks', private: true, devDependencies: { 'animal-store-conformance': '*' } }));
      mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'animal-store-conformance'));
      symlinkSync('../animal-store-conformance/bin/animal-store-conformance.mjs', join(project, 'node_modules', '.bin', 'animal-store-conformance'));
      const variables = { STAGING_BASE_URL: reference.baseUrl, MESSAGES_BASE_URL: reference.messagesBaseUrl, API_KEY: KEY, CI_PIPELINE_ID: '4242' };
      const env = (extra: Record<string, string>) => ({ ...baseEnv(machine), GITLAB_CI: 'true', CI_PROJECT_DIR: project, npm_config_offline: 'true', ...variables, ...extra });
      const shardVariables = { ...shardJob.variables!, SEED: variables.CI_PIPELINE_ID, RUNS: '2' };
      const shards = await Promise.all(
        [1, 2, 3, 4].map((index) =>
          runBash(shardJob.script.join('\n'), { cwd: project, env: env({ ...shardVariables, CI_NODE_INDEX: String(index), CI_NODE_TOTAL: '4', CI_JOB_NAME: `conformance-shard ${index}/4` }), file: join(machine.temp, `shard-${index}.sh`) }),
        ),
      );
      expect(shards.map((s) => s.code), shards.map((s) => s.stderr).join("\n")).toContain(1);
      for (const index of [1, 2, 3, 4]) expect(existsSync(join(project, 'shards', String(index), 'report.json')), `shard ${index}: exit ${shards[index - 1]!.code}: ${shards[index - 1]!.stderr}`).toBe(true);
      const merged = await runBash(mergeJob.script.join('\n'), { cwd: project, env: env({ CI_JOB_NAME: 'conformance-merge' }), file: join(machine.temp, 'merge.sh') });
      expect(merged.code, merged.stderr).toBe(1);
      const report = JSON.parse(readFileSync(join(project, 'reports', 'report.json'), 'utf8')) as RunReport;
      expect(report.seed).toBe(4242);
      expect(report.runs).toBe(8);
      expect(report.merged?.shards.map((s) => s.index)).toEqual([1, 2, 3, 4]);
      expect(report.clauses.find((c) => c.id === 'orders.exists')?.outcome).toBe('fail');
      expect(readFileSync(join(project, 'reports', 'junit.xml'), 'utf8')).toContain('<testsuites');
    }, 180_000);
  });
});
