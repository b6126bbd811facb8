// A gateway that serves the service under a path prefix (/animal-store/v1/...) and does not put the
// prefix back into Location: the Location reaches the gateway's own HTML 404, outside the base URL.
// create.location-resolves fails on it (RFC 9110 §10.2.2), and nothing else is judged on that page.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { forward } from '../support/forward.ts';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';
import { failedClauses, runCli } from '../support/run-cli.ts';

const KEY = 'path-prefix-gateway-key';
const PREFIX = '/animal-store';

describe('a gateway with a path prefix that leaves Location as the service wrote it', () => {
  let reference: RunningReference;
  let gateway: LoopbackServer;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    gateway = await serveOnLoopback((req, res) => {
      if (!req.url?.startsWith(`${PREFIX}/`)) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404 Not Found</h1>');
      forward(req, res, reference.baseUrl, req.url.slice(PREFIX.length)).catch(() => res.destroy());
    });
  });
  afterAll(async () => {
    await Promise.all([gateway.close(), reference.close()]);
  });

  it('fails create.location-resolves only, not the Error shape or the JSON Content-Type of the gateway page', async () => {
    const result = await runCli(['--base-url', `${gateway.url}${PREFIX}`, '--runs', '3', '--seed', '5'], { API_KEY: KEY });
    expect(result.code, result.stderr).toBe(1);
    expect(failedClauses(result.report)).toEqual(['create.location-resolves']);
  });
});
