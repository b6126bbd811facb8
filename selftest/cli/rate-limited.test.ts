import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'unavailable-key-123456';

describe('a target that answers 429 (an HTML page, as a gateway would) to everything', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await serveOnLoopback((req, res) => {
      req.resume();
      res.writeHead(429, { 'content-type': 'text/html' }).end('<html><body>429 Too Many Requests</body></html>');
    });
  });
  afterAll(() => server.close());

  it('fails no clause, but exits 3 with one line saying the gate cannot vouch, within seconds', async () => {
    const result = await runCli(['--base-url', server.url, '--messages-base-url', server.url, '--runs', '5', '--seed', '3', '--quiet'], { API_KEY: 'rate-limited-key-123' }, { timeoutMs: 60_000 });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^animal-store-conformance: rate limited: \d+ MUST clauses were skipped, or judged only in part, where the target answered 429/m);
    expect(result.report?.verdict).toBe('fail');
    expect(result.report?.summary.fail).toBe(0);
    const authRequired = result.report?.clauses.find((c) => c.id === 'auth.required')?.checks[0];
    expect(authRequired?.note).toMatch(/429/);
    expect(authRequired?.blockedBy).toBe('rate-limit');
    expect(result.ms).toBeLessThan(30_000);
  });
});

/** The reference server, with a message host that answers every request 503 with this Retry-After. */
function withUnavailableMessageHost(retryAfter: string): { run: () => ReturnType<typeof runCli> } {
  let reference: RunningReference;
  let unavailable: LoopbackServer;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    unavailable = await serveOnLoopback((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'text/html', 'retry-after': retryAfter }).end('<html><body>503 Service Unavailable</body></html>');
    });
  });
  afterAll(async () => {
    await unavailable.close();
    await reference.close();
  });
  return { run: () => runCli(['--base-url', reference.baseUrl, '--messages-base-url', unavailable.url, '--runs', '5', '--seed', '3', '--quiet'], { API_KEY: KEY }, { timeoutMs: 90_000 }) };
}

describe('a message host that answers 503 with Retry-After (a gateway whose upstream is down) to everything', () => {
  const target = withUnavailableMessageHost('1');

  // Until 2026-12-07 it was left unjudged as a rate limit (exit 3, "lower --max-rps"), and a header alone
  // moved an outage from DOES NOT SHIP to CANNOT VOUCH (helper-38a).
  it('is judged as the 5xx it is once waiting out its Retry-After and a rest of the whole client did not cure it: errors.no-5xx fails, exit 1', async () => {
    const result = await target.run();
    expect(result.code, result.stdout).toBe(1);
    const no5xx = result.report?.clauses.find((c) => c.id === 'errors.no-5xx');
    expect(no5xx?.outcome).toBe('fail');
    expect(no5xx?.checks.find((check) => check.outcome === 'fail')?.actual).toMatch(/^503/);
    expect(result.stderr).not.toMatch(/rate limited/);
  });
});

describe('a message host that answers 503 with a Retry-After that says no time ("soon")', () => {
  const target = withUnavailableMessageHost('soon');

  it('is not waited out, so it is judged as the 5xx it is: errors.no-5xx fails and the run exits 1', async () => {
    const result = await target.run();
    expect(result.code, result.stdout).toBe(1);
    expect(result.report?.clauses.find((c) => c.id === 'errors.no-5xx')?.outcome).toBe('fail');
    expect(result.stdout).toMatch(/^Note: \d+ failures rest on a 503 without Retry-After\. Where a gateway .* --max-rps below that rate spares it/m);
  });
});

describe('a gateway that limits the rate of requests and answers 503 without Retry-After past it (nginx limit_req)', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['allowed-rate-limit-503'] });
  });
  afterAll(() => reference.close());

  it('fails nothing: it slows to the rate at which waiting cured the 503s, and names that rate for --max-rps', async () => {
    const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--runs', '5', '--seed', '3'], { API_KEY: KEY }, { timeoutMs: 90_000 });
    expect(result.code, result.stdout).toBe(0);
    const paced = result.report?.traffic?.pacedRps;
    // 300 a second per port (reference/router.ts), held a tenth under what the port answered calmly.
    expect(paced).toBeGreaterThan(0);
    expect(paced).toBeLessThanOrEqual(300);
    expect(result.report?.traffic?.overloaded).toBeGreaterThan(0);
    expect(result.stdout).toContain(`It held the requests to one host, or to one operation on it, to ${paced} a second at the least: --max-rps ${paced} starts there.`);
  });
});
