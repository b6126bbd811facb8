// Hostile transport servers: each mode behaves as described, and close() is prompt even with a hung client.

import { connect } from 'node:net';
import { Client, fetch, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { HOSTILE_MODES, startHostile, type RunningHostile } from '../../reference/hostile.ts';
import { AUTH, KEY } from './helpers.ts';

const started: RunningHostile[] = [];
async function start(mode: string): Promise<RunningHostile> {
  const h = await startHostile(mode, { apiKey: KEY });
  started.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.close()));
});

const get = (url: string, extra: { bodyTimeout?: number; headersTimeout?: number } = {}) =>
  request(url, { headers: { authorization: AUTH }, headersTimeout: 3000, bodyTimeout: 3000, ...extra });

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = Date.now();
  await fn();
  return Date.now() - t0;
}

/** A raw client that sends a request with a partial body and then hangs. */
function hungClient(baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"na`);
      resolve();
    });
    socket.on('error', () => undefined);
    socket.pause(); // never read what the server sends
  });
}

describe.each(HOSTILE_MODES.map((m) => [m.id] as const))('%s', (mode) => {
  it('starts on two ports and close() resolves in under a second with hung clients', async () => {
    const h = await start(mode);
    expect(h.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(h.messagesBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(h.messagesBaseUrl).not.toBe(h.baseUrl);
    await hungClient(h.baseUrl);
    await hungClient(h.messagesBaseUrl);
    // a client waiting on a normal request too, whose body is never consumed
    const pending = get(`${h.messagesBaseUrl}/messages`).then(
      (r) => r.body.dump().catch(() => undefined),
      () => undefined,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(await timed(() => h.close())).toBeLessThan(1000);
    await pending;
  });
});

describe('behaviour of each mode', () => {
  it('hostile-never-answers: no response arrives', async () => {
    const h = await start('hostile-never-answers');
    await expect(get(`${h.baseUrl}/v1/pets`, { headersTimeout: 300 })).rejects.toThrow();
  });

  it('hostile-endless-body: 200 JSON that never ends; stops when the client goes away', async () => {
    const h = await start('hostile-endless-body');
    const ac = new AbortController();
    const r = await request(`${h.baseUrl}/v1/pets`, { signal: ac.signal, headersTimeout: 3000, bodyTimeout: 3000 });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    let received = '';
    for await (const chunk of r.body) {
      received += String(chunk);
      if (received.length > 2_000_000) break;
    }
    expect(received.startsWith('[{"id":1,"name":"x","categoryId":1},')).toBe(true);
    ac.abort();
    expect(await timed(() => h.close())).toBeLessThan(1000);
  });

  it('hostile-garbage-json: 200 application/json with invalid UTF-8', async () => {
    const h = await start('hostile-garbage-json');
    const r = await get(`${h.messagesBaseUrl}/messages`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    const bytes = Buffer.from(await r.body.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(4000);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
  });

  it('hostile-reset-mid-body: 200, then the connection dies before Content-Length is reached', async () => {
    const h = await start('hostile-reset-mid-body');
    const r = await get(`${h.baseUrl}/v1/pets`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-length']).toBe('1000');
    await expect(r.body.text()).rejects.toThrow();
  });

  it('hostile-redirect-cross-origin: 307 elsewhere; records whether Authorization followed', async () => {
    const h = await start('hostile-redirect-cross-origin');
    const r = await get(`${h.baseUrl}/v1/pets?limit=1`);
    expect(r.statusCode).toBe(307);
    await r.body.dump();
    const location = String(r.headers['location']);
    expect(location).toMatch(/^http:\/\/127\.0\.0\.\d:\d+\/v1\/pets\?limit=1$/);
    expect(new URL(location).origin).not.toBe(h.baseUrl);

    // fetch follows the redirect and, cross-origin, drops Authorization
    const followed = await fetch(`${h.baseUrl}/v1/pets`, { headers: { authorization: AUTH } });
    expect(followed.status).toBe(200);
    await followed.text();
    expect(h.authorizationLeaked()).toBe(false);

    // a client that carries the header along is caught
    const leak = await request(location, { headers: { authorization: AUTH }, headersTimeout: 3000, bodyTimeout: 3000 });
    await leak.body.dump();
    expect(h.authorizationLeaked()).toBe(true);
  });

  it('hostile-trickle: 200 JSON, one byte at a time, slower than a body timeout', async () => {
    const h = await start('hostile-trickle');
    const r = await get(`${h.baseUrl}/v1/pets`, { bodyTimeout: 3000 });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    const iterator = r.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(String(first.value)).toBe('[');
    const t0 = Date.now();
    const second = await iterator.next();
    expect(String(second.value)).toBe('{');
    expect(Date.now() - t0).toBeGreaterThan(1500);
    r.body.destroy();
  });

  const post = (url: string, body: string) =>
    request(url, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body, headersTimeout: 3000, bodyTimeout: 3000 });

  it('hostile-nesting-bomb: every 200 listing is `[` a million times, then `]`; other answers pass through', async () => {
    const h = await start('hostile-nesting-bomb');
    const r = await get(`${h.baseUrl}/v1/pets?limit=5`);
    expect(r.statusCode).toBe(200);
    const text = await r.body.text();
    expect(text).toBe(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    const refused = await get(`${h.baseUrl}/v1/pets?limit=0`);
    expect(refused.statusCode).toBe(400);
    expect(await refused.body.json()).toMatchObject({ status: 400 });
  });

  it('hostile-many-keys: the first animal of a listing carries 200,000 more members', async () => {
    const h = await start('hostile-many-keys');
    const r = await get(`${h.baseUrl}/v1/pets?limit=3`);
    expect(r.statusCode).toBe(200);
    const pets = (await r.body.json()) as Record<string, unknown>[];
    expect(pets).toHaveLength(3);
    expect(Object.keys(pets[0]!).length).toBeGreaterThan(200_000);
    expect(pets[0]).toMatchObject({ k0: 0, k199999: 0, id: expect.any(Number) });
    expect(Object.keys(pets[1]!).length).toBeLessThan(10);
  });

  it('hostile-long-numbers: a created Pet has an id of a million digits and categoryId 1e999999', async () => {
    const h = await start('hostile-long-numbers');
    const r = await post(`${h.baseUrl}/v1/pets`, '{"name":"Rex","categoryId":1}');
    expect(r.statusCode).toBe(201);
    const text = await r.body.text();
    expect(text).toMatch(new RegExp(`^\\{.*"id":9{1000000}[,}]`));
    expect(text).toContain('"categoryId":1e999999');
  });

  it('hostile-429-every-other: every other request, on either port, is 429 with Retry-After: 5 (GET /messages passes through: 405)', async () => {
    const h = await start('hostile-429-every-other');
    const statuses: number[] = [];
    for (const url of [`${h.baseUrl}/v1/pets`, `${h.baseUrl}/v1/pets`, `${h.messagesBaseUrl}/messages`, `${h.baseUrl}/v1/pets`]) {
      const r = await get(url);
      if (r.statusCode === 429) expect(r.headers['retry-after']).toBe('5');
      statuses.push(r.statusCode);
      await r.body.dump();
    }
    expect(statuses).toEqual([200, 429, 405, 429]);
  });

  it('hostile-400-unread-post: a POST gets 400 before its body is read, and the connection reads nothing more', async () => {
    const h = await start('hostile-400-unread-post');
    const client = new Client(h.baseUrl, { pipelining: 1 });
    try {
      const refused = await client.request({ path: '/v1/pets', method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}', headersTimeout: 3000, bodyTimeout: 3000 });
      expect(refused.statusCode).toBe(400);
      expect(await refused.body.json()).toMatchObject({ status: 400 });
      // The same connection: the next request is never read.
      await expect(client.request({ path: '/v1/pets', method: 'GET', headers: { authorization: AUTH }, headersTimeout: 500 })).rejects.toThrow();
    } finally {
      await client.destroy();
    }
    const fresh = await get(`${h.baseUrl}/v1/pets`);
    expect(fresh.statusCode).toBe(200);
    await fresh.body.dump();
  });

  it('hostile-400-unread-post: a POST without a body leaves nothing unread, so its connection reads on', async () => {
    const h = await start('hostile-400-unread-post');
    const client = new Client(h.baseUrl, { pipelining: 1 });
    try {
      const bodiless = await client.request({ path: '/v1/pets', method: 'POST', headers: { authorization: AUTH }, headersTimeout: 3000, bodyTimeout: 3000 });
      expect(bodiless.statusCode).toBe(400);
      await bodiless.body.dump();
      const next = await client.request({ path: '/v1/pets', method: 'GET', headers: { authorization: AUTH }, headersTimeout: 3000, bodyTimeout: 3000 });
      expect(next.statusCode).toBe(200);
      await next.body.dump();
    } finally {
      await client.destroy();
    }
  });

  it('an unknown mode throws', async () => {
    await expect(startHostile('hostile-nope', { apiKey: KEY })).rejects.toThrow(/hostile-nope/);
  });

  it('authorizationLeaked() is false for other modes', async () => {
    expect((await start('hostile-garbage-json')).authorizationLeaked()).toBe(false);
  });
});
