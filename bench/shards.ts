import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type CliResult } from '../selftest/support/run-cli.ts';

// `npm run bench:shards` (bench/shards.ts): one machine against 2 and 4 shards run side by side on
// this machine, each against the embedded reference server: the wall time of the slowest shard and
// the requests each sent, then the time `merge` takes for the 4 shards' reports.
// Options: --runs=100 (the whole run's depth; each of n shards takes runs/n) --seed=1.
execFileSync(process.execPath, [fileURLToPath(new URL('../bin/build.mjs', import.meta.url))], { stdio: 'inherit' });
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(option('runs') ?? 100);
const SEED = option('seed') ?? '1';

interface Row {
  shards: number;
  slowestMs: number;
  requests: number[];
  exitCodes: (number | null)[];
}

async function sideBySide(count: number): Promise<{ row: Row; results: CliResult[] }> {
  const runs = String(Math.max(1, Math.round(RUNS / count)));
  const shard = (i: number) => (count === 1 ? [] : ['--shard', `${i + 1}/${count}`]);
  const results = await Promise.all(Array.from({ length: count }, (_, i) => runCli(['--seed', SEED, '--runs', runs, '--quiet', ...shard(i)], {}, { timeoutMs: 1_800_000 })));
  const row = { shards: count, slowestMs: Math.max(...results.map((r) => r.ms)), requests: results.map((r) => r.report?.traffic?.requests ?? 0), exitCodes: results.map((r) => r.code) };
  return { row, results };
}

const rows: Row[] = [];
let four: CliResult[] = [];
for (const count of [1, 2, 4]) {
  const { row, results } = await sideBySide(count);
  rows.push(row);
  if (count === 4) four = results;
}
const dir = await mkdtemp(join(tmpdir(), 'asc-bench-shards-'));
try {
  const paths = await Promise.all(four.map(async (result, i) => {
    const path = join(dir, `shard-${i + 1}.json`);
    await writeFile(path, result.files['report.json'] ?? '');
    return path;
  }));
  const merged = await runCli(['merge', ...paths, '--reports', join(dir, 'merged')], {});
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  console.log(`\nseed ${SEED} · the whole run's --runs ${RUNS} · ${process.env.npm_config_user_agent ?? `node ${process.version}`}\n`);
  console.log(line(['machines', 'slowest shard (s)', 'requests per shard', 'all requests', 'exit codes']));
  console.log(line(['---', '---', '---', '---', '---']));
  for (const row of rows) {
    console.log(line([row.shards, (row.slowestMs / 1000).toFixed(1), row.requests.join(' / '), row.requests.reduce((a, b) => a + b, 0), row.exitCodes.join(' ')]));
  }
  console.log(`\nmerge of the 4 shards' reports: ${(merged.ms / 1000).toFixed(2)} s (the CLI's start-up included), exit ${merged.code}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
