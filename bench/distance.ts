import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { meanInFlight, startDelayProxy } from './delay-proxy.ts';
import { startReferenceProcess } from '../selftest/support/reference-process.ts';
import { runCli } from '../selftest/support/run-cli.ts';

// `npm run bench -- distance` (bench/distance.ts): a default run against the reference server in its own process, through a
// proxy that adds 0, 20 and 60 ms to every answer (a staging server that far away). For each: the
// wall time, requests, the mean number in flight, peak RSS, and the ratio to the critical path: the
// start-up (the run's time minus its scenarios' at 0 ms added) plus the longest chain of dependent
// requests times the round trip, the floor no scheduler can beat. The chain is measured, not
// assumed: each scenario's time grows by its own chain length for every ms added, so the longest
// chain is the largest growth per ms of a scenario between 0 ms and the largest delay.
// The proxy's own hop on loopback measures about 1 ms, where a run counts its target as far (side by
// side): so the loopback time each row is set against is also measured without the proxy, the run
// as it goes against a server on the same machine.
// Options: --delays=0,20,60 --repeat=3 (medians) --seed=1 --args='--concurrency 16'.
execFileSync(process.execPath, [fileURLToPath(new URL('../bin/build.mjs', import.meta.url))], { stdio: 'inherit' });
const KEY = 'bench-key-0123456789';
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DELAYS = (option('delays') ?? '0,20,60').split(',').map(Number);
const REPEAT = Number(option('repeat') ?? 3);
const SEED = option('seed') ?? '1';
const EXTRA = (option('args') ?? '').split(' ').filter(Boolean);

interface Row {
  delayMs: number;
  wallMs: number;
  requests: number;
  inFlight: number;
  peakRssMb: number;
  /** Per scenario, its time (ms). */
  scenarios: Map<string, number>;
  /** From the first scenario's start to the last one's end (ms). */
  active: number;
  exitCode: number | null;
}

/** One run through the delay proxies, or with `direct` straight to the server (no spans: mean in flight NaN). */
async function once(delayMs: number, args: readonly string[], direct = false): Promise<Row> {
  const server = await startReferenceProcess(['--port', '0', '--messages-port', '0', '--api-key', KEY]);
  const main = direct ? undefined : await startDelayProxy(server.baseUrl, delayMs);
  const messages = direct ? undefined : await startDelayProxy(server.messagesBaseUrl, delayMs);
  try {
    const hosts = ['--base-url', main?.url ?? server.baseUrl, '--messages-base-url', messages?.url ?? server.messagesBaseUrl];
    const result = await runCli([...hosts, '--allow-writes', '--seed', SEED, '--quiet', ...args, ...EXTRA], { API_KEY: KEY }, { measureRss: true, timeoutMs: 600_000 });
    const report = result.report;
    const wallMs = report?.durationMs ?? result.ms;
    const spans = [...(main?.requests ?? []), ...(messages?.requests ?? [])];
    return {
      delayMs,
      wallMs,
      requests: direct ? (report?.traffic?.requests ?? 0) : spans.length,
      inFlight: direct ? Number.NaN : meanInFlight(spans, wallMs),
      peakRssMb: result.peakRssMb ?? 0,
      scenarios: new Map((report?.scenarios ?? []).map((s) => [s.title, s.ms])),
      active: report?.scenarios?.length ? Math.max(...report.scenarios.map((s) => s.atMs + s.ms)) - Math.min(...report.scenarios.map((s) => s.atMs)) : wallMs,
      exitCode: result.code,
    };
  } finally {
    await main?.close();
    await messages?.close();
    server.child.kill('SIGTERM');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median run of REPEAT at one delay with these arguments. */
async function medianRun(delayMs: number, args: readonly string[], direct = false): Promise<Row> {
  const runs: Row[] = [];
  for (let i = 0; i < REPEAT; i++) runs.push(await once(delayMs, args, direct));
  if (runs.some((r) => r.exitCode !== 0)) console.log(`warning: at ${delayMs} ms (${args.join(' ') || 'default'}) a run exited ${runs.map((r) => r.exitCode).join(', ')}`);
  const mid = runs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
  return { ...mid, peakRssMb: median(runs.map((r) => r.peakRssMb)) };
}

const sequential: Row[] = [];
const auto: Row[] = [];
const direct = await medianRun(0, [], true);
for (const delayMs of DELAYS) {
  sequential.push(await medianRun(delayMs, ['--schedule', 'sequential']));
  auto.push(await medianRun(delayMs, []));
}
// The chains: with no cap on what is in flight (side by side, --concurrency 256), a scenario's time
// grows only by the round trips its own requests wait for one after another.
const near = Math.min(...DELAYS);
const farDelay = Math.max(...DELAYS);
const unbounded = ['--schedule', 'concurrent', '--concurrency', '256'];
const [chainNear, chainFar] = farDelay > near ? [await medianRun(near, unbounded), await medianRun(farDelay, unbounded)] : [undefined, undefined];
const chains = [...(chainNear?.scenarios ?? [])].map(([title, ms]) => ({ title, chain: Math.max(0, ((chainFar!.scenarios.get(title) ?? ms) - ms) / (farDelay - near)) }));
const longest = chains.reduce((a, b) => (b.chain > a.chain ? b : a), { title: 'n/a', chain: 0 });
// The floor: the run's start-up and reports, then the longer of its work with nothing to wait for
// (the default run with no delay added) and its longest chain of round trips.
const loopback = auto.find((r) => r.delayMs === 0) ?? auto[0]!;
const overhead = loopback.wallMs - loopback.active;
const floorAt = (delayMs: number) => overhead + Math.max(loopback.active, longest.chain * delayMs);
console.log(`\nDistance table (seed ${SEED}, median of ${REPEAT}${EXTRA.length ? `, ${EXTRA.join(' ')}` : ''}):`);
console.log(`loopback without the proxy (the run as against a server on the same machine): ${(direct.wallMs / 1000).toFixed(1)} s, ${direct.requests} requests, peak RSS ${Math.round(direct.peakRssMb)} MB`);
console.log(`longest chain: ${longest.chain.toFixed(0)} round trips (${longest.title.slice(0, 90)}); start-up and reports ${Math.round(overhead)} ms; the work with no delay ${Math.round(loopback.active)} ms`);
console.log('| added | one after another | side by side (default) | vs 0 ms | vs loopback | requests | mean in flight | peak RSS | floor | wall / floor |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [i, row] of auto.entries()) {
  const floor = floorAt(row.delayMs);
  console.log(
    `| ${row.delayMs} ms | ${(sequential[i]!.wallMs / 1000).toFixed(1)} s | ${(row.wallMs / 1000).toFixed(1)} s | ${(row.wallMs / loopback.wallMs).toFixed(1)}× | ${(row.wallMs / direct.wallMs).toFixed(1)}× | ${row.requests} | ${row.inFlight.toFixed(1)} | ${Math.round(row.peakRssMb)} MB | ${(floor / 1000).toFixed(1)} s | ${(row.wallMs / floor).toFixed(1)}× |`,
  );
}
