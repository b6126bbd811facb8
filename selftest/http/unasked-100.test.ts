import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_OPTIONS, HttpClient } from '../../src/http/client.ts';
import { Deadlines } from '../../src/http/dispatch.ts';
import type { NetworkOptions } from '../../src/http/network-options.ts';
import { sendThroughNodeHttp } from '../../src/http/node-http.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { CERTS } from '../support/gateway.ts';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';

const certs = new URL('../support/certs/', import.meta.url);
const pem = (name: string) => readFileSync(new URL(name, certs), 'utf8');

/** Every request, asked or not, gets `100 Continue` first; then its body echoed back with the count of requests seen. */
function continuing(seen: string[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.writeContinue();
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${req.headers['expect'] ?? 'no-expect'} ${body}`);
      if (req.url === '/hang') return;
      if (req.url === '/two-content-types') {
        res.setHeader('content-type', ['application/json', 'text/html']);
        res.end('{}');
        return;
      }
      if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(10_000));
        return;
      }
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ got: body, n: seen.length }));
    });
  };
}

describe('an origin that sends 100 Continue unasked (RFC 9110 §15.2: a client MUST parse 1xx it did not expect)', () => {
  const seen: string[] = [];
  let server: LoopbackServer;
  let proxy: ForwardProxy;
  let tlsServer: ReturnType<typeof createHttpsServer>;
  let tlsOrigin: string;
  beforeAll(async () => {
    server = await serveOnLoopback(continuing(seen));
    tlsServer = createHttpsServer({ cert: pem('server.pem'), key: pem('server-key.pem') }, continuing(seen));
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    // The https:// origin as the client names it is a port nothing listens on: only the proxy's tunnels reach the server.
    const unreachable = createNetServer();
    await new Promise<void>((resolve) => unreachable.listen(0, '127.0.0.1', resolve));
    const namedPort = (unreachable.address() as AddressInfo).port;
    await new Promise((resolve) => unreachable.close(resolve));
    tlsOrigin = `https://127.0.0.1:${namedPort}`;
    proxy = await startForwardProxy({ user: 'u', password: 'proxy-secret-pw' }, { [namedPort]: (tlsServer.address() as AddressInfo).port });
  });
  afterAll(async () => {
    tlsServer.closeAllConnections();
    await Promise.all([server.close(), proxy.close(), new Promise((resolve) => tlsServer.close(resolve))]);
  });

  const client = (network?: NetworkOptions, timeoutMs = 5_000) => new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, timeoutMs, maxBodyBytes: 1_024, ...(network ? { network } : {}) });

  it('judges the answer to the request sent again through node:http, and sends the later ones that way at once', async () => {
    seen.length = 0;
    const c = client();
    try {
      const created = await c.send({ method: 'POST', url: `${server.url}/v1/pets`, headers: { 'content-type': 'application/json' }, body: '{"name":"Rex"}' });
      expect(created.failure).toBeUndefined();
      expect(created.response?.status).toBe(201);
      expect(JSON.parse(created.response!.body.toString())).toEqual({ got: '{"name":"Rex"}', n: 2 });
      // undici's copy reached the server too: it was dropped as its 100 came.
      expect(seen).toEqual([`POST /v1/pets no-expect {"name":"Rex"}`, `POST /v1/pets no-expect {"name":"Rex"}`]);
      const listed = await c.send({ method: 'GET', url: `${server.url}/v1/pets?limit=1` });
      expect(listed.response?.status).toBe(200);
      expect(seen).toHaveLength(3);
      expect([c.stats.sent, c.stats.resent]).toEqual([2, 1]);
    } finally {
      await c.close();
    }
  });

  it('sends the requests waiting for a slot as the first 100 came through node:http alone: the origin sees only those in flight twice', async () => {
    seen.length = 0;
    const c = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, concurrency: 2 });
    try {
      const posts = Array.from({ length: 20 }, (_, i) => c.send({ method: 'POST', url: `${server.url}/v1/pets`, headers: { 'content-type': 'application/json' }, body: `{"n":${i}}` }));
      expect((await Promise.all(posts)).map((e) => e.response?.status)).toEqual(Array(20).fill(201));
      expect(seen.length).toBeLessThanOrEqual(22);
    } finally {
      await c.close();
    }
  });

  it('takes a 103 or a 102 before the 100 as well', async () => {
    const early = await serveOnLoopback((req, res) => {
      if (req.url === '/102') res.writeProcessing();
      else res.writeEarlyHints({ link: '</style.css>; rel=preload' });
      res.writeContinue();
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const c = client();
    try {
      for (const path of ['/103', '/102']) expect((await c.send({ method: 'GET', url: `${early.url}${path}` })).response?.status).toBe(200);
    } finally {
      await c.close();
      await early.close();
    }
  });

  it('reads a repeated header as undici does, every line joined: two Content-Types stay two', async () => {
    const c = client();
    try {
      await c.send({ method: 'GET', url: `${server.url}/first` });
      const twice = await c.send({ method: 'GET', url: `${server.url}/two-content-types` });
      expect(twice.response?.headers['content-type']).toBe('application/json, text/html');
    } finally {
      await c.close();
    }
  });

  it('ends what is in flight through node:http as the client closes', async () => {
    const c = client(undefined, 10_000);
    await c.send({ method: 'GET', url: `${server.url}/first` });
    const hung = c.send({ method: 'GET', url: `${server.url}/hang` });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await c.close();
    expect((await hung).failure).toEqual({ kind: 'other', message: 'the client was closed' });
  });

  it('keeps the bounds: a body past the cap is cut there, and an origin that never answers times out', async () => {
    const c = client(undefined, 300);
    try {
      await c.send({ method: 'GET', url: `${server.url}/first` });
      const big = await c.send({ method: 'GET', url: `${server.url}/big` });
      expect([big.response?.truncated, big.response?.body.length]).toEqual([true, 1_024]);
      const hung = await c.send({ method: 'GET', url: `${server.url}/hang` });
      expect(hung.failure).toEqual({ kind: 'timeout', message: 'no answer within 300 ms' });
    } finally {
      await c.close();
    }
  });

  it('tunnels an https:// origin through the proxy with CONNECT, with the private CA, both times', async () => {
    seen.length = 0;
    const before = proxy.requests.length;
    const c = client({ proxy: { https: proxy.urlWithCredentials }, tls: { ca: [readFileSync(CERTS.ca, 'utf8')] } });
    try {
      const first = await c.send({ method: 'GET', url: `${tlsOrigin}/v1/pets` });
      expect(first.failure).toBeUndefined();
      expect(first.response?.status).toBe(200);
      const second = await c.send({ method: 'GET', url: `${tlsOrigin}/v1/pets` });
      expect(second.response?.status).toBe(200);
      expect(seen).toHaveLength(3);
      const host = new URL(tlsOrigin).host;
      const basic = `Basic ${Buffer.from('u:proxy-secret-pw').toString('base64')}`;
      expect(proxy.requests.slice(before)).toEqual([0, 1, 2].map(() => ({ method: 'CONNECT', target: host, authorization: basic })));
    } finally {
      await c.close();
    }
  });

  describe('node:http on its own, through a proxy to an http:// origin', () => {
    const deadlines = new Deadlines(5_000);
    const send = (proxyUrl: string) =>
      sendThroughNodeHttp({ method: 'GET', url: new URL(`${server.url}/v1/pets?limit=1`), headers: { 'x-test': 'y' }, timeoutMs: 5_000, maxBodyBytes: 1_024, deadlines, signal: new AbortController().signal, network: { proxy: { http: proxyUrl } } });

    it('sends the request in absolute form with the Basic credentials, as undici and curl do', async () => {
      const before = proxy.requests.length;
      const response = await send(proxy.urlWithCredentials);
      expect(response.status).toBe(200);
      const basic = `Basic ${Buffer.from('u:proxy-secret-pw').toString('base64')}`;
      expect(proxy.requests.slice(before)).toEqual([{ method: 'GET', target: `${server.url}/v1/pets?limit=1`, authorization: basic }]);
    });

    it('reports a proxy that refuses the credentials as a failure, not as the origin\'s 407', async () => {
      await expect(send(proxy.urlWithCredentials.replace('proxy-secret-pw', 'wrong'))).rejects.toThrow('Proxy response (407)');
    });
  });
});
