import { spawn } from 'node:child_process';
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => { const c = spawn('node', args, { env }); let o = '', e = ''; c.stdout.on('data', (d) => (o += d)); c.stderr.on('data', (d) => (e += d)); c.on('close', (status) => resolve({ status, stdout: o, stderr: e })); });
}
import { readFileSync } from 'node:fs';
import { startReference } from '../reference/server.ts';
const [dev, seeds, runs, ...extra] = process.argv.slice(2);
let caught = 0;
for (let seed = 1; seed <= Number(seeds); seed++) {
  const server = await startReference({ apiKey: 'k-123456789', deviations: dev === 'none' ? [] : dev!.split(',') });
  const out = await run(['bin/animal-store-conformance.mjs', '--base-url', server.baseUrl, '--messages-base-url', server.messagesBaseUrl, '--seed', String(seed), '--runs', runs ?? '10', '--schedule', 'sequential', '--quiet', '--reports', `/tmp/seq/r${seed}`, ...extra], { ...process.env, API_KEY: 'k-123456789' });
  await server.close();
  if (out.status !== 0 && out.status !== 1) { console.log(out.status, out.stdout.slice(-800), out.stderr.slice(-800)); continue; }
  const report = JSON.parse(readFileSync(`/tmp/seq/r${seed}/report.json`, 'utf8'));
  const failed: string[] = []; const warned: string[] = [];
  let steps = '';
  for (const c of report.clauses ?? []) for (const ch of c.checks ?? []) {
    if (ch.outcome === 'fail') { failed.push(ch.clause); if (ch.story) steps += ` [${ch.clause}: ${ch.story.steps.length} steps]`; }
    if (ch.outcome === 'warn') warned.push(ch.clause);
  }
  const seq = (report.scenarios ?? []).find((s: { title: string }) => /sequences/.test(s.title));
  if (failed.length) caught++;
  console.log(`seed ${seed}: exit ${out.status} failed [${failed}] warned [${warned}] seq ${seq?.requests} req ${seq?.ms} ms${steps}`);
}
console.log(`${dev}: ${caught}/${seeds}`);
