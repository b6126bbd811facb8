import { parseArgs } from 'node:util';
import { runCli } from '../support/run-cli.ts';

// `npm run flakes`: the full suite against the embedded reference server with N different seeds.
// Every run must pass; a failing run is printed with its seed so it replays.
const { values } = parseArgs({ options: { count: { type: 'string', default: '20' }, runs: { type: 'string', default: '25' } } });
const count = Number(values.count);
const failing: string[] = [];
const started = performance.now();
for (let i = 0; i < count; i++) {
  const seed = 1_000 + i * 7_919;
  const result = await runCli(['--seed', String(seed), '--runs', String(values.runs), '--quiet'], {});
  const ok = result.code === 0;
  if (!ok) failing.push(`seed ${seed}: exit ${result.code}; ${result.report?.clauses.filter((c) => c.outcome === 'fail' || c.outcome === 'error').map((c) => c.id).join(', ')} ${result.stderr.slice(0, 200)}`);
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} seed ${seed} ${(result.ms / 1000).toFixed(1)} s\n`);
}
process.stdout.write(`${failing.length} failing runs out of ${count} (${((performance.now() - started) / 1000).toFixed(0)} s)\n${failing.join('\n')}\n`);
process.exitCode = failing.length ? 1 : 0;
