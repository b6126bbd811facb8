// docs/ci/github-shards.yml and github-fleet.yml: their declarations (the action's steps are
// action.test.ts's), and their merge step run in bash as a runner runs it, over the report.json
// files the shard or deployment jobs would have uploaded.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { PACKAGE_ROOT, fromPackage } from '../../src/paths.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { runCli } from '../support/run-cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { baseEnv, makeMachine, runBash, standIn } from './runner.ts';

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string>;
}
interface Workflow {
  jobs: Record<string, { needs?: string; if?: string; strategy?: { 'fail-fast': boolean; matrix: Record<string, unknown[]> }; steps: Step[] }>;
}

const read = (name: string) => parseYaml(readFileSync(fromPackage('docs', 'ci', name), 'utf8')) as Workflow;
const action = parseYaml(readFileSync(fromPackage('action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
const KEY = 'github-shards-key-7e2f';

/** Runs a workflow's merge step in bash in a workspace holding the package and the downloaded artifacts. */
async function mergeStep(step: Step, artifacts: Record<string, string>): Promise<{ code: number; summary: string; stderr: string }> {
  const machine = makeMachine(tempDir('asc-gh-merge-'));
  standIn(machine, 'npm', join(machine.temp, 'npm.log'));
  const project = machine.workspace;
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'animal-store-conformance'));
  symlinkSync('../animal-store-conformance/bin/animal-store-conformance.mjs', join(project, 'node_modules', '.bin', 'animal-store-conformance'));
  for (const [path, text] of Object.entries(artifacts)) {
    mkdirSync(join(project, path, '..'), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  const summary = join(machine.temp, 'step-summary.md');
  writeFileSync(summary, '');
  const result = await runBash(step.run!, { cwd: project, env: { ...baseEnv(machine), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }, file: join(machine.temp, 'merge.sh') });
  return { code: result.code, summary: readFileSync(summary, 'utf8'), stderr: result.stderr };
}

describe('docs/ci/github-shards.yml and github-fleet.yml', () => {
  let faulty: RunningReference;
  beforeAll(async () => {
    faulty = await startReference({ apiKey: KEY, deviations: ['fault-orders-missing'] });
  });
  afterAll(() => faulty.close());

  for (const [name, job, matrix] of [['github-shards.yml', 'shard', 'shard'], ['github-fleet.yml', 'deployment', 'deployment']] as const) {
    it(`${name}: the matrix jobs use the action with inputs it declares, each its own artifact; the merge runs whatever they end with`, () => {
      const workflow = read(name);
      const jobs = Object.entries(workflow.jobs);
      const [mergeName, merge] = jobs.find(([, j]) => j.needs === job)!;
      expect(workflow.jobs[job]?.strategy?.['fail-fast']).toBe(false);
      expect(workflow.jobs[job]?.strategy?.matrix[matrix]?.length).toBe(4);
      const step = workflow.jobs[job]!.steps.find((s) => /\/animal-store-conformance@/.test(s.uses ?? ''))!;
      expect(Object.keys(step.with ?? {}).filter((input) => !(input in action.inputs))).toEqual([]);
      expect(step.with?.['artifact-name']).toContain(`\${{ matrix.${matrix} }}`);
      expect(step.with?.['api-key']).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
      expect(merge.if, mergeName).toBe('always()');
      if (name === 'github-shards.yml') expect(step.with?.args).toContain('--shard ${{ matrix.shard }}/4');
    });
  }

  it('github-shards.yml: the merge step fails the job with the run exit code and puts the merged summary in the job summary', async () => {
    const args = (i: number) => ['--base-url', faulty.baseUrl, '--messages-base-url', faulty.messagesBaseUrl, '--seed', '3', '--runs', '2', '--only', '4.4,4.1', '--shard', `${i}/4`];
    const shards = await Promise.all([1, 2, 3, 4].map((i) => runCli(args(i), { API_KEY: KEY })));
    const artifacts = Object.fromEntries(shards.map((s, i) => [`shards/conformance-shard-${i + 1}/report.json`, s.files['report.json']!]));
    const step = read('github-shards.yml').jobs.merge!.steps.find((s) => s.run?.includes(' merge '))!;
    const result = await mergeStep(step, artifacts);
    expect(result.code, result.stderr).toBe(1);
    expect(result.summary).toContain('orders.exists');
    expect(result.summary).toMatch(/--seed 3 --runs 8/);
  }, 120_000);

  it('github-fleet.yml: the merge step puts the deployment x clause matrix in the job summary', async () => {
    const good = await startReference({ apiKey: KEY });
    try {
      const check = (target: RunningReference) => runCli(['--base-url', target.baseUrl, '--messages-base-url', target.messagesBaseUrl, '--seed', '3', '--runs', '2', '--only', '4.4'], { API_KEY: KEY });
      const [a, b] = await Promise.all([check(good), check(faulty)]);
      const step = read('github-fleet.yml').jobs.matrix!.steps.find((s) => s.run?.includes(' merge '))!;
      const result = await mergeStep(step, { 'deployments/conformance-EU_BLUE/report.json': a.files['report.json']!, 'deployments/conformance-EU_GREEN/report.json': b.files['report.json']! });
      expect(result.code, result.stderr).toBe(1);
      expect(result.summary).toContain(`**1 of 2 deployments ship: local ${good.baseUrl}; do not ship: local ${faulty.baseUrl} (exit 1)**`);
      expect(result.summary).toMatch(/\| §4\.4 orders\.exists \| MUST \| ✔ Pass \| ✖ Fail \|/);
    } finally {
      await good.close();
    }
  }, 120_000);
});
