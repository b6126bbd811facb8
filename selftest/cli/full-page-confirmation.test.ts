// list.full-page sets a short filtered page against the animals a GET /pets/{id} still shows holding
// the status (§3 shows no transitions). Only an answer showing another status takes one off the count.

import { afterEach, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { forward } from '../support/forward.ts';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'full-page-confirmation-key';
const ARGS = ['--only', 'list.full-page', '--fail-on', 'should', '--runs', '1', '--seed', '3'];

const fullPage = (result: Awaited<ReturnType<typeof runCli>>) => result.report?.clauses.find((c) => c.id === 'list.full-page')?.checks[0];

describe('list.full-page on a short filtered page', () => {
  const open: (RunningReference | LoopbackServer)[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });

  it('a server that moves each new animal on to the next status is not warned', async () => {
    const reference = await startReference({ apiKey: KEY, deviations: ['allowed-status-moved-on-create'] });
    open.push(reference);
    const result = await runCli(['--base-url', reference.baseUrl, ...ARGS], { API_KEY: KEY });
    expect(fullPage(result)?.outcome).toBe('pass');
    expect(result.code, result.stderr).toBe(0);
  });

  it('a store that filters after taking the page still warns when every GET /pets/{id} is rate limited', async () => {
    const reference = await startReference({ apiKey: KEY, deviations: ['fault-filter-after-page'] });
    open.push(reference);
    const gate = await serveOnLoopback((req, res) => {
      if (req.method === 'GET' && /^\/v1\/pets\/\d+$/.test(req.url ?? '')) return void res.writeHead(429, { 'retry-after': '3600' }).end();
      forward(req, res, reference.baseUrl).catch(() => res.destroy());
    });
    open.push(gate);
    const result = await runCli(['--base-url', gate.url, ...ARGS], { API_KEY: KEY });
    expect(fullPage(result)?.outcome).toBe('warn');
    expect(result.code, result.stderr).toBe(1);
  });
});
