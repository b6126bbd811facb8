import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.ts';

describe('a target that answers 429 (an HTML page, as a gateway would) to everything', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(429, { 'content-type': 'text/html' }).end('<html><body>429 Too Many Requests</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fails no clause, but exits 3 with one line saying the gate cannot vouch, within seconds', async () => {
    const result = await runCli(['--base-url', url, '--messages-base-url', url, '--runs', '5', '--seed', '3', '--quiet'], { API_KEY: 'rate-limited-key-123' }, { timeoutMs: 60_000 });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^animal-store-conformance: rate limited: \d+ MUST clauses were skipped where the target answered 429/m);
    expect(result.report?.verdict).toBe('fail');
    expect(result.report?.summary.fail).toBe(0);
    const authRequired = result.report?.clauses.find((c) => c.id === 'auth.required')?.checks[0];
    expect(authRequired?.note).toMatch(/429/);
    expect(authRequired?.blockedBy).toBe('rate-limit');
    expect(result.ms).toBeLessThan(30_000);
  });
});
