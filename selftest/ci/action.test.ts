// action.yml, the GitHub Action: its declaration, and its shell steps run here in bash with the
// variables a runner sets, against the embedded reference server and a reference server with a key.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { OPTIONS, VARIABLES } from '../../src/config/options.ts';
import { PACKAGE_ROOT, fromPackage } from '../../src/paths.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { tempDir } from '../support/temp-dir.ts';
import { makeMachine, runCompositeAction, standIn, yamlBlocks, type ActionFile, type ActionRun, type Machine } from './runner.ts';

const action = parseYaml(readFileSync(fromPackage('action.yml'), 'utf8')) as ActionFile;
const steps = action.runs.steps;
const runStep = steps.find((step) => step.id === 'run')!;
const KEY = 'action-test-key-5b1e0c7d9a';

/** Every file under dir, with its text. */
function filesUnder(dir: string): [string, string][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => [path, readFileSync(path, 'utf8')]);
}

/** Where the key shows: in any step's output, the job summary, or any file the run left. */
function keySightings(run: ActionRun, machine: Machine): string[] {
  const places: [string, string][] = [
    ...run.steps.flatMap((step): [string, string][] => [[`${step.name} stdout`, step.stdout], [`${step.name} stderr`, step.stderr]]),
    ['job summary', run.summary],
    ...filesUnder(machine.workspace),
    ...filesUnder(machine.temp).filter(([path]) => !/step-\d+\.sh$/.test(path)),
  ];
  return places.filter(([, text]) => text.includes(KEY)).map(([place]) => place);
}

describe('action.yml: what it declares', () => {
  it('is a composite action whose settings are inputs, each with a description and each used', () => {
    expect(action.runs.using).toBe('composite');
    const text = readFileSync(fromPackage('action.yml'), 'utf8');
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description, name).toBeTruthy();
      expect(text, `input ${name} is never used`).toContain(`inputs.${name} }}`);
    }
    for (const name of ['base-url', 'messages-base-url', 'api-key', 'env', 'runs', 'seed', 'args']) expect(action.inputs).toHaveProperty(name);
    expect(action.outputs?.['exit-code']?.value).toBe('${{ steps.run.outputs.exit-code }}');
  });

  it('passes inputs to shell steps only through the environment (no ${{ }} in a script), the key among them', () => {
    for (const step of steps) if (step.run) expect(step.run, step.name).not.toContain('${{');
    expect(runStep.env?.INPUT_API_KEY).toBe('${{ inputs.api-key }}');
    const mentions = steps.filter((step) => JSON.stringify(step).includes('inputs.api-key'));
    expect(mentions).toEqual([runStep]);
  });

  it('hands each setting input to a variable the suite reads', () => {
    const names = /for name in ([A-Z_ ]+); do/.exec(runStep.run ?? '')?.[1]?.trim().split(/\s+/) ?? [];
    const read = new Set<string>([...Object.values(OPTIONS).flatMap((option) => ('env' in option ? [option.env] : [])), ...Object.keys(VARIABLES)]);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((name) => !read.has(name))).toEqual([]);
    const passed = Object.keys(runStep.env ?? {}).filter((name) => !['INPUT_ARGS', 'INPUT_REPORTS_DIR'].includes(name));
    expect(passed.map((name) => name.replace(/^INPUT_/, '')).sort()).toEqual([...names].sort());
  });

  // setup-node and upload-artifact cannot run on this machine: only their declaration is checked.
  it('declares setup-node and upload-artifact (which cannot run here) pinned to a major version, with the right inputs', () => {
    const uses = steps.filter((step) => step.uses);
    for (const step of uses) expect(step.uses).toMatch(/^actions\/[\w-]+@v\d+$/);
    const setup = uses.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with).toEqual({ 'node-version': '${{ inputs.node-version }}', 'package-manager-cache': false });
    expect(steps.indexOf(setup!)).toBe(0);
    const upload = uses.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toMatch(/^always\(\)/);
    expect(upload?.with).toMatchObject({ name: '${{ inputs.artifact-name }}', path: '${{ steps.run.outputs.reports }}' });
  });

  it('appends the summary and ends with the exit code even after a failed step (if: always())', () => {
    const last = steps.at(-1)!;
    expect(last.if).toMatch(/^always\(\)/);
    expect(last.run).toMatch(/exit "\$EXIT_CODE"/);
    expect(steps.find((step) => step.run?.includes('GITHUB_STEP_SUMMARY'))?.if).toMatch(/^always\(\)/);
  });
});

