import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from '../../src/report/model.ts';

export const BIN = fileURLToPath(new URL('../../bin/animal-store-conformance.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  report?: RunReport;
  /** Every report file's text, by name, for scanning. */
  files: Record<string, string>;
  ms: number;
  /** The CLI process's peak resident set in MB, with measureRss. */
  peakRssMb?: number;
}

const PEAK_RSS = new URL('./peak-rss.mjs', import.meta.url).href;

/** Runs the CLI as a user would: a child process, flags and environment, a reports folder of its own. */
export async function runCli(args: string[], env: Record<string, string>, options: { timeoutMs?: number; keepReports?: boolean; measureRss?: boolean } = {}): Promise<CliResult> {
  const reports = await mkdtemp(join(tmpdir(), 'asc-reports-'));
  const rssFile = join(reports, '.peak-rss');
  const measure: Record<string, string> = options.measureRss ? { NODE_OPTIONS: `--import ${PEAK_RSS}`, ASC_PEAK_RSS_FILE: rssFile } : {};
  const started = performance.now();
  // A test that names its own --reports gets it (and no files back from the folder made here).
  const child = spawn(process.execPath, [BIN, ...args, ...(args.includes('--reports') ? [] : ['--reports', reports])], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: 'true', ...measure, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  const ms = performance.now() - started;
  let peakRssMb: number | undefined;
  if (options.measureRss) {
    const line = (await readFile(rssFile, 'utf8').catch(() => '')).split('\n').find((l) => l.startsWith(`${child.pid} `));
    if (line) peakRssMb = Number(line.split(' ')[1]) / 1024;
    await rm(rssFile, { force: true });
  }
  const files: Record<string, string> = {};
  for (const entry of await readdir(reports, { withFileTypes: true })) if (entry.isFile()) files[entry.name] = await readFile(join(reports, entry.name), 'utf8');
  if (!options.keepReports) await rm(reports, { recursive: true, force: true });
  const result: CliResult = { code, stdout, stderr, files, ms };
  if (peakRssMb !== undefined) result.peakRssMb = peakRssMb;
  if (files['report.json']) result.report = JSON.parse(files['report.json']) as RunReport;
  return result;
}

export function failedClauses(report: RunReport | undefined): string[] {
  return report?.clauses.filter((clause) => clause.outcome === 'fail' || clause.outcome === 'error').map((clause) => clause.id) ?? [];
}
