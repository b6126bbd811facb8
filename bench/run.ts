import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runCli } from '../selftest/support/run-cli.ts';

// `npm run bench`: the full run against the reference server in its own process, as a user's server
// would be, for several --runs; and autocannon on GET /v1/pets?limit=20 for the raw client rate.
const REFERENCE_BIN = fileURLToPath(new URL('../bin/reference.mjs', import.meta.url));
const KEY = 'bench-key';
const RUNS = (process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? '25,100,400').split(',').map(Number);
const WORKERS = 1;

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

async function rawRate(url: string, connections: number): Promise<number> {
  const options = { url, connections, headers: { authorization: `Bearer ${KEY}` } };
  await autocannon({ ...options, duration: 2 }); // warm-up: a cold server's JIT skews the first seconds
  const result = await autocannon({ ...options, duration: 5 });
  return result.requests.average;
}

const server = await startReferenceProcess();
try {
  const rows: { runs: number; wallS: number; requests: number; rps: number; peakRssMb: number; ratio: number }[] = [];
  const raw = await rawRate(`${server.baseUrl}/v1/pets?limit=20`, WORKERS);
  for (const runs of RUNS) {
    const result = await runCli(
      ['--base-url', server.baseUrl, '--messages-base-url', server.messagesBaseUrl, '--runs', String(runs), '--seed', '1', '--workers', String(WORKERS), '--quiet'],
      { API_KEY: KEY },
      { timeoutMs: 600_000 },
    );
    if (result.code !== 0) throw new Error(`the run with --runs ${runs} exited ${result.code}: ${result.stderr.slice(0, 300)}`);
    const requests = Number(/Requests sent: (\d+)/.exec(result.stdout)?.[1] ?? 0);
    const peakRssMb = Number(/peak RSS (\d+) MB/.exec(result.stdout)?.[1] ?? 0);
    const wallS = result.ms / 1000;
    const rps = requests / wallS;
    rows.push({ runs, wallS, requests, rps, peakRssMb, ratio: rps / raw });
  }
  const lines = [
    `autocannon GET /v1/pets?limit=20, ${WORKERS} connections, 5 s: ${raw.toFixed(0)} req/s`,
    '',
    '| --runs | wall | requests | req/s (whole run) | share of autocannon | peak RSS |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.runs} | ${r.wallS.toFixed(1)} s | ${r.requests} | ${r.rps.toFixed(0)} | ${(r.ratio * 100).toFixed(0)}% | ${r.peakRssMb} MB |`),
  ];
  const first = rows[0];
  const last = rows[rows.length - 1];
  let marginal = 0;
  if (first && last && last !== first) {
    // The fixed start-up cancels out: what the extra runs cost is the property phases' own rate.
    marginal = (last.requests - first.requests) / (last.wallS - first.wallS);
    lines.push('', `property phases (--runs ${first.runs} -> ${last.runs}): ${marginal.toFixed(0)} req/s = ${((marginal / raw) * 100).toFixed(0)}% of autocannon`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  await mkdir('reports', { recursive: true });
  await writeFile('reports/bench.json', `${JSON.stringify({ node: process.version, autocannonRps: raw, workers: WORKERS, propertyPhaseRps: marginal, rows }, null, 2)}\n`);
} finally {
  server.child.kill('SIGTERM');
}
