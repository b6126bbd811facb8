import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_OPTIONS, HttpClient } from '../../src/http/client.ts';
import type { NetworkOptions } from '../../src/http/network-options.ts';
import { bypassesProxy, proxyFor, proxySecrets, shownProxy } from '../../src/http/proxy.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { CERTS, startGateway, type Gateway } from '../support/gateway.ts';
import { serveOnLoopback } from '../support/loopback-server.ts';

describe('NO_PROXY, as curl and undici read it', () => {
  const cases: [string, string, boolean][] = [
    ['https://api.example.com', 'example.com', true],
    ['https://api.example.com', '.example.com', true],
    ['https://api.example.com', '*.example.com', true],
    ['https://example.com', '.example.com', true],
    ['https://badexample.com', 'example.com', false],
    ['https://API.Example.com', 'api.example.com', true],
    ['https://api.example.com:8443', 'api.example.com:8443', true],
    ['https://api.example.com:8443', 'api.example.com:443', false],
    ['https://api.example.com', 'api.example.com:443', true],
    ['https://api.example.com', 'other.test, api.example.com', true],
    ['https://api.example.com', 'other.test api.example.com', true],
    ['https://api.example.com', '*', true],
    ['https://api.example.com', '', false],
    ['http://10.1.2.3:8080', '10.0.0.0/8', true],
    ['http://11.1.2.3:8080', '10.0.0.0/8', false],
    ['http://[::1]:8080', '::1', true],
    ['http://[::1]:8080', '[::1]:8080', true],
    ['http://[::1]:8080', '[::1]:9090', false],
    ['http://[fd00::5]', 'fd00::/8', true],
    ['http://127.0.0.1:3000', 'localhost', false],
  ];
  it.each(cases)('%s with NO_PROXY=%j bypasses the proxy: %s', (url, noProxy, bypass) => {
    expect(bypassesProxy(new URL(url), noProxy)).toBe(bypass);
  });

  it('takes the https proxy for https:// and the http one for http://, none where NO_PROXY says so', () => {
    const proxy = { http: 'http://plain:3128', https: 'http://secure:3128', noProxy: 'internal.test' };
    expect(proxyFor(new URL('https://api.example.com'), proxy)).toBe('http://secure:3128');
    expect(proxyFor(new URL('http://api.example.com'), proxy)).toBe('http://plain:3128');
    expect(proxyFor(new URL('https://internal.test'), proxy)).toBeUndefined();
    expect(proxyFor(new URL('https://api.example.com'), undefined)).toBeUndefined();
  });

  it('shows a proxy without its credentials and counts them as secrets', () => {
    expect(shownProxy('http://us%40er:p%3Ass@proxy.test:3128')).toBe('http://proxy.test:3128 (with credentials)');
    expect(shownProxy('http://proxy.test:3128')).toBe('http://proxy.test:3128');
    const secrets = proxySecrets('http://us%40er:p%3Ass@proxy.test:3128');
    expect(secrets).toEqual(expect.arrayContaining(['us@er', 'p:ss', 'us%40er', 'p%3Ass', Buffer.from('us@er:p:ss').toString('base64')]));
    expect(proxySecrets('http://proxy.test:3128')).toEqual([]);
  });
});

