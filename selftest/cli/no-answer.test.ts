/**
 * A request that gets no answer fails the clause it was sent for, never errors.no-5xx ("No 5xx for
 * any request the suite sends") where no 5xx came back; and once the client stops sending to an
 * operation that went unanswered, only the real timeouts are evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'no-answer-test-key-4e1b';

describe('a message host whose POST never answers', () => {
  let reference: RunningReference;
  let hanging: LoopbackServer;
  let messagesUrl: string;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    // The preflight's GET is answered; every POST is read and left hanging.
    hanging = await serveOnLoopback((req, res) => {
      if (req.method === 'GET') res.writeHead(405, { 'content-type': 'application/json' }).end('{"code":"method_not_allowed","message":"POST only","status":405}');
      else req.resume();
    });
    messagesUrl = hanging.url;
  });
  afterAll(async () => {
    await hanging.close();
    await reference.close();
  });

  it('fails the message clauses with "an HTTP response", not errors.no-5xx, and keeps a real timeout as evidence', async () => {
    const args = ['--base-url', reference.baseUrl, '--messages-base-url', messagesUrl, '--only', '4.5,7', '--runs', '3', '--seed', '8', '--timeout', '500'];
    const result = await runCli(args, { API_KEY: KEY });
    expect(result.code, result.stderr).toBe(1);
    const clauses = result.report!.clauses;
    const failed = clauses.filter((c) => c.outcome === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.map((c) => c.id)).not.toContain('errors.no-5xx');
    const actuals: string[] = [];
    for (const clause of failed) {
      expect(clause.section, clause.id).toBe('4.5');
      for (const check of clause.checks.filter((k) => k.outcome === 'fail')) {
        expect(check.expected).toBe('an HTTP response');
        actuals.push(...(check.failures ?? []).map((f) => f.actual ?? ''));
      }
    }
    // Requests held back once the operation hung are evidence of nothing: only real timeouts are listed.
    for (const actual of actuals) expect(actual).toMatch(/^timeout: no answer within 500 ms/);
  });
});
