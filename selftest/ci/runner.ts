/**
 * Just enough of a CI runner to run the shell steps of action.yml and of the GitLab job in
 * docs/ci/ on this machine: `${{ … }}` substituted, `if:` conditions of the forms the action uses,
 * GITHUB_* files per step, bash started as each runner starts it. Steps that use other actions
 * (setup-node, upload-artifact) cannot run here: they are recorded, not run.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

export interface ActionFile {
  inputs: Record<string, { description?: string; default?: string; required?: boolean }>;
  outputs?: Record<string, { description?: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRecord {
  name: string;
  /** ran: a shell step run here; uses: another action, not runnable here; skipped: its `if:` was false. */
  state: 'ran' | 'uses' | 'skipped';
  code: number;
  stdout: string;
  stderr: string;
  /** A `uses:` step's `with:`, substituted. */
  with?: Record<string, string>;
}

export interface ActionRun {
  steps: StepRecord[];
  outputs: Record<string, string>;
  /** Everything the steps appended to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The job step's result: 0, or the code of the first step that failed. */
  code: number;
}

export interface Machine {
  /** GITHUB_WORKSPACE (CI_PROJECT_DIR for GitLab). */
  workspace: string;
  /** RUNNER_TEMP. */
  temp: string;
  /** Folders put before the usual PATH (stand-ins for tools, e.g. npm). */
  binDirs: string[];
}

/** A machine under `root`: workspace, runner temp, a home and a bin folder, all empty. */
export function makeMachine(root: string): Machine {
  const machine = { workspace: join(root, 'workspace'), temp: join(root, 'runner-temp'), binDirs: [join(root, 'bin')] };
  for (const dir of [machine.workspace, machine.temp, ...machine.binDirs, join(root, 'home')]) mkdirSync(dir, { recursive: true });
  return machine;
}

/** An executable stand-in for a tool: it appends its working folder and arguments to `log`, then exits 0. */
export function standIn(machine: Machine, name: string, log: string): void {
  const path = join(machine.binDirs[0]!, name);
  writeFileSync(path, `#!/usr/bin/env bash\nprintf '%s\\t%s\\n' "$PWD" "$*" >> ${JSON.stringify(log)}\n`);
  chmodSync(path, 0o755);
}

/** The environment every runner gives a step: the usual PATH, a fresh HOME, CI=true. */
export function baseEnv(machine: Machine): Record<string, string> {
  return {
    PATH: [...machine.binDirs, dirname(process.execPath), process.env.PATH ?? '/usr/bin:/bin'].join(':'),
    HOME: join(dirname(machine.workspace), 'home'),
    CI: 'true',
    LANG: 'C.UTF-8',
  };
}

export interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a script as the runners do (`bash --noprofile --norc -eo pipefail FILE`), bounded in time. */
export function runBash(script: string, options: { cwd: string; env: Record<string, string>; file: string; timeoutMs?: number }): Promise<ShellResult> {
  writeFileSync(options.file, script);
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', options.file], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  return new Promise((done) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    }),
  );
}

/** `key=value` lines and `key<<DELIM` blocks, as a runner reads GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: no closing ${block[2]}`);
      outputs[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    } else if (line.trim() !== '') {
      throw new Error(`GITHUB_OUTPUT: a line that is neither key=value nor key<<DELIM: ${line}`);
    }
  }
  return outputs;
}

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
  github: Record<string, string>;
  runner: Record<string, string>;
}

/** The value of one of the references the action uses; anything else is an error, so the action stays within what this test knows. */
function lookup(reference: string, context: Context): string {
  const parts = reference.trim().split('.');
  if (parts[0] === 'inputs' && parts.length === 2) {
    if (!(parts[1]! in context.inputs)) throw new Error(`\${{ ${reference} }}: no such input`);
    return context.inputs[parts[1]!]!;
  }
  if (parts[0] === 'steps' && parts[2] === 'outputs' && parts.length === 4) return context.steps[parts[1]!]?.[parts[3]!] ?? '';
  if ((parts[0] === 'github' || parts[0] === 'runner') && parts.length === 2) {
    const value = context[parts[0]][parts[1]!];
    if (value === undefined) throw new Error(`\${{ ${reference} }}: not known to this test`);
    return value;
  }
  throw new Error(`\${{ ${reference} }}: an expression this test does not evaluate`);
}

