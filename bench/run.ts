import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runCli } from '../selftest/support/run-cli.ts';

// `npm run bench`: the full run against the reference server in its own process, as a user's server
// would be, for several --runs; and autocannon on GET /v1/pets?limit=20 for the raw client rate.
// Every run and every autocannon measurement gets a fresh server: a store that earlier runs filled
// with long names answers that listing with far bigger bodies.
// Options: --runs=25,100,400 (the rows), --repeat=3 (runs per row; the median is shown).
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

const rawBefore = await rawRate(5);
const rows: { runs: number; wallS: number; requests: number; rps: number; cpuS: number; peakRssMb: number; samples: Sample[] }[] = [];
for (const runs of RUNS) {
  const samples: Sample[] = [];
  for (let i = 0; i < REPEAT; i++) samples.push(await runSuite(runs));
  const wallS = median(samples.map((s) => s.wallS));
  const requests = median(samples.map((s) => s.requests));
  rows.push({ runs, wallS, requests, rps: requests / wallS, cpuS: median(samples.map((s) => s.cpuS)), peakRssMb: Math.max(...samples.map((s) => s.peakRssMb)), samples });
}
// Measured again afterwards: a shared machine drifts, so the suite is compared with the mean of both.
const rawAfter = await rawRate(5);
const raw = (rawBefore + rawAfter) / 2;
const lines = [
  `autocannon GET /v1/pets?limit=20, ${CONNECTIONS} connection, 5 s before and after the runs, each on a fresh server: ${rawBefore.toFixed(0)} and ${rawAfter.toFixed(0)} req/s (mean ${raw.toFixed(0)})`,
  `suite: ${WORKERS} worker, one request in flight; each row the median of ${REPEAT} runs (peak RSS: the highest)`,
  '',
  '| --runs | wall | requests | req/s (whole run) | share of autocannon | CPU | peak RSS |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) => `| ${r.runs} | ${r.wallS.toFixed(1)} s | ${r.requests} | ${r.rps.toFixed(0)} | ${((r.rps / raw) * 100).toFixed(0)}% | ${r.cpuS.toFixed(1)} s | ${r.peakRssMb} MB |`,
  ),
];
const first = rows[0];
const last = rows[rows.length - 1];
let phase: { rps: number; share: number; cpuUsPerRequest: number } | undefined;
if (first && last && last !== first) {
  // The fixed start-up cancels out: what the extra runs cost is the property phases' own rate.
  const extra = last.requests - first.requests;
  const rps = extra / (last.wallS - first.wallS);
  phase = { rps, share: rps / raw, cpuUsPerRequest: ((last.cpuS - first.cpuS) / extra) * 1e6 };
  lines.push(
    '',
    `property phases (--runs ${first.runs} -> ${last.runs}): ${rps.toFixed(0)} req/s = ${(phase.share * 100).toFixed(0)}% of autocannon; ` +
      `the suite's own CPU: ${phase.cpuUsPerRequest.toFixed(0)} µs per request`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
await mkdir('reports', { recursive: true });
await writeFile(
  'reports/bench.json',
  `${JSON.stringify({ node: process.version, autocannonRps: { before: rawBefore, after: rawAfter, mean: raw }, workers: WORKERS, connections: CONNECTIONS, repeat: REPEAT, propertyPhase: phase, rows }, null, 2)}\n`,
);
