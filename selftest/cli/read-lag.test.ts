// A replica trailing the primary by 900 ms (allowed-read-lag-slow) is allowed and must pass; reads of
// fresh animals wait side by side, not in turn, and once the lag is known they are not spent on 404s.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'read-lag-test-key-7c41d9';
const RUNS = 10;

describe('a read replica trailing the primary by 900 ms', () => {
  let reference: RunningReference;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['allowed-read-lag-slow'] });
    proxy = await startRecordingProxy(reference.baseUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await reference.close();
  });

  it('passes, its fresh animals created side by side while their reads wait, with few 404s', async () => {
    // The seeded animals were created when the server started: past the lag, as on a long-running server.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // One scenario after another, as on loopback: on a loaded machine the proxy's round trip can pass 1 ms, and
    // scenarios side by side would read seeded animals (200) before the create property's first read.
    const result = await runCli(['--base-url', proxy.url, '--messages-base-url', reference.messagesBaseUrl, '--runs', String(RUNS), '--seed', '7', '--only', '4.3', '--schedule', 'sequential'], { API_KEY: KEY });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const byId = proxy.requests.filter((r) => r.method === 'GET' && /^\/v1\/pets\/\d+$/.test(r.path));
    const found = byId.filter((r) => r.status === 200).length;
    const notFound = byId.filter((r) => r.status === 404).length;
    expect(found).toBeGreaterThanOrEqual(RUNS);
    // One read backs off through the window (six 404s); each other read meets at most one 404 (about six each before).
    expect(notFound).toBeLessThanOrEqual(6 + found);
    // --only 4.3 runs §4.2's create property too (its get.read-lag): its edge values and its runs all
    // went out before its first read found its animal, so no read waiting out the lag held the others up.
    const firstFound = proxy.requests.findIndex((r) => byId.includes(r) && r.status === 200);
    const createsBefore = proxy.requests.slice(0, firstFound).filter((r) => r.method === 'POST' && r.path === '/v1/pets').length;
    expect(createsBefore).toBeGreaterThanOrEqual(RUNS);
  });
});
