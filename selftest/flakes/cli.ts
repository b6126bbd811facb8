import { parseArgs } from 'node:util';
import { startDelayProxy, type DelayProxy } from '../../bench/delay-proxy.ts';
import { startReferenceProcess, type ReferenceProcess } from '../support/reference-process.ts';
import { runCli } from '../support/run-cli.ts';

// `npm run flakes`: the full suite against the reference server with N different seeds. Every run
// must pass, without a warning; a failing run is printed with its seed so it replays. --delay MS puts the reference
// (in its own process) that far away, through a proxy that holds every answer MS ms, as a staging
// server across a network would be: the scenarios then run side by side.
const { values } = parseArgs({ options: { count: { type: 'string', default: '20' }, runs: { type: 'string', default: '25' }, delay: { type: 'string' } } });
const count = Number(values.count);
const delayMs = values.delay === undefined ? undefined : Number(values.delay);
const KEY = 'flakes-key-0123456789';
const failing: string[] = [];
const started = performance.now();
for (let i = 0; i < count; i++) {
  const seed = 1_000 + i * 7_919;
  let server: ReferenceProcess | undefined;
  const proxies: DelayProxy[] = [];
  let target: string[] = [];
  if (delayMs !== undefined) {
    server = await startReferenceProcess(['--port', '0', '--messages-port', '0', '--api-key', KEY]);
    proxies.push(await startDelayProxy(server.baseUrl, delayMs), await startDelayProxy(server.messagesBaseUrl, delayMs));
    target = ['--base-url', proxies[0]!.url, '--messages-base-url', proxies[1]!.url, '--allow-writes'];
  }
  try {
    const result = await runCli([...target, '--seed', String(seed), '--runs', String(values.runs), '--quiet'], delayMs === undefined ? {} : { API_KEY: KEY }, { timeoutMs: 600_000 });
    // The faithful reference must get no warning either: a warning there is a false one.
    const ok = result.code === 0 && (result.report?.summary.warn ?? 0) === 0;
    if (!ok) failing.push(`seed ${seed}: exit ${result.code}; ${result.report?.clauses.filter((c) => c.outcome === 'fail' || c.outcome === 'error' || c.outcome === 'warn').map((c) => c.id).join(', ')} ${result.stderr.slice(0, 200)}`);
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} seed ${seed} ${(result.ms / 1000).toFixed(1)} s\n`);
  } finally {
    for (const proxy of proxies) await proxy.close();
    server?.child.kill('SIGTERM');
  }
}
process.stdout.write(`${failing.length} failing runs out of ${count}${delayMs === undefined ? '' : ` with ${delayMs} ms added`} (${((performance.now() - started) / 1000).toFixed(0)} s)\n${failing.join('\n')}\n`);
process.exitCode = failing.length ? 1 : 0;