describe('HttpClient through real loopback components', () => {
  let proxy: ForwardProxy;
  let gateway: Gateway;
  let plain: Gateway;
  let backend: Gateway;
  const ca = readFileSync(CERTS.ca, 'utf8');
  beforeAll(async () => {
    proxy = await startForwardProxy({ user: 'u', password: 'proxy-secret-pw' });
    // A plain backend the gateways route to: itself a gateway with one route that answers 404 (no upstream needed).
    backend = await startGateway({ routes: {}, tls: false });
    gateway = await startGateway({ routes: { '/prefix': backend.origin } });
    plain = await startGateway({ routes: { '/prefix': backend.origin }, tls: false });
  });
  afterAll(async () => {
    await Promise.all([proxy.close(), gateway.close(), plain.close(), backend.close()]);
  });

  const send = async (network: NetworkOptions, url: string) => {
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, timeoutMs: 5_000, network });
    try {
      return await client.send({ method: 'GET', url, headers: { Accept: 'application/json' } });
    } finally {
      await client.close();
    }
  };

  it('tunnels https:// through the proxy with CONNECT, trusting the private CA given', async () => {
    const before = proxy.requests.length;
    const exchange = await send({ proxy: { https: proxy.urlWithCredentials }, tls: { ca: [ca] } }, `${gateway.origin}/prefix/v1/pets`);
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response?.status).toBe(404);
    const host = new URL(gateway.origin).host;
    expect(proxy.requests.slice(before)).toEqual([{ method: 'CONNECT', target: host, authorization: `Basic ${Buffer.from('u:proxy-secret-pw').toString('base64')}` }]);
    expect(gateway.seen.at(-1)?.path).toBe('/prefix/v1/pets');
  });

  it('sends http:// through the proxy in absolute form, as curl does', async () => {
    const before = proxy.requests.length;
    const exchange = await send({ proxy: { http: proxy.urlWithCredentials } }, `${plain.origin}/prefix/v1/pets?limit=1`);
    expect(exchange.response?.status).toBe(404);
    expect(proxy.requests.slice(before).map((r) => `${r.method} ${r.target}`)).toEqual([`GET ${plain.origin}/prefix/v1/pets?limit=1`]);
  });

  it('reads through the proxy the headers it reads without one (a pool to an http:// target via a proxy gets the same settings)', async () => {
    const big = await serveOnLoopback((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-long': 'a'.repeat(32 * 1024) }).end('[]'));
    try {
      const origin = big.url;
      const direct = await send({}, `${origin}/v1/pets`);
      expect(direct.response?.headers['x-long']?.length).toBe(32 * 1024);
      const proxied = await send({ proxy: { http: proxy.urlWithCredentials } }, `${origin}/v1/pets`);
      expect(proxied.failure).toBeUndefined();
      expect(proxied.response?.headers['x-long']?.length).toBe(32 * 1024);
    } finally {
      await big.close();
    }
  });

  it('reports a proxy that refuses the credentials with its status, not as a timeout', async () => {
    const wrong = proxy.urlWithCredentials.replace('proxy-secret-pw', 'wrong');
    const tunnelled = await send({ proxy: { https: wrong }, tls: { ca: [ca] } }, `${gateway.origin}/prefix/v1/pets`);
    expect(tunnelled.failure).toEqual({ kind: 'other', message: 'Proxy response (407) !== 200 when HTTP Tunneling' });
    const forwarded = await send({ proxy: { http: wrong } }, `${plain.origin}/prefix/v1/pets`);
    expect(forwarded.failure?.message).toMatch(/Proxy Authentication Required \(407\)/);
  });

  it('goes straight to a host NO_PROXY names', async () => {
    const before = proxy.requests.length;
    const exchange = await send({ proxy: { https: proxy.urlWithCredentials, noProxy: '127.0.0.1' }, tls: { ca: [ca] } }, `${gateway.origin}/prefix/v1/pets`);
    expect(exchange.response?.status).toBe(404);
    expect(proxy.requests.length).toBe(before);
  });

  it('fails TLS for a certificate from a CA it was not given', async () => {
    const exchange = await send({}, `${gateway.origin}/prefix/v1/pets`);
    expect(exchange.failure?.kind).toBe('tls');
    expect(exchange.failure?.message).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED/);
  });

  it('sends the gateway headers to the configured origins only, and shows their variable', async () => {
    const network: NetworkOptions = { headers: [{ name: 'X-Tenant', value: 'tenant-secret-value', variable: 'HEADER_X_TENANT' }], headerOrigins: [plain.origin] };
    const toGateway = await send(network, `${plain.origin}/prefix/v1/pets`);
    expect(plain.seen.at(-1)?.headers['x-tenant']).toBe('tenant-secret-value');
    expect(toGateway.request.headers['X-Tenant']).toBe('$HEADER_X_TENANT');
    expect(JSON.stringify(toGateway.request)).not.toContain('tenant-secret-value');
    // A Location on another origin (here: the backend) gets no gateway header.
    const elsewhere = await send(network, `${backend.origin}/v1/pets`);
    expect(backend.seen.at(-1)?.headers['x-tenant']).toBeUndefined();
    expect(elsewhere.request.headers['X-Tenant']).toBeUndefined();
  });
});
