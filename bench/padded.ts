import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRecordingProxy, type Flight } from '../selftest/support/recording-proxy.ts';
import { startReferenceProcess } from '../selftest/support/reference-process.ts';
import { runCli } from '../selftest/support/run-cli.ts';

// `npm run bench:padded` (bench/padded.ts): a default run against the reference server behind a
// proxy that pads its JSON answers with whitespace to just under --max-body (4 MiB), a server the
// spec allows whose answers are megabytes. It prints, per added delay, the exit code and any failing
// clause (there should be none), the wall time, the requests, peak RSS and the most requests at the
// proxies at once (from their arrival to their answer's last byte): what the bytes of answers in
// flight hold them to (src/http/answer-budget.ts).
// Options: --delays=0,60 --pad=4190000 --listings (pad only GET /pets listings) --seed=1 --args='--concurrency 16'.
execFileSync(process.execPath, [fileURLToPath(new URL('../bin/build.mjs', import.meta.url))], { stdio: 'inherit' });
const KEY = 'bench-key-0123456789';
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DELAYS = (option('delays') ?? '0,60').split(',').map(Number);
const PAD = Number(option('pad') ?? 4_190_000);
const LISTINGS = process.argv.includes('--listings');
const SEED = option('seed') ?? '1';
const EXTRA = (option('args') ?? '').split(' ').filter(Boolean);

console.log(`\nPadded answers (${LISTINGS ? 'GET /pets listings' : 'every JSON answer'} to ${PAD.toLocaleString('en-US')} bytes, seed ${SEED}${EXTRA.length ? `, ${EXTRA.join(' ')}` : ''}):`);
console.log('| added | exit | failing clauses | wall | requests | peak RSS | most requests at once |');
console.log('|---|---|---|---|---|---|---|');
for (const delayMs of DELAYS) {
  const server = await startReferenceProcess(['--port', '0', '--messages-port', '0', '--api-key', KEY]);
  const options = { delayMs, pad: { to: PAD, ...(LISTINGS ? { only: (method: string, path: string) => method === 'GET' && /\/pets(\?|$)/.test(path) } : {}) } };
  const flight: Flight = { now: 0, max: 0 };
  const main = await startRecordingProxy(server.baseUrl, flight, options);
  const messages = await startRecordingProxy(server.messagesBaseUrl, flight, options);
  try {
    const result = await runCli(['--base-url', main.url, '--messages-base-url', messages.url, '--allow-writes', '--seed', SEED, '--quiet', ...EXTRA], { API_KEY: KEY }, { measureRss: true, timeoutMs: 600_000 });
    const failing = result.report?.clauses.filter((c) => c.outcome === 'fail').map((c) => c.id) ?? [];
    const wallMs = result.report?.durationMs ?? result.ms;
    console.log(
      `| ${delayMs} ms | ${result.code} | ${failing.join(', ') || '-'} | ${(wallMs / 1000).toFixed(1)} s | ${result.report?.traffic?.requests ?? '?'} | ${Math.round(result.peakRssMb ?? 0)} MB | ${flight.max} |`,
    );
  } finally {
    await main.close();
    await messages.close();
    server.child.kill('SIGTERM');
  }
}
