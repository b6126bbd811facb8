// The faithful reference server (no deviations): every operation's happy path and each 4xx rule.

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { arr, call, createPet, header, isErrorReply, KEY, obj, withServer, type Reply } from './helpers.ts';

let srv: RunningReference;
beforeAll(async () => {
  srv = await startReference({ apiKey: KEY });
});
afterAll(async () => {
  await srv?.close();
});

const pets = () => `${srv.baseUrl}/v1/pets`;
const messages = () => `${srv.messagesBaseUrl}/messages`;

describe('authentication comes first, on every operation', () => {
  const operations: { name: string; url: () => string; method: string; body?: string }[] = [
    { name: 'listPets', url: () => `${srv.baseUrl}/v1/pets?limit=0`, method: 'GET' },
    { name: 'createPet', url: () => `${srv.baseUrl}/v1/pets`, method: 'POST', body: '{not json' },
    { name: 'getPet', url: () => `${srv.baseUrl}/v1/pets/abc`, method: 'GET' },
    { name: 'store orders', url: () => `${srv.baseUrl}/v1/store/orders`, method: 'GET' },
    { name: 'messages', url: () => `${srv.messagesBaseUrl}/messages`, method: 'POST', body: '{not json' },
  ];
  const bad: { label: string; auth: string | null; tokenGiven: boolean }[] = [
    { label: 'missing', auth: null, tokenGiven: false },
    { label: 'empty', auth: '', tokenGiven: false },
    { label: 'Bearer without token', auth: 'Bearer', tokenGiven: false },
    { label: 'Bearer and a space', auth: 'Bearer ', tokenGiven: false },
    { label: 'Basic with the key', auth: `Basic ${KEY}`, tokenGiven: false },
    { label: 'Basic base64', auth: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`, tokenGiven: false },
    { label: 'Token scheme', auth: `Token ${KEY}`, tokenGiven: false },
    { label: 'bare key', auth: KEY, tokenGiven: false },
    { label: 'wrong key', auth: 'Bearer wrong-key', tokenGiven: true },
    { label: 'key prefix', auth: `Bearer ${KEY.slice(0, -1)}`, tokenGiven: true },
    { label: 'two spaces', auth: `Bearer  ${KEY}`, tokenGiven: true },
    { label: 'key with suffix', auth: `Bearer ${KEY}x`, tokenGiven: true },
  ];
  for (const op of operations) {
    for (const b of bad) {
      it(`${op.name}: ${b.label} -> 401 Error with WWW-Authenticate`, async () => {
        const r = await call(op.url(), { method: op.method, auth: b.auth, body: op.body });
        expect(isErrorReply(r, 401), r.text).toBe(true);
        expect(obj(r)['code']).toBe('unauthorized');
        const challenge = b.tokenGiven ? 'Bearer realm="animal-store", error="invalid_token"' : 'Bearer realm="animal-store"';
        expect(header(r, 'www-authenticate')).toBe(challenge);
        expect(header(r, 'deprecation')).toBeUndefined();
      });
    }
  }
  it('two Authorization headers (even both valid) -> 401', async () => {
    const { request } = await import('undici');
    const r = await request(pets(), { headers: ['authorization', `Bearer ${KEY}`, 'authorization', `Bearer ${KEY}`], headersTimeout: 5000, bodyTimeout: 5000 });
    expect(r.statusCode).toBe(401);
    await r.body.dump();
  });
  for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
    it(`the scheme is case-insensitive: ${scheme}`, async () => {
      expect((await call(pets(), { auth: `${scheme} ${KEY}` })).status).toBe(200);
      expect((await call(messages(), { auth: `${scheme} ${KEY}`, body: '{"message":"x"}' })).status).toBe(202);
    });
  }
});

describe('GET /v1/pets', () => {
  it('returns the seed in id order: 10 pets, 3 per status and one without status', async () => {
    const r = await call(pets());
    expect(r.status).toBe(200);
    expect(header(r, 'content-type')).toBe('application/json; charset=utf-8');
    const list = arr(r);
    expect(list.map((p) => p['id'])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const s of ['available', 'pending', 'sold']) expect(list.filter((p) => p['status'] === s)).toHaveLength(3);
    const last = list[9] ?? {};
    expect('status' in last).toBe(false);
    for (const p of list) {
      expect(typeof p['name']).toBe('string');
      expect(Number.isInteger(p['categoryId'])).toBe(true);
    }
  });

  it('respects limit, including the bounds 1 and 100', async () => {
    expect(arr(await call(`${pets()}?limit=3`)).map((p) => p['id'])).toEqual([1, 2, 3]);
    expect(arr(await call(`${pets()}?limit=1`))).toHaveLength(1);
    expect(arr(await call(`${pets()}?limit=100`))).toHaveLength(10);
  });

  it('filters by status; pets without status never match', async () => {
    for (const s of ['available', 'pending', 'sold']) {
      const list = arr(await call(`${pets()}?status=${s}`));
      expect(list).toHaveLength(3);
      expect(list.every((p) => p['status'] === s)).toBe(true);
    }
    expect(arr(await call(`${pets()}?status=sold&limit=2`)).map((p) => p['id'])).toEqual([3, 6]);
  });

  it('ignores unknown query parameters', async () => {
    expect(arr(await call(`${pets()}?page=2&foo=bar`))).toHaveLength(10);
  });

  const badQueries = ['limit=0', 'limit=101', 'limit=-1', 'limit=1.5', 'limit=abc', 'limit=', 'limit=5&limit=6', 'limit=99999999999999999999', 'status=Available', 'status=', 'status=lost', 'status=sold&status=sold', 'limit=0&status=bad'];
  for (const q of badQueries) {
    it(`?${q} -> 400 Error`, async () => {
      const r = await call(`${pets()}?${q}`);
      expect(isErrorReply(r, 400), r.text).toBe(true);
    });
  }

  it('defaults limit to 20', async () => {
    await withServer({}, async (s) => {
      for (let i = 0; i < 15; i++) expect((await createPet(s, { name: `p${i}`, categoryId: i })).status).toBe(201);
      const list = arr(await call(`${s.baseUrl}/v1/pets`));
      expect(list).toHaveLength(20);
      expect(list.map((p) => p['id'])).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(arr(await call(`${s.baseUrl}/v1/pets?limit=25`))).toHaveLength(25);
    });
  });

  it('HEAD answers like GET without a body', async () => {
    const r = await call(pets(), { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });
});

describe('POST /v1/pets', () => {
  it('creates: 201 Pet, Location resolves, ids sequential after the seed, no default status', async () => {
    await withServer({}, async (s) => {
      const r = await createPet(s, { name: 'Fido', categoryId: 7, status: 'pending' });
      expect(r.status).toBe(201);
      expect(header(r, 'content-type')).toBe('application/json; charset=utf-8');
      expect(r.json).toEqual({ id: 11, name: 'Fido', categoryId: 7, status: 'pending' });
      expect(header(r, 'location')).toBe('/v1/pets/11');
      const got = await call(`${s.baseUrl}${header(r, 'location')}`);
      expect(got.status).toBe(200);
      expect(got.json).toEqual(r.json);

      const r2 = await createPet(s, { name: 'NoStatus', categoryId: 1 });
      expect(r2.json).toEqual({ id: 12, name: 'NoStatus', categoryId: 1 });
      expect(arr(await call(`${s.baseUrl}/v1/pets?limit=100`)).map((p) => p['id'])).toContain(12);
    });
  });

  it('int64 is lossless both ways (max and min)', async () => {
    for (const literal of ['9223372036854775807', '-9223372036854775808', '9007199254740993']) {
      const r = await createPet(srv, `{"name":"big","categoryId":${literal}}`);
      expect(r.status).toBe(201);
      expect(r.text).toContain(`"categoryId":${literal}`);
      const got = await call(`${srv.baseUrl}${header(r, 'location')}`);
      expect(got.text).toContain(`"categoryId":${literal}`);
    }
  });

  it('accepts integer-valued literals 1.0, 1e2, -0 and 100E-2', async () => {
    const cases: [string, string][] = [['1.0', '1'], ['1e2', '100'], ['-0', '0'], ['100E-2', '1'], ['9.223372036854775807e18', '9223372036854775807']];
    for (const [literal, value] of cases) {
      const r = await createPet(srv, `{"name":"n","categoryId":${literal}}`);
      expect(r.status, literal).toBe(201);
      expect(r.text).toContain(`"categoryId":${value}`);
    }
  });

  it('echoes any name exactly (empty, whitespace, Unicode) and ignores unknown fields', async () => {
    for (const name of ['', '  spaced  ', 'Ünïcødé 🐕 名前', 'a'.repeat(10_000)]) {
      const r = await createPet(srv, { name, categoryId: 1, extra: { x: 1 }, id: 999 });
      expect(r.status).toBe(201);
      expect(obj(r)['name']).toBe(name);
      expect(obj(r)['id']).not.toBe(999);
      expect('extra' in obj(r)).toBe(false);
    }
  });

  const invalid: [string, string | undefined][] = [
    ['no body', undefined],
    ['empty body', ''],
    ['malformed JSON', '{"name":"x",'],
    ['trailing garbage', '{"name":"x","categoryId":1} x'],
    ['byte order mark', '\ufeff{"name":"x","categoryId":1}'],
    ['array', '[{"name":"x","categoryId":1}]'],
    ['string', '"x"'],
    ['number', '1'],
    ['null', 'null'],
    ['missing name', '{"categoryId":1}'],
    ['null name', '{"name":null,"categoryId":1}'],
    ['numeric name', '{"name":5,"categoryId":1}'],
    ['missing categoryId', '{"name":"x"}'],
    ['null categoryId', '{"name":"x","categoryId":null}'],
    ['string categoryId', '{"name":"x","categoryId":"1"}'],
    ['fractional categoryId', '{"name":"x","categoryId":1.5}'],
    ['tiny fraction', '{"name":"x","categoryId":1e-7}'],
    ['1e400', '{"name":"x","categoryId":1e400}'],
    ['2^63', '{"name":"x","categoryId":9223372036854775808}'],
    ['-2^63-1', '{"name":"x","categoryId":-9223372036854775809}'],
    ['null status', '{"name":"x","categoryId":1,"status":null}'],
    ['numeric status', '{"name":"x","categoryId":1,"status":1}'],
    ['status outside the enum', '{"name":"x","categoryId":1,"status":"lost"}'],
    ['status case variant', '{"name":"x","categoryId":1,"status":"Sold"}'],
    ['conflicting duplicate key', '{"name":"x","name":"y","categoryId":1}'],
  ];
  for (const [label, body] of invalid) {
    it(`${label} -> 400 Error`, async () => {
      const r = await call(pets(), { method: 'POST', body });
      expect(isErrorReply(r, 400), r.text).toBe(true);
    });
  }

  it('invalid UTF-8 -> 400 Error', async () => {
    const r = await call(pets(), { body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]) });
    expect(isErrorReply(r, 400), r.text).toBe(true);
  });

  for (const contentType of [null, 'text/plain', 'application/x-www-form-urlencoded', 'application/json-patch+json', 'application/vnd.api+json']) {
    it(`Content-Type ${contentType ?? '(missing)'} -> 400 Error`, async () => {
      const r = await call(pets(), { body: '{"name":"x","categoryId":1}', contentType });
      expect(isErrorReply(r, 400), r.text).toBe(true);
    });
  }

  for (const contentType of ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8']) {
    it(`Content-Type ${contentType} is accepted`, async () => {
      expect((await call(pets(), { body: '{"name":"x","categoryId":1}', contentType })).status).toBe(201);
    });
  }

  it('a body over 1 MiB -> 413 Error', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 });
    const r = await call(pets(), { body });
    expect(isErrorReply(r, 413), r.text).toBe(true);
    // a body just under the limit is fine
    const ok = await call(pets(), { body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 100), categoryId: 1 }) });
    expect(ok.status).toBe(201);
  });
});

describe('GET /v1/pets/{petId} (deprecated)', () => {
  const expectDeprecationHeaders = (r: Reply) => {
    expect(header(r, 'deprecation')).toBe('@1735689600');
    expect(header(r, 'sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(header(r, 'link')).toBe('</v1/pets>; rel="successor-version"');
  };

  it('returns the pet with deprecation headers', async () => {
    const r = await call(`${pets()}/3`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: 3, name: 'Milo', categoryId: 3, status: 'sold' });
    expectDeprecationHeaders(r);
  });

  it('unknown id -> 404 not_found, with deprecation headers', async () => {
    for (const id of ['999', '0', '-1', '9223372036854775807', '-9223372036854775808']) {
      const r = await call(`${pets()}/${id}`);
      expect(isErrorReply(r, 404), r.text).toBe(true);
      expect(obj(r)['code']).toBe('not_found');
      expectDeprecationHeaders(r);
    }
  });

  for (const id of ['abc', '1.5', '99999999999999999999', '9223372036854775808', '', '1e3', '+1', '%20', '0x10']) {
    it(`malformed petId ${JSON.stringify(id)} -> 400 Error with deprecation headers`, async () => {
      const r = await call(`${pets()}/${id}`);
      expect(isErrorReply(r, 400), r.text).toBe(true);
      expectDeprecationHeaders(r);
    });
  }
});

describe('store orders, routing, messages', () => {
  it('GET /v1/store/orders -> 200 []', async () => {
    const r = await call(`${srv.baseUrl}/v1/store/orders`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(header(r, 'content-type')).toBe('application/json; charset=utf-8');
  });

  for (const path of ['/', '/pets', '/v1', '/v1/pets/1/extra', '/v2/pets', '/v1/store', '/messages', '//v1/pets']) {
    it(`unknown path ${path} -> 404 Error`, async () => {
      expect(isErrorReply(await call(`${srv.baseUrl}${path}`), 404)).toBe(true);
    });
  }
  it('the messages port serves only POST /messages', async () => {
    expect(isErrorReply(await call(`${srv.messagesBaseUrl}/v1/pets`), 404)).toBe(true);
    const r = await call(messages());
    expect(isErrorReply(r, 405)).toBe(true);
    expect(header(r, 'allow')).toBe('POST');
  });

  it('wrong method -> 405 Error with Allow', async () => {
    const r = await call(pets(), { method: 'DELETE' });
    expect(isErrorReply(r, 405)).toBe(true);
    expect(header(r, 'allow')).toBe('GET, HEAD, POST');
    const r2 = await call(`${pets()}/1`, { method: 'PUT', body: '{}' });
    expect(isErrorReply(r2, 405)).toBe(true);
    expect(header(r2, 'allow')).toBe('GET, HEAD');
  });

  it('POST /messages -> 202 with id, exact echo, queued, ISO createdAt', async () => {
    for (const message of ['hello', '', '  padded\n', 'Ünïcødé 🐕']) {
      const before = Date.now();
      const r = await call(messages(), { body: JSON.stringify({ message, extra: 1 }) });
      expect(r.status).toBe(202);
      expect(header(r, 'content-type')).toBe('application/json; charset=utf-8');
      const body = obj(r);
      expect(Object.keys(body).sort()).toEqual(['createdAt', 'id', 'message', 'status']);
      expect(body['id']).toMatch(/^msg_[0-9a-f]{24}$/);
      expect(body['message']).toBe(message);
      expect(body['status']).toBe('queued');
      expect(body['createdAt']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(body['createdAt'] as string)).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  const invalidMessages: [string, string | undefined, string | null][] = [
    ['no body', undefined, 'application/json'],
    ['malformed JSON', '{"message":', 'application/json'],
    ['array', '["x"]', 'application/json'],
    ['null', 'null', 'application/json'],
    ['missing message', '{"text":"x"}', 'application/json'],
    ['numeric message', '{"message":1}', 'application/json'],
    ['null message', '{"message":null}', 'application/json'],
    ['text/plain', '{"message":"x"}', 'text/plain'],
    ['no content type', '{"message":"x"}', null],
  ];
  for (const [label, body, contentType] of invalidMessages) {
    it(`messages: ${label} -> 400 Error`, async () => {
      const r = await call(messages(), { method: 'POST', body, contentType });
      expect(isErrorReply(r, 400), r.text).toBe(true);
    });
  }
});

describe('transport robustness', () => {
  it('malformed HTTP gets a JSON 400', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(srv.baseUrl);
      const socket = connect(Number(url.port), url.hostname, () => socket.write('BREW /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'));
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      setTimeout(() => socket.destroy(), 3000);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('Content-Type: application/json; charset=utf-8');
    expect(raw).toContain('"status":400');
  });

  it('an aborted request does not crash the server, and close() is prompt mid-request', async () => {
    const s = await startReference({ apiKey: KEY });
    const url = new URL(s.baseUrl);
    // one client aborts mid-body, another hangs mid-body
    for (const abort of [true, false]) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`);
          if (abort) socket.destroy();
          resolve();
        });
        socket.on('error', () => undefined);
      });
    }
    await new Promise((r) => setTimeout(r, 50));
    expect((await call(`${s.baseUrl}/v1/pets`)).status).toBe(200);
    const started = Date.now();
    await s.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('options', () => {
  it('seedPets: false starts empty and ids start at 1', async () => {
    await withServer({ seedPets: false }, async (s) => {
      expect(arr(await call(`${s.baseUrl}/v1/pets`))).toEqual([]);
      expect(obj(await createPet(s, { name: 'a', categoryId: 1 }))['id']).toBe(1);
    });
  });

  it('an unknown deviation id throws, naming it', async () => {
    await expect(startReference({ apiKey: KEY, deviations: ['fault-does-not-exist'] })).rejects.toThrow(/fault-does-not-exist/);
  });

  it('two servers are independent', async () => {
    await withServer({}, async (a) => {
      await withServer({}, async (b) => {
        await createPet(a, { name: 'only-a', categoryId: 1 });
        expect(arr(await call(`${b.baseUrl}/v1/pets`))).toHaveLength(10);
        expect(arr(await call(`${a.baseUrl}/v1/pets`))).toHaveLength(11);
      });
    });
  });
});
