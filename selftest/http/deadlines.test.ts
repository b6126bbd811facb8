import { describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_CLIENT_OPTIONS, HttpClient } from '../../src/http/client.ts';
import { serveOnLoopback } from '../support/loopback-server.ts';

const LISTING = '[{"id":1,"name":"Rex","categoryId":1}]';

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('HttpClient: a deadline passed while the suite itself was busy', () => {
  it('reads an answer that came in time and waited in the socket while the event loop was blocked past the deadline', async () => {
    const server = await serveOnLoopback((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(LISTING.length) }).end(LISTING);
        // The answer is written at once; the process then stays busy past the client's 300 ms, so the
        // first thing its event loop does after is run its timers, before it reads the socket.
        setImmediate(() => blockFor(600));
      });
    });
    onTestFinished(() => server.close());
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, timeoutMs: 300 });
    onTestFinished(() => client.close());
    const exchange = await client.send({ method: 'GET', url: `${server.url}/v1/pets`, operation: 'GET /v1/pets' });
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response?.status).toBe(200);
    expect(exchange.response?.body.toString()).toBe(LISTING);
  });

  it('still times out an answer that never comes', async () => {
    const server = await serveOnLoopback((req) => req.resume());
    onTestFinished(() => server.close());
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, timeoutMs: 300 });
    onTestFinished(() => client.close());
    const started = performance.now();
    const exchange = await client.send({ method: 'GET', url: `${server.url}/v1/pets`, operation: 'GET /v1/pets' });
    expect(exchange.response).toBeUndefined();
    expect(exchange.timeoutMs).toBe(300);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