describe('docs/ci/github-workflow.yml, the workflow the README shows', () => {
  const text = readFileSync(fromPackage('docs', 'ci', 'github-workflow.yml'), 'utf8');
  const workflow = parseYaml(text) as { jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }> };
  const step = Object.values(workflow.jobs).flatMap((job) => job.steps).find((s) => /\/animal-store-conformance@/.test(s.uses ?? ''));

  it('is in the README as it is here, beside the list of every input', () => {
    const readme = readFileSync(fromPackage('README.md'), 'utf8');
    expect(yamlBlocks(readme)).toContain(text);
    expect(Object.keys(action.inputs).filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it('uses the action with inputs it declares, the key from a secret', () => {
    expect(Object.keys(step?.with ?? {}).filter((name) => !(name in action.inputs))).toEqual([]);
    expect(step?.with?.['api-key']).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
  });
});

describe('action.yml: its shell steps, run in bash as a runner runs them', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['fault-auth-403'] });
  });
  afterAll(async () => {
    await reference?.close();
  });

  function machineWithNpm(): { machine: Machine; npmLog: string } {
    const machine = makeMachine(tempDir('asc-action-'));
    const npmLog = join(machine.temp, 'npm.log');
    // `npm ci` would fetch the dependencies (minutes, and the network): a stand-in records the call, and the package's own install serves.
    standIn(machine, 'npm', npmLog);
    return { machine, npmLog };
  }

  it('checks the embedded reference server with no target: exit 0 kept, summary appended, reports where the output says', async () => {
    const { machine, npmLog } = machineWithNpm();
    mkdirSync(join(machine.workspace, 'app'));
    const run = await runCompositeAction(action, PACKAGE_ROOT, { runs: '2', seed: '7', 'working-directory': 'app', args: `--only '4.1,5' --max-rps "0"` }, machine);
    const failed = run.steps.filter((step) => step.state === 'ran' && step.code !== 0).map((step) => `${step.name}: ${step.stderr}`);
    expect(failed).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.outputs).toEqual({ 'exit-code': '0', reports: join(machine.workspace, 'app', 'reports') });
    expect(readFileSync(npmLog, 'utf8')).toBe(`${PACKAGE_ROOT}\tci --no-audit --no-fund --include=dev\n`);
    const summary = readFileSync(join(run.outputs.reports!, 'summary.md'), 'utf8');
    expect(summary.length).toBeGreaterThan(100);
    expect(run.summary).toBe(summary);
    expect(run.steps.map((step) => step.state)).toEqual(['uses', 'ran', 'ran', 'ran', 'uses', 'ran']);
    expect(run.steps.find((step) => step.with?.path)?.with?.path).toBe(run.outputs.reports);
    const stdout = run.steps.find((step) => step.name === 'Run the conformance suite')!.stdout;
    expect(stdout).toMatch(/embedded reference server .*seed 7 · runs 2/);
    expect(keySightings(run, machine)).toEqual([]);
  });

  it('a key from a secret with no base URL (a variable unset or misspelt) is exit 2, not a pass of the embedded server', async () => {
    const { machine } = machineWithNpm();
    const run = await runCompositeAction(action, PACKAGE_ROOT, { runs: '2', seed: '7', 'api-key': KEY, args: '--only 5' }, machine);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.code).not.toBe(0);
    const stderr = run.steps.find((step) => step.name === 'Run the conformance suite')!.stderr;
    expect(stderr).toMatch(/API_KEY is set but no target is: set BASE_URL/);
    expect(keySightings(run, machine)).toEqual([]);
  });

  it('checks a target given by inputs with the key from a secret: a failed clause is exit 1, kept as the result, and the key is in no output or file', async () => {
    const { machine } = machineWithNpm();
    const run = await runCompositeAction(
      action,
      PACKAGE_ROOT,
      { 'base-url': reference.baseUrl, 'messages-base-url': reference.messagesBaseUrl, 'api-key': KEY, env: 'staging', runs: '2', seed: '11', args: '--only auth' },
      machine,
    );
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.code).toBe(1);
    expect(run.steps.map((step) => [step.state, step.code])).toEqual([['uses', 0], ['ran', 0], ['ran', 0], ['ran', 0], ['uses', 0], ['ran', 1]]);
    const summary = readFileSync(join(run.outputs.reports!, 'summary.md'), 'utf8');
    expect(summary).toContain('auth.required');
    expect(run.summary).toBe(summary);
    expect(existsSync(join(run.outputs.reports!, 'created.json'))).toBe(true);
    expect(keySightings(run, machine)).toEqual([]);
  });

  it('writes the one line of a run that wrote no report (exit 2) to the summary, not an earlier run\'s, and ends with exit 2', async () => {
    const { machine } = machineWithNpm();
    const reports = tempDir('asc-action-stale-');
    for (const name of ['summary.md', 'junit.xml', 'report.json', 'report.html']) writeFileSync(join(reports, name), 'an earlier run\'s');
    const run = await runCompositeAction(action, PACKAGE_ROOT, { env: 'staging', 'api-key': KEY, 'reports-dir': reports }, machine);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.code).toBe(2);
    expect(run.summary).toMatch(/no report \(exit 2\)/);
    expect(readdirSync(reports)).toEqual([]);
    expect(run.summary).toMatch(/set STAGING_BASE_URL/);
    expect(keySightings(run, machine)).toEqual([]);
  });

  it('fails the run step on an unmatched quote in args, before the suite starts', async () => {
    const { machine } = machineWithNpm();
    const run = await runCompositeAction(action, PACKAGE_ROOT, { args: "--only '4.1" }, machine);
    const step = run.steps.find((s) => s.name === 'Run the conformance suite')!;
    expect(step.code).not.toBe(0);
    expect(step.stderr).toMatch(/unmatched/i);
    expect(run.code).toBe(step.code);
    // No reports output was written before the failure: the summary and upload steps are skipped, not run on nothing.
    expect(run.steps.slice(3).map((s) => s.state)).toEqual(['skipped', 'skipped', 'skipped']);
  });
});
