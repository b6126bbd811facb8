import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runCli } from '../selftest/support/run-cli.ts';

// `npm run bench`: the full run against the reference server in its own process, as a user's server
// would be, for several --runs; and autocannon on GET /v1/pets?limit=20 for the raw client rate.
// Every run and every autocannon measurement gets a fresh server: a store that earlier runs filled
// with long names answers that listing with far bigger bodies.
// Options: --runs=25,100,400 (the rows), --repeat=3 (rounds; medians are shown).
const REFERENCE_BIN = fileURLToPath(new URL('../bin/reference.mjs', import.meta.url));
const KEY = 'bench-key-0123456789';
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = (option('runs') ?? '25,100,400').split(',').map(Number);
const REPEAT = Number(option('repeat') ?? 3);
// One worker, and inside it one request in flight at a time (a property sends one input, then
// judges it): autocannon gets as many connections.
const WORKERS = 1;
const CONNECTIONS = 1;

async function startReferenceProcess(): Promise<{ child: ChildProcess; baseUrl: string; messagesBaseUrl: string }> {
  const child = spawn(process.execPath, [REFERENCE_BIN, '--port', '0', '--messages-port', '0', '--api-key', KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`the reference server did not start: ${out}`));
    }, 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const base = /\bbaseUrl:\s+(\S+)/.exec(out)?.[1];
      const messages = /messagesBaseUrl:\s+(\S+)/.exec(out)?.[1];
      if (base && messages) {
        clearTimeout(timer);
        resolve({ child, baseUrl: base, messagesBaseUrl: messages });
      }
    });
  });
}

async function rawRate(seconds: number): Promise<number> {
  const server = await startReferenceProcess();
  try {
    const options = { url: `${server.baseUrl}/v1/pets?limit=20`, connections: CONNECTIONS, headers: { authorization: `Bearer ${KEY}` } };
    await autocannon({ ...options, duration: 2 }); // warm-up: a cold server's JIT skews the first seconds
    return (await autocannon({ ...options, duration: seconds })).requests.average;
  } finally {
    server.child.kill('SIGTERM');
  }
}

interface Sample {
  wallS: number;
  requests: number;
  cpuS: number;
  peakRssMb: number;
}

async function runSuite(runs: number): Promise<Sample> {
  const server = await startReferenceProcess();
  try {
    const result = await runCli(
      ['--base-url', server.baseUrl, '--messages-base-url', server.messagesBaseUrl, '--runs', String(runs), '--seed', '1', '--workers', String(WORKERS), '--quiet'],
      { API_KEY: KEY },
      { timeoutMs: 600_000 },
    );
    if (result.code !== 0) throw new Error(`the run with --runs ${runs} exited ${result.code}: ${result.stderr.slice(0, 300)}`);
    const figure = (pattern: RegExp) => Number(pattern.exec(result.stdout)?.[1] ?? Number.NaN);
    return { wallS: result.ms / 1000, requests: figure(/Requests sent: (\d+)/), cpuS: figure(/CPU ([\d.]+) s/), peakRssMb: figure(/peak RSS (\d+) MB/) };
  } finally {
    server.child.kill('SIGTERM');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN;

// Rounds: autocannon, then one run per --runs value, then autocannon again. A shared machine drifts
// over a minute, so each round's property-phase rate is set against the autocannon rate measured
// around it, and the rounds' median is the figure.
interface Round {
  autocannon: [number, number];
  samples: Sample[];
  phase?: { rps: number; share: number; cpuUsPerRequest: number };
}
const rounds: Round[] = [];
for (let i = 0; i < REPEAT; i++) {
  const before = await rawRate(3);
  const samples: Sample[] = [];
  for (const runs of RUNS) samples.push(await runSuite(runs));
  const after = await rawRate(3);
  const round: Round = { autocannon: [before, after], samples };
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (first && last && last !== first) {
    // The fixed start-up cancels out: what the extra runs cost is the property phases' own rate.
    const extra = last.requests - first.requests;
    const rps = extra / (last.wallS - first.wallS);
    round.phase = { rps, share: rps / ((before + after) / 2), cpuUsPerRequest: ((last.cpuS - first.cpuS) / extra) * 1e6 };
  }
  rounds.push(round);
}
const raw = median(rounds.flatMap((r) => r.autocannon));
const rows = RUNS.map((runs, index) => {
  const samples = rounds.map((r) => r.samples[index]!);
  const wallS = median(samples.map((s) => s.wallS));
  const requests = median(samples.map((s) => s.requests));
  return { runs, wallS, requests, rps: requests / wallS, cpuS: median(samples.map((s) => s.cpuS)), peakRssMb: Math.max(...samples.map((s) => s.peakRssMb)) };
});
const lines = [
  `autocannon GET /v1/pets?limit=20, ${CONNECTIONS} connection, 3 s before and after each round, a fresh server each time: ` +
    `${rounds.flatMap((r) => r.autocannon).map((rps) => rps.toFixed(0)).join(', ')} req/s (median ${raw.toFixed(0)})`,
  `suite: ${WORKERS} worker, one request in flight, a fresh server per run; ${REPEAT} rounds, each row their median (peak RSS: the highest)`,
  '',
  '| --runs | wall | requests | req/s (whole run) | share of autocannon | CPU | peak RSS |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) => `| ${r.runs} | ${r.wallS.toFixed(1)} s | ${r.requests} | ${r.rps.toFixed(0)} | ${((r.rps / raw) * 100).toFixed(0)}% | ${r.cpuS.toFixed(1)} s | ${r.peakRssMb} MB |`,
  ),
];
const phases = rounds.flatMap((r) => (r.phase ? [r.phase] : []));
const phase = phases.length
  ? { rps: median(phases.map((p) => p.rps)), share: median(phases.map((p) => p.share)), cpuUsPerRequest: median(phases.map((p) => p.cpuUsPerRequest)) }
  : undefined;
if (phase) {
  lines.push(
    '',
    `property phases (--runs ${RUNS[0]} -> ${RUNS[RUNS.length - 1]}), per round: ${phases.map((p) => `${(p.share * 100).toFixed(0)}%`).join(', ')} of autocannon; ` +
      `median ${phase.rps.toFixed(0)} req/s = ${(phase.share * 100).toFixed(0)}%; the suite's own CPU: ${phase.cpuUsPerRequest.toFixed(0)} µs per request`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
await mkdir('reports', { recursive: true });
await writeFile(
  'reports/bench.json',
  `${JSON.stringify({ node: process.version, autocannonRps: raw, workers: WORKERS, connections: CONNECTIONS, propertyPhase: phase, rows, rounds }, null, 2)}\n`,
);