export function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, reference: string) => lookup(reference, context));
}

/** `always()`, `success()`, `failure()`, and `X != ''` / `X == ''`, joined by `&&`. */
function condition(expression: string | undefined, context: Context, failed: boolean): boolean {
  const terms = (expression ?? 'success()').replace(/^\$\{\{(.*)\}\}$/s, '$1').split('&&').map((term) => term.trim());
  let statusChecked = false;
  let result = true;
  for (const term of terms) {
    if (term === 'always()') statusChecked = true;
    else if (term === 'success()' || term === 'failure()') {
      statusChecked = true;
      result &&= term === 'success()' ? !failed : failed;
    } else {
      const compare = /^([\w.-]+)\s*(!=|==)\s*''$/.exec(term);
      if (!compare) throw new Error(`if: ${term}: a condition this test does not evaluate`);
      const empty = lookup(compare[1]!, context) === '';
      result &&= compare[2] === '==' ? empty : !empty;
    }
  }
  return result && (statusChecked || !failed);
}

/**
 * Runs a composite action's steps as a runner would for `uses: ./` with `with: inputs`: shell steps
 * in bash, each with its own GITHUB_OUTPUT and GITHUB_STEP_SUMMARY file; `uses:` steps recorded.
 */
export async function runCompositeAction(action: ActionFile, actionPath: string, given: Record<string, string>, machine: Machine): Promise<ActionRun> {
  const unknown = Object.keys(given).filter((name) => !(name in action.inputs));
  if (unknown.length) throw new Error(`inputs the action does not declare: ${unknown.join(', ')}`);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? input.default ?? '']));
  const context: Context = {
    inputs,
    steps: {},
    github: { action_path: actionPath, workspace: machine.workspace },
    runner: { temp: machine.temp, os: 'Linux' },
  };
  const records: StepRecord[] = [];
  let summary = '';
  let code = 0;
  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${index + 1}`;
    if (!condition(step.if, context, code !== 0)) {
      records.push({ name, state: 'skipped', code: 0, stdout: '', stderr: '' });
      continue;
    }
    if (step.uses) {
      const substituted = Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, substitute(String(value), context)]));
      records.push({ name, state: 'uses', code: 0, stdout: '', stderr: '', with: substituted });
      continue;
    }
    if (step.shell !== 'bash' || step.run === undefined) throw new Error(`${name}: a composite step needs shell: bash and run:`);
    const files = { output: join(machine.temp, `output-${index}`), summary: join(machine.temp, `summary-${index}`), env: join(machine.temp, `env-${index}`), path: join(machine.temp, `path-${index}`) };
    for (const file of Object.values(files)) writeFileSync(file, '');
    const env: Record<string, string> = {
      ...baseEnv(machine),
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: machine.workspace,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_ENV: files.env,
      GITHUB_PATH: files.path,
      RUNNER_TEMP: machine.temp,
      RUNNER_OS: 'Linux',
    };
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = substitute(String(value), context);
    const directory = substitute(step['working-directory'] ?? '.', context);
    const cwd = isAbsolute(directory) ? directory : resolve(machine.workspace, directory);
    const result = await runBash(step.run, { cwd, env, file: join(machine.temp, `step-${index}.sh`) });
    if (step.id) context.steps[step.id] = parseOutputFile(readFileSync(files.output, 'utf8'));
    summary += readFileSync(files.summary, 'utf8');
    records.push({ name, state: 'ran', ...result });
    if (result.code !== 0 && code === 0) code = result.code;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([name, output]) => [name, substitute(output.value, context)]));
  return { steps: records, outputs, summary, code };
}

/** The ```yaml blocks of a Markdown text, each as written (ending in a newline). */
export function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}
