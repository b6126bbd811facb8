// Every deviation in the catalogue is switchable and changes behaviour: one probe request whose
// observation differs between the faithful server and the server with that id on. Every allowed
// variant has one (nothing else shows it changes anything, as the suite passes it); a fault may, and
// its row of the fault matrix proves it in any case (the suite fails it naming the clause it breaks).

import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DECLARED, DEVIATIONS } from '../../reference/deviations.ts';
import type { RunningReference } from '../../reference/server.ts';
import { get } from 'node:http';
import { connect } from 'node:net';
import { Client, request } from 'undici';
import { arr, AUTH, call, createPet, header, isErrorReply, KEY, obj, withServer } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Probe = (srv: RunningReference) => Promise<unknown>;

const pets = (s: RunningReference, q = '') => `${s.baseUrl}/v1/pets${q}`;
const msg = (s: RunningReference, body: string, opts: { auth?: string | null; contentType?: string | null } = {}) =>
  call(`${s.messagesBaseUrl}/messages`, { method: 'POST', body, ...opts });
const status = async (p: Promise<{ status: number }>) => (await p).status;
const validPet = { name: 'Probe', categoryId: 5 };

/** The status, or 'no answer' when none comes within `ms` (the server's close ends the request). */
async function answerWithin(pending: Promise<{ status: number }>, ms = 500): Promise<number | string> {
  pending.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('no answer'), ms)));
  try {
    return await Promise.race([status(pending), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How many of `count` connections opened at once the server closes within 300 ms, unread. */
async function connectionsClosedOf(s: RunningReference, count: number): Promise<number> {
  const sockets = Array.from({ length: count }, () => connect(Number(new URL(s.baseUrl).port), '127.0.0.1'));
  const closed = await Promise.all(sockets.map((socket) => new Promise<boolean>((resolve) => {
    socket.once('close', () => resolve(true));
    socket.once('error', () => resolve(true));
    setTimeout(() => resolve(false), 300);
  })));
  for (const socket of sockets) socket.destroy();
  return closed.filter(Boolean).length;
}

async function createMany(s: RunningReference, n: number, petStatus?: string): Promise<void> {
  for (let i = 0; i < n; i++) await createPet(s, { name: `bulk${i}`, categoryId: i, ...(petStatus ? { status: petStatus } : {}) });
}

const PROBES: Record<string, Probe> = {
  'fault-auth-hole-list-pets': (s) => status(call(pets(s), { auth: null })),
  'fault-auth-hole-create-pet': (s) => status(call(pets(s), { auth: null, body: JSON.stringify(validPet) })),
  'fault-auth-hole-get-pet': (s) => status(call(pets(s, '/1'), { auth: null })),
  'fault-auth-hole-store-orders': (s) => status(call(`${s.baseUrl}/v1/store/orders`, { auth: null })),
  'fault-auth-hole-messages': (s) => status(msg(s, '{"message":"x"}', { auth: null })),
  'fault-auth-hole-trailing-slash': (s) => status(call(pets(s, '/'), { auth: null })),
  'fault-auth-hole-path-case': (s) => status(call(`${s.baseUrl}/v1/PETS`, { auth: null })),
  'fault-auth-hole-double-slash': (s) => status(call(`${s.baseUrl}/v1//pets`, { auth: null })),
  'fault-auth-hole-head-list-pets': (s) => status(call(pets(s), { auth: null, method: 'HEAD' })),
  'fault-auth-hole-head-get-pet': (s) => Promise.all([status(call(pets(s, '/1'), { auth: null, method: 'HEAD' })), status(call(pets(s, '/999999'), { auth: null, method: 'HEAD' }))]),
  'fault-auth-hole-alias-get-pet': (s) => Promise.all([status(call(pets(s, '/1/'), { auth: null })), status(call(`${s.baseUrl}/v1/PETS/1`, { auth: null }))]),
  'fault-auth-hole-alias-store-orders': (s) => Promise.all([status(call(`${s.baseUrl}/v1/store/orders/`, { auth: null })), status(call(`${s.baseUrl}/v1//store/orders`, { auth: null }))]),
  'fault-auth-hole-head-store-orders': (s) => status(call(`${s.baseUrl}/v1/store/orders`, { auth: null, method: 'HEAD' })),
  'fault-auth-hole-encoded-path': (s) => Promise.all([status(call(`${s.baseUrl}/v1/%70ets`, { auth: null })), status(call(`${s.baseUrl}/v1/%73tore/orders`, { auth: null }))]),
  'fault-auth-hole-query': (s) => status(call(pets(s, '/1?via=alias'), { auth: null })),
  'fault-auth-hole-format-suffix': (s) => Promise.all([status(call(pets(s, '.json'), { auth: null })), status(call(pets(s, '/1.json'), { auth: null }))]),
  'fault-auth-hole-matrix-param': (s) => Promise.all([status(call(pets(s, ';x=1'), { auth: null })), status(call(pets(s, '/1;x=1'), { auth: null }))]),
  'fault-auth-hole-alias-create-pet': (s) => status(call(pets(s, '/'), { method: 'POST', body: JSON.stringify(validPet), auth: null })),
  'fault-auth-hole-query-messages': (s) => status(call(`${s.messagesBaseUrl}/messages?via=alias`, { method: 'POST', body: '{"message":"x"}', auth: null })),
  'fault-auth-hole-create-json-charset': (s) => status(call(pets(s), { auth: null, body: JSON.stringify(validPet), contentType: 'application/json; charset=utf-8' })),
  'fault-auth-key-in-cookie': (s) => status(call(pets(s), { auth: null, headers: { cookie: `theme=dark; api_key=${KEY}` } })),
  'fault-auth-hole-encoded-id': (s) => status(call(pets(s, '/%31'), { auth: null })),
  'fault-auth-key-in-x-auth-token': (s) => status(call(pets(s), { auth: null, headers: { 'x-auth-token': KEY } })),
  'fault-auth-key-in-x-access-token': (s) => status(call(pets(s), { auth: null, headers: { 'x-access-token': KEY } })),
  'fault-auth-trusts-forwarded-loopback': (s) =>
    Promise.all([
      status(call(pets(s), { auth: null, headers: { 'x-forwarded-for': '127.0.0.1' } })),
      status(call(pets(s), { auth: null, headers: { 'x-real-ip': '127.0.0.1' } })),
      status(call(pets(s), { auth: null, headers: { forwarded: 'for=127.0.0.1' } })),
    ]),
  'fault-auth-hole-messages-host-v1': (s) => status(call(`${s.messagesBaseUrl}/v1/pets`, { auth: null })),
  'fault-auth-hole-main-host-messages': (s) => status(call(`${s.baseUrl}/messages`, { method: 'POST', body: '{"message":"x"}', auth: null })),
  'fault-auth-refused-create-stored': async (s) => {
    const refused = await status(call(pets(s), { auth: null, body: JSON.stringify({ name: 'Refused probe', categoryId: 1 }) }));
    const listing = await call(pets(s, '?limit=100'), {});
    return [refused, listing.text.includes('"Refused probe"')];
  },
  'fault-auth-token-percent-decoded': (s) => status(call(pets(s), { auth: `Bearer %${KEY.charCodeAt(0).toString(16)}${KEY.slice(1)}` })),
  'fault-auth-token-padding-ignored': (s) => status(call(pets(s), { auth: `Bearer ${KEY}==` })),
  'fault-auth-key-in-x-api-key': (s) => status(call(pets(s), { auth: null, headers: { 'x-api-key': KEY } })),
  'fault-auth-key-case-insensitive': (s) => status(call(pets(s), { auth: `Bearer ${KEY.toUpperCase()}` })),
  'fault-auth-key-last-char-ignored': (s) => status(call(pets(s), { auth: `Bearer ${KEY.slice(0, -1)}x` })),
  'fault-auth-key-prefix': (s) => status(call(pets(s), { auth: `Bearer ${KEY.slice(0, -1)}` })),
  'fault-auth-key-suffix': (s) => status(call(pets(s), { auth: `Bearer ${KEY.slice(1)}` })),
  'fault-auth-key-ends-token': (s) => status(call(pets(s), { auth: `Bearer x${KEY}` })),
  'fault-auth-scheme-glued': (s) => status(call(pets(s), { auth: `Bearer${KEY}` })),
  'fault-auth-quoted-token': (s) => status(call(pets(s), { auth: `Bearer "${KEY}"` })),
  'fault-auth-unset-setting': (s) => status(call(pets(s), { auth: 'Bearer undefined' })),
  'fault-auth-accepts-jwt-shape': (s) => status(call(pets(s), { auth: 'Bearer e30.e30.' })),
  'fault-auth-bare-key-accepted': (s) => status(call(pets(s), { auth: KEY })),
  'fault-auth-after-validation': (s) =>
    Promise.all([
      status(call(pets(s, '?limit=0'), { auth: null })),
      status(call(pets(s), { auth: null, body: '{"name":' })),
      status(call(pets(s, '/abc'), { auth: 'Bearer wrong' })),
      status(call(pets(s, '/1'), { auth: null })),
    ]),
  'fault-auth-any-scheme': (s) => Promise.all([status(call(pets(s), { auth: `Basic ${KEY}` })), status(call(pets(s), { auth: `Token ${KEY}` }))]),
  'fault-auth-basic-accepted-messages': (s) => status(msg(s, '{"message":"x"}', { auth: `Basic ${KEY}` })),
  'fault-auth-basic-password': (s) => status(call(pets(s), { auth: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}` })),
  'fault-auth-token-first-word': (s) => status(call(pets(s), { auth: `Bearer ${KEY} x` })),
  'fault-auth-403': (s) => status(call(pets(s), { auth: null })),
  'fault-auth-401-body-not-error': async (s) => (await call(pets(s), { auth: 'Bearer nope' })).text,
  'fault-auth-rejects-valid-key-orders': (s) => status(call(`${s.baseUrl}/v1/store/orders`)),

  'fault-create-resets-sold': (s) => call(pets(s), { body: JSON.stringify({ ...validPet, status: 'sold' }) }).then((reply) => reply.status, () => 'closed unanswered'),
  'fault-listing-past-bound': async (s) => {
    await createMany(s, 2);
    return arr(await call(pets(s, '?limit=1'))).length;
  },
  'fault-limit-default-21': async (s) => {
    await createMany(s, 15);
    return arr(await call(pets(s))).length;
  },
  'fault-limit-max-101': (s) => status(call(pets(s, '?limit=101'))),
  'fault-limit-max-99': (s) => status(call(pets(s, '?limit=100'))),
  'fault-limit-min-2': (s) => status(call(pets(s, '?limit=1'))),
  'fault-limit-overflow-500': (s) => status(call(pets(s, '?limit=2147483648'))),
  'fault-status-filter-no-default-limit': async (s) => {
    await createMany(s, 25, 'sold');
    return arr(await call(pets(s, '?status=sold'))).length;
  },
  'fault-limit-nonpositive-unbounded': (s) => Promise.all([status(call(pets(s, '?limit=0'))), status(call(pets(s, '?limit=-1')))]),
  'fault-limit-repeated-500': (s) => status(call(pets(s, '?limit=1&limit=500'))),
  'fault-limit-ignored': async (s) => arr(await call(pets(s, '?limit=2'))).length,
  'fault-filter-ignored': async (s) => arr(await call(pets(s, '?status=sold'))).map((p) => p['status']),
  'fault-filter-ignored-unshown': async (s) => arr(await call(pets(s, '?status=sold'))).map((p) => [p['id'], p['status']]),
  'fault-filter-leaks-deep': async (s) => {
    await createMany(s, 10, 'sold');
    return arr(await call(pets(s, '?status=sold'))).map((p) => p['status']);
  },
  'fault-filter-after-page': async (s) => {
    await createMany(s, 30);
    await createMany(s, 5, 'sold');
    return arr(await call(pets(s, '?status=sold&limit=20'))).length;
  },
  'fault-list-bad-item-deep': async (s) => arr(await call(pets(s))).map((p) => typeof p['categoryId']),
  'fault-list-category-string': async (s) => arr(await call(pets(s, '?limit=3'))).map((p) => typeof p['categoryId']),
  'fault-list-id-shift': async (s) => {
    for (let i = 0; i < 12; i++) await createPet(s, validPet);
    return arr(await call(pets(s, '?limit=100'))).map((p) => p['id']);
  },
  'fault-list-truncates-names': async (s) => {
    await createPet(s, { ...validPet, name: 'Montgomery' });
    return arr(await call(pets(s, '?limit=100'))).map((p) => p['name']);
  },
  'fault-list-rounds-category-ids': async (s) => {
    await call(pets(s), { body: '{"name":"Probe","categoryId":9007199254740993}' });
    return /"categoryId":9007199254740993\b/.test((await call(pets(s, '?limit=100'))).text);
  },
  // The body's first bytes as sent: undici's text() would drop the mark.
  'fault-json-bom': async (s) => {
    const res = await request(pets(s), { headers: { authorization: AUTH }, headersTimeout: 5000, bodyTimeout: 5000 });
    return Buffer.from(await res.body.arrayBuffer()).subarray(0, 3).toString('hex');
  },
  'fault-json-duplicate-status': async (s) => {
    const res = await request(pets(s), { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ ...validPet, status: 'sold' }), headersTimeout: 5000, bodyTimeout: 5000 });
    return (await res.body.text()).match(/"status"/g)?.length ?? 0;
  },
  'fault-list-content-type-text': async (s) => header(await call(pets(s)), 'content-type'),
  'fault-list-invalid-query-envelope': async (s) => (await call(pets(s, '?limit=0'))).status,

  'fault-create-200': (s) => status(createPet(s, validPet)),
  'fault-create-case-insensitive-fields': async (s) => (await createPet(s, { Name: 'Rex', CategoryId: 1 })).status,
  'fault-message-json5': async (s) => (await msg(s, '{message:"hi"}')).status,
  'fault-limit-exponent-applied': async (s) => {
    await createMany(s, 120);
    const reply = await call(pets(s, '?limit=1e3'));
    return reply.status === 200 ? arr(reply).length : reply.status;
  },
  'fault-create-id-missing': async (s) => typeof obj(await createPet(s, validPet))['id'],
  'fault-create-unknown-fields-empty-201': async (s) => typeof obj(await createPet(s, { ...validPet, colour: 'red' }))['id'],
  'fault-create-id-string': async (s) => typeof obj(await createPet(s, validPet))['id'],
  'fault-create-accepts-missing-name': (s) => status(createPet(s, { categoryId: 1 })),
  'fault-create-accepts-missing-category': (s) => status(createPet(s, { name: 'x' })),
  'fault-create-accepts-bad-status': (s) => status(createPet(s, { name: 'x', categoryId: 1, status: 'lost' })),
  'fault-create-accepts-fractional-category': (s) => status(createPet(s, '{"name":"x","categoryId":1.5}')),
  'fault-create-accepts-out-of-range-category': (s) => status(createPet(s, '{"name":"x","categoryId":9223372036854775808}')),
  'fault-create-coerces-numeric-string': (s) => status(createPet(s, { name: 'x', categoryId: '7' })),
  'fault-create-accepts-null-name': (s) => status(createPet(s, { name: null, categoryId: 1 })),
  'fault-create-null-status-as-omitted': (s) => status(createPet(s, { name: 'x', categoryId: 1, status: null })),
  'fault-create-rejects-json-charset': (s) => status(call(pets(s), { body: JSON.stringify(validPet), contentType: 'application/json; charset=utf-8' })),
  'fault-create-500-on-malformed-json': (s) => status(createPet(s, '{"name":')),
  'fault-create-trailing-data-accepted': (s) => status(createPet(s, '{"name":"x","categoryId":1} x')),
  'allowed-status-moved-on-create': async (s) => {
    const id = String(obj(await createPet(s, { name: 'x', categoryId: 1, status: 'pending' }))['id']);
    return obj(await call(pets(s, `/${id}`)))['status'];
  },
  'fault-create-trims-name': async (s) => obj(await createPet(s, { name: '  padded  ', categoryId: 1 }))['name'],
  'fault-create-drops-status': async (s) => obj(await createPet(s, { name: 'x', categoryId: 1, status: 'sold' }))['status'],
  'fault-create-unknown-category-422': (s) => status(createPet(s, { name: 'x', categoryId: 0 })),
  'fault-create-rounds-category': async (s) => /"categoryId":(-?\d+)/.exec((await createPet(s, '{"name":"x","categoryId":9007199254740993}')).text)?.[1],
  'fault-create-duplicate-ids': async (s) => {
    const ids: unknown[] = [];
    for (let i = 0; i < 3; i++) ids.push(obj(await createPet(s, validPet))['id']);
    return ids;
  },
  'fault-create-location-wrong': async (s) => {
    const r = await createPet(s, validPet);
    return header(r, 'location') === `/v1/pets/${String(obj(r)['id'])}`;
  },
  'fault-upsert-client-id': async (s) => {
    await createPet(s, { name: 'Usurper', categoryId: 9, id: 1 });
    return obj(await call(pets(s, '/1')))['name'];
  },
  'fault-client-id-honoured-below-2-53': async (s) => [
    /"id":(\d+)/.exec((await createPet(s, '{"name":"Probe","categoryId":5,"id":4000000000000}')).text)?.[1],
    /"id":(\d+)/.exec((await createPet(s, '{"name":"Probe","categoryId":5,"id":9000000000000000001}')).text)?.[1],
  ],
  'fault-client-id-honoured': async (s) => /"id":(\d+)/.exec((await createPet(s, '{"name":"Probe","categoryId":5,"id":9000000000000000001}')).text)?.[1],
  'fault-create-not-persisted': async (s) => status(call(`${s.baseUrl}${header(await createPet(s, validPet), 'location') ?? ''}`)),

  'fault-get-wrong-pet': async (s) => obj(await call(pets(s, '/1')))['id'],
  'fault-get-by-index': (s) => status(call(pets(s, '/0'))),
  'fault-get-unknown-200': (s) => status(call(pets(s, '/999'))),
  'fault-get-malformed-500': (s) => status(call(pets(s, '/abc'))),
  'fault-create-lost-for-charset': async (s) => status(call(`${s.baseUrl}${(await call(pets(s), { body: JSON.stringify(validPet), contentType: 'application/json; charset=utf-8' })).headers.location}`)),
  'fault-create-lost-with-unknown-fields': async (s) => status(call(`${s.baseUrl}${(await call(pets(s), { body: JSON.stringify({ ...validPet, color: 'red' }) })).headers.location}`)),
  'fault-create-500-on-apostrophe': (s) => status(call(pets(s), { body: JSON.stringify({ ...validPet, name: "O'Brien" }) })),
  'fault-limit-only-first-param': async (s) => arr(await call(pets(s, '?status=available&limit=1'))).length,
  'fault-get-placeholder-small-ids': (s) => status(call(pets(s, '/900000'))),
  'fault-error-two-content-types': async (s) => header(await call(pets(s, '/999999')), 'content-type'),
  'fault-406-unless-accept-json': (s) => status(call(pets(s), { headers: { accept: '*/*' } })),
  'fault-get-500-int64-min': (s) => status(call(pets(s, '/-9223372036854775808'))),
  'fault-deprecated-removed': (s) => status(call(pets(s, '/1'))),
  'fault-deprecated-removed-html': async (s) => header(await call(pets(s, '/1')), 'content-type'),
  'fault-sunset-early': async (s) => header(await call(pets(s, '/1')), 'sunset'),
  'fault-sunset-early-iso': async (s) => header(await call(pets(s, '/1')), 'sunset'),
  'fault-sunset-early-new-animals': async (s) => {
    await createMany(s, 50);
    return [header(await call(pets(s, '/1')), 'sunset'), header(await call(pets(s, '/51')), 'sunset')];
  },
  'fault-sunset-early-one-in-four': async (s) => {
    const sunsets: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) sunsets.push(header(await call(pets(s, '/1')), 'sunset'));
    return sunsets;
  },
  'fault-sunset-extra-early-line': async (s) => header(await call(pets(s, '/1')), 'sunset'),
  'fault-deprecation-malformed': async (s) => header(await call(pets(s, '/1')), 'deprecation'),

  'fault-create-hangs-on-malformed-json': (s) => answerWithin(createPet(s, '{"name":')),
  'fault-get-pet-hangs': (s) => answerWithin(call(pets(s, '/1'))),
  'fault-problem-json-on-get': async (s) => header(await call(pets(s, '?limit=0')), 'content-type'),

  'fault-error-missing-code': async (s) => 'code' in obj(await call(`${s.baseUrl}/nowhere`)),
  'fault-error-status-mismatch': async (s) => obj(await call(pets(s, '?limit=0')))['status'],
  'fault-orders-missing': (s) => status(call(`${s.baseUrl}/v1/store/orders`)),
  'fault-orders-gone': (s) => status(call(`${s.baseUrl}/v1/store/orders`)),
  'fault-orders-missing-request-id': async (s) => [(await call(`${s.baseUrl}/v1/store/orders`)).json, (await call(`${s.baseUrl}/v1/store/no-such-operation`)).json],

  'fault-message-200-empty': async (s) => (await msg(s, '{"message":"x"}')).status,
  'fault-message-non-string-empty-202': async (s) => (await msg(s, '{"message":7}')).status,
  'fault-message-status-sent': async (s) => obj(await msg(s, '{"message":"x"}'))['status'],
  'fault-message-created-at-offset': async (s) => String(obj(await msg(s, '{"message":"x"}'))['createdAt']).endsWith('Z'),
  'fault-message-status-sent-for-charset': async (s) => [obj(await msg(s, '{"message":"x"}'))['status'], obj(await msg(s, '{"message":"x"}', { contentType: 'application/json; charset=utf-8' }))['status']],
  'fault-message-created-at-offset-for-charset': async (s) =>
    [await msg(s, '{"message":"x"}'), await msg(s, '{"message":"x"}', { contentType: 'application/json; charset=utf-8' })].map((reply) => String(obj(reply)['createdAt']).endsWith('Z')),
  'fault-message-created-at-not-iso': async (s) => /^\d{4}-\d\d-\d\dT/.test(String(obj(await msg(s, '{"message":"x"}'))['createdAt'])),
  'fault-message-echo-trimmed': async (s) => obj(await msg(s, '{"message":"  hi  "}'))['message'],
  'fault-message-accepts-invalid-json': (s) => status(msg(s, '{"message":')),
  'fault-message-accepts-missing-message': (s) => status(msg(s, '{}')),
  'fault-message-rejects-json-charset': (s) => status(msg(s, '{"message":"x"}', { contentType: 'application/json; charset=utf-8' })),
  'fault-message-accepts-jsonish-content-type': (s) => status(msg(s, '{"message":"x"}', { contentType: 'text/json' })),
  'fault-message-accepts-wrong-content-type': (s) => status(msg(s, '{"message":"x"}', { contentType: 'text/plain' })),
  'fault-message-content-type-case-sensitive': (s) => status(msg(s, '{"message":"x"}', { contentType: 'Application/JSON' })),
  'fault-create-content-type-case-sensitive': (s) => status(call(pets(s), { body: JSON.stringify(validPet), contentType: 'Application/JSON' })),
  'fault-deprecation-still-to-come': async (s) => header(await call(pets(s, '/1')), 'deprecation'),
  'fault-message-trailing-data-accepted': (s) => status(msg(s, '{"message":"x"} x')),
  'fault-message-accepts-form': (s) => status(msg(s, 'message=x', { contentType: 'application/x-www-form-urlencoded' })),
  'fault-message-accepts-xml': (s) => status(msg(s, '<request><message>x</message></request>', { contentType: 'application/xml' })),

  'allowed-limit-clamped': (s) => status(call(pets(s, '?limit=0'))),
  'allowed-messages-200': (s) => status(msg(s, '{"message":"x"}')),
  'allowed-messages-201': (s) => status(msg(s, '{"message":"x"}')),
  'allowed-default-status-available': async (s) => obj(await createPet(s, validPet))['status'],
  'allowed-big-ids': async (s) => /"id":(\d+)/.exec((await createPet(s, validPet)).text)?.[1],
  'allowed-ids-from-zero': async (s) => status(call(pets(s, '/0'))),
  'allowed-refuses-client-id': (s) => status(createPet(s, { ...validPet, id: 9 })),
  'allowed-rejects-unknown-fields': (s) => status(createPet(s, { ...validPet, extra: true })),
  'allowed-415-content-type': (s) => status(call(pets(s), { body: JSON.stringify(validPet), contentType: 'text/plain' })),
  'allowed-name-max-255': (s) => status(createPet(s, { name: 'x'.repeat(256), categoryId: 1 })),
  'allowed-message-max-4096': (s) => status(msg(s, '{"message":""}')),
  'fault-create-name-max-10': (s) => status(createPet(s, { name: 'Fluffy Tiger', categoryId: 1 })),
  'fault-message-same-id': async (s) => [obj(await msg(s, '{"message":"a"}'))['id'] === obj(await msg(s, '{"message":"b"}'))['id']],
  'fault-message-id-wraps-50': async (s) => {
    const ids: unknown[] = [];
    for (let i = 0; i < 51; i++) ids.push(obj(await msg(s, JSON.stringify({ message: `text ${i}` })))['id']);
    return new Set(ids).size;
  },
  'fault-message-max-50': (s) => status(msg(s, JSON.stringify({ message: 'm'.repeat(51) }))),
  'allowed-names-ascii-only': async (s) => [await status(createPet(s, { name: 'Fluffy Tiger', categoryId: 1 })), await status(createPet(s, { name: 'Ünïcödé', categoryId: 1 }))],
  'allowed-messages-ascii-only': async (s) => [await status(msg(s, '{"message":"Is Rex here?"}')), await status(msg(s, '{"message":"Ünïcödé"}'))],
  'allowed-category-must-exist': async (s) => [await status(createPet(s, { name: 'x', categoryId: 0 })), obj(await createPet(s, { name: 'x', categoryId: 1001 }))['code']],
  'allowed-create-ignores-content-type': (s) => status(call(pets(s), { body: JSON.stringify(validPet), contentType: 'text/plain' })),
  'allowed-empty-store': async (s) => arr(await call(pets(s))).length,
  'allowed-no-deprecation-headers': async (s) => header(await call(pets(s, '/1')), 'deprecation'),
  'allowed-no-location': async (s) => header(await createPet(s, validPet), 'location'),
  'allowed-no-www-authenticate': async (s) => header(await call(pets(s), { auth: null }), 'www-authenticate'),
  'allowed-other-error-codes': async (s) => obj(await call(`${s.baseUrl}/nowhere`))['code'],
  'allowed-extra-pet-fields': async (s) => Object.keys(obj(await call(pets(s, '/1')))),
  'allowed-list-newest-first': async (s) => arr(await call(pets(s)))[0]?.['id'],
  'allowed-created-at-ordinal': async (s) => /^\d{4}-\d{3}T\d{2}:\d{2}:\d{2}Z$/.test(String(obj(await msg(s, '{"message":"x"}'))['createdAt'])),
  'allowed-created-at-basic': async (s) => /^\d{8}T\d{6}Z$/.test(String(obj(await msg(s, '{"message":"x"}'))['createdAt'])),
  'allowed-created-at-hour': async (s) => /^\d{4}-\d{2}-\d{2}T\d{2}Z$/.test(String(obj(await msg(s, '{"message":"x"}'))['createdAt'])),
  'allowed-message-host-catch-all': (s) =>
    Promise.all([call(`${s.messagesBaseUrl}/v1/pets`, { auth: null }), call(`${s.messagesBaseUrl}/v1/pets`, { method: 'POST', body: '{"name":"a","categoryId":1}', auth: null })]).then((replies) => replies.map((r) => `${r.status} ${r.text}`)),
  'allowed-message-repeat-is-earlier': async (s) => {
    const first = obj(await msg(s, '{"message":"again"}'));
    const second = obj(await msg(s, '{"message":"again"}'));
    return [first['id'] === second['id'], second['status']];
  },
  'allowed-messages-uuid-ids': async (s) => String(obj(await msg(s, '{"message":"x"}'))['id']).startsWith('msg_'),
  'allowed-content-type-no-charset': async (s) => header(await call(pets(s)), 'content-type'),
  'allowed-sunset-later': async (s) => header(await call(pets(s, '/1')), 'sunset'),
  'allowed-path-aliases-routed': (s) =>
    Promise.all([`${s.baseUrl}/v1/PETS`, `${s.baseUrl}/v1//pets`].flatMap((url) => [status(call(url)), status(call(url, { auth: null }))])),
  'allowed-status-moved-by-others': async (s) => [obj(await call(pets(s, '/1')))['status'], obj(await call(pets(s, '/1')))['status']],
  'allowed-orders-404-no-orders': async (s) => (await call(`${s.baseUrl}/v1/store/orders`)).json,
  'allowed-orders-404-generic-code': async (s) => (await call(`${s.baseUrl}/v1/store/orders`)).json,
  'allowed-waf-user-agent': (s) => status(call(pets(s))),
  // undici's 16 KiB header limit would refuse the answer: node:http read with a larger one.
  'allowed-cookie-flood': (s) =>
    new Promise((resolve, reject) => {
      get(pets(s), { headers: { authorization: AUTH }, maxHeaderSize: 256 * 1024 }, (res) => {
        res.resume();
        resolve(res.headers['set-cookie']?.length ?? 0);
      }).on('error', reject);
    }),
  // undici drops the connection on a 100: node:http reports it as an interim answer.
  'allowed-unasked-100': (s) =>
    new Promise((resolve, reject) => {
      const interim: number[] = [];
      get(pets(s), { headers: { authorization: AUTH } }, (res) => {
        res.resume();
        resolve([interim, res.statusCode]);
      })
        .on('information', (info) => interim.push(info.statusCode))
        .on('error', reject);
    }),
  // Six requests one after another on one kept-alive connection: the sixth is lost with it.
  'allowed-closes-every-5th': async (s) => {
    const one = new Client(s.baseUrl, { pipelining: 1 });
    try {
      const statuses: (number | string)[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await one.request({ path: '/v1/pets', method: 'GET', headers: { authorization: AUTH } }).catch((error: Error) => ({ statusCode: error.message, body: undefined }));
        await res.body?.dump();
        statuses.push(res.statusCode);
      }
      return statuses;
    } finally {
      await one.destroy();
    }
  },
  // Five listings one after another on one raw connection, then a pause: the status lines that came.
  'fault-answers-twice': (s) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(s.baseUrl);
      let received = '';
      let asked = 0;
      const socket = connect(Number(url.port), url.hostname);
      const ask = () => socket.write(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${AUTH}\r\n\r\n`);
      socket.once('connect', () => {
        asked++;
        ask();
      });
      socket.on('data', (data) => {
        received += data.toString('latin1');
        const answers = received.match(/HTTP\/1\.1 \d{3} /g)?.length ?? 0;
        if (answers >= asked && asked < 5) {
          asked++;
          ask();
        } else if (asked === 5 && answers >= 5) {
          setTimeout(() => {
            socket.destroy();
            resolve(received.match(/HTTP\/1\.1 \d{3} /g)?.length ?? 0);
          }, 100);
        }
      });
      socket.on('error', reject);
    }),
  'allowed-suffix-and-matrix-routed': (s) => Promise.all([status(call(pets(s, '.json'))), status(call(pets(s, '/1;x=1'))), status(call(pets(s, '.json'), { auth: null }))]),
  'allowed-bearer-exact-form': (s) => status(call(pets(s, '?limit=1'), { auth: `bearer ${KEY}` })),
  'allowed-listing-lag': async (s) => {
    await createPet(s, validPet);
    return arr(await call(pets(s, '?limit=100'))).length;
  },
  'allowed-cold-start-503': async (s) => [await status(call(`${s.baseUrl}/v1/store/orders`)), await status(call(`${s.baseUrl}/v1/store/orders`))],
  'allowed-trailing-slash-html-404': async (s) => header(await call(pets(s, '/'), { auth: null }), 'content-type'),
  'allowed-422-invalid-query': (s) => status(call(pets(s, '?limit=0'))),
  'allowed-gzip-by-default': async (s) => header(await call(pets(s)), 'content-encoding'),
  'allowed-exponent-integers': async (s) => /"categoryId":([^,}]+)/.exec((await createPet(s, '{"name":"Probe","categoryId":9223372036854775807}')).text)?.[1],
  'allowed-gzip-always': async (s) => header(await call(pets(s), { headers: { 'accept-encoding': 'identity' } }), 'content-encoding'),
  'allowed-rate-limited': async (s) => {
    const statuses: number[] = [];
    for (let i = 0; i < 37; i++) statuses.push(await status(call(pets(s))));
    return statuses.filter((code) => code === 429).length;
  },
  'fault-orders-503': (s) => status(call(`${s.baseUrl}/v1/store/orders`)),
  'fault-orders-503-retry-after-0': async (s) => header(await call(`${s.baseUrl}/v1/store/orders`), 'retry-after'),
  'allowed-connection-limit': (s) => connectionsClosedOf(s, 5),
  'allowed-connection-limit-2': (s) => connectionsClosedOf(s, 5),
  'allowed-connection-limit-1': (s) => connectionsClosedOf(s, 5),
  'allowed-one-connection-at-a-time': async (s) => {
    const ask = 'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: probe\r\nAuthorization: ' + AUTH + '\r\n\r\n';
    const answered = (socket: ReturnType<typeof connect>) => new Promise<boolean>((resolve) => {
      socket.once('data', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    const port = Number(new URL(s.baseUrl).port);
    const first = connect(port, '127.0.0.1');
    const second = connect(port, '127.0.0.1');
    try {
      first.write(ask);
      await answered(first);
      second.write(ask);
      // The second is read once the first, kept alive and idle, closes.
      const whileOpen = await Promise.race([answered(second), new Promise<string>((resolve) => setTimeout(() => resolve('waiting'), 300))]);
      if (whileOpen === true) return [whileOpen];
      first.destroy();
      return [whileOpen, await Promise.race([answered(second), new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 2_000))])];
    } finally {
      first.destroy();
      second.destroy();
    }
  },
  'allowed-in-flight-limit': async (s) => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(pets(s))));
    return answers.filter((answer) => answer.status === 503 && !answer.headers['retry-after'] && /nginx/.test(answer.text)).length;
  },
  'allowed-rate-limit-503': async (s) => {
    // A loaded machine may spread one burst thinner than the bucket refills: up to five bursts.
    let refused = 0;
    for (let burst = 0; burst < 5 && refused === 0; burst++) {
      const answers = await Promise.all(Array.from({ length: 40 }, () => call(pets(s))));
      refused = answers.filter((answer) => answer.status === 503 && !answer.headers['retry-after'] && /nginx/.test(answer.text)).length;
    }
    // After a pause the bucket is full again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return [refused > 0, await status(call(pets(s)))];
  },
  'allowed-path-rate-limit-503': async (s) => {
    const nginx503 = (answer: { status: number; text: string; headers: Record<string, unknown> }) => answer.status === 503 && !answer.headers['retry-after'] && /nginx/.test(answer.text);
    const creates = await Promise.all(Array.from({ length: 20 }, () => call(pets(s), { body: JSON.stringify(validPet) })));
    const lists = await Promise.all(Array.from({ length: 20 }, () => call(pets(s))));
    return [creates.filter(nginx503).length > 0, lists.filter(nginx503).length];
  },
  'allowed-sporadic-503': async (s) => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push(await status(call(pets(s))));
    return statuses.filter((code) => code === 503).length;
  },
  'allowed-sporadic-429': async (s) => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push(await status(call(pets(s))));
    return statuses.filter((code) => code === 429).length;
  },
  'allowed-deprecation-draft-cet': async (s) => header(await call(pets(s, '/1')), 'deprecation'),
  'allowed-deprecation-params': async (s) => header(await call(pets(s, '/1')), 'deprecation'),
  'allowed-link-empty-elements': async (s) => header(await call(pets(s, '/1')), 'link'),
  'allowed-nfc-normalized': async (s) => [obj(await createPet(s, { name: '\uF900', categoryId: 1 }))['name'], obj(await msg(s, '{"message":"e\\u0301"}'))['message']],
  'allowed-get-links': async (s) => Object.keys(obj(await call(pets(s, '/1')))),
  'allowed-renamed-by-others': async (s) => obj(await call(pets(s, '/1')))['name'],
  'allowed-typed-pet-route': async (s) => header(await call(pets(s, '/abc'), { auth: null }), 'content-type'),
  'allowed-get-without-status': async (s) => Object.keys(obj(await call(pets(s, '/1')))),
  'allowed-list-without-status': async (s) => arr(await call(pets(s, '?status=sold'))).map((pet) => Object.keys(pet).join(',')),
  'allowed-go-style-strings': async (s) => obj(await createPet(s, { name: 'a\ud800b', categoryId: 1 }))['name'],
  'allowed-read-lag': async (s) => status(call(`${s.baseUrl}${header(await createPet(s, validPet), 'location') ?? ''}`)),
  'allowed-read-lag-slow': async (s) => {
    const location = `${s.baseUrl}${header(await createPet(s, validPet), 'location') ?? ''}`;
    // Still unseen after the 50 ms allowed-read-lag would have waited: the slow replica is its own behaviour.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return status(call(location));
  },
  'allowed-orders-csv': async (s) => header(await call(`${s.baseUrl}/v1/store/orders`), 'content-type'),
  'allowed-orders-forbidden': (s) => status(call(`${s.baseUrl}/v1/store/orders`)),
  'allowed-other-clients-create': async (s) => {
    for (let i = 0; i < 2; i++) await call(pets(s, '?limit=100'));
    return arr(await call(pets(s, '?limit=100'))).length;
  },
  'allowed-removed-by-others': async (s) => {
    for (let i = 0; i < 5; i++) await call(pets(s, '?limit=100'));
    return arr(await call(pets(s, '?limit=100'))).length;
  },
  // Buddy (id 9, sold) is the last animal with a status: moved before the 4th request.
  'allowed-status-moved-any': async (s) => {
    for (let i = 0; i < 3; i++) await call(pets(s, '/9'));
    return obj(await call(pets(s, '/9')))['status'];
  },
  'allowed-filtered-listing-lag': async (s) => {
    await createPet(s, { ...validPet, status: 'sold' });
    return [arr(await call(pets(s, '?status=sold&limit=100'))).length, arr(await call(pets(s, '?limit=100'))).length];
  },
  'allowed-page-cap-10': async (s) => {
    await createMany(s, 5);
    return arr(await call(pets(s, '?limit=20'))).length;
  },
  'allowed-list-random-order': async (s) => {
    const orders = await Promise.all(Array.from({ length: 5 }, async () => arr(await call(pets(s))).map((pet) => Number(pet['id']))));
    return orders.every((ids) => ids.every((id, i) => i === 0 || id > ids[i - 1]!));
  },
  'allowed-default-status-random': async (s) => {
    const statuses = new Set<unknown>();
    for (let i = 0; i < 12; i++) statuses.add(obj(await createPet(s, validPet))['status']);
    return statuses.size;
  },
  'fault-seq-negative-cache': async (s) => {
    await call(pets(s, '/11'));
    await createPet(s, validPet);
    return status(call(pets(s, '/11')));
  },
  'fault-seq-lost-write-after-refusal': async (s) => {
    await createPet(s, { name: 'no category' });
    return status(call(`${s.baseUrl}${header(await createPet(s, validPet), 'location') ?? ''}`));
  },
  'fault-seq-forgets-on-401': async (s) => {
    const location = `${s.baseUrl}${header(await createPet(s, validPet), 'location') ?? ''}`;
    await call(pets(s), { auth: null });
    return status(call(location));
  },
  'fault-seq-sticky-limit': async (s) => {
    await createMany(s, 15);
    await call(pets(s, '?limit=50'), { auth: null });
    return arr(await call(pets(s))).length;
  },
  'fault-seq-message-buffer': async (s) => {
    await msg(s, '{"message":"first"}');
    await msg(s, '{}');
    return obj(await msg(s, '{"message":"second"}'))['message'];
  },
};

describe('deviation catalogue', () => {
  it('ids are unique, kebab-case, prefixed by kind; faults name a clause, allowed variants do not', () => {
    expect(new Set(DEVIATIONS.map((d) => d.id)).size).toBe(DEVIATIONS.length);
    for (const d of DEVIATIONS) {
      expect(d.id).toMatch(/^(fault|allowed)(-[a-z0-9]+)+$/);
      expect(d.id.startsWith(`${d.kind}-`)).toBe(true);
      expect(d.description.length).toBeGreaterThan(0);
      if (d.kind === 'fault') expect(d.breaks).toMatch(/^[a-z0-9-]+\.[a-z0-9-]+$/);
      else expect(d.breaks).toBeUndefined();
    }
  });

  it('declares every deviation in exactly one module, the one that switches it on', () => {
    const declaredIn = Object.entries(DECLARED).flatMap(([file, list]) => list.map((d) => `${d.id} ${file}`));
    expect(declaredIn.map((line) => line.split(' ')[0]).sort()).toEqual(DEVIATIONS.map((d) => d.id).sort());
    for (const [file, list] of Object.entries(DECLARED)) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      for (const d of list) expect(source, `${d.id} declared in ${file}`).toContain(`${d.kind}('${d.id}'`);
    }
  });

  it('switches deviations only through a module\'s typed `on`, never ctx.dev.has', () => {
    const sources = ['reference', 'reference/routes'].flatMap((dir) =>
      readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.ts')).map((name) => `${dir}/${name}`),
    );
    const direct = sources.filter((file) => !/\/deviations?\.ts$/.test(file) && /\.dev\.has\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(direct).toEqual([]);
  });

  it('every allowed variant has a probe, and every probe a deviation', () => {
    const ids = new Set(DEVIATIONS.map((d) => d.id));
    expect(DEVIATIONS.filter((d) => d.kind === 'allowed' && !PROBES[d.id]).map((d) => d.id)).toEqual([]);
    expect(Object.keys(PROBES).filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe.each(DEVIATIONS.filter((d) => PROBES[d.id]).map((d) => [d.id, PROBES[d.id]!] as const))('%s', (id, probe) => {
  it('changes the observed behaviour', async () => {
    const faithful = await withServer({}, probe);
    const deviated = await withServer({ deviations: [id] }, probe);
    expect(deviated).not.toEqual(faithful);
  });
});

describe('fault-auth-key-loose-numeric', () => {
  it('takes 0<key>, <key>.0 and +<key> for a key of digits, which the faithful server refuses', async () => {
    const numericKey = '4815162342';
    const probe = (s: RunningReference) => Promise.all([`0${numericKey}`, `${numericKey}.0`, `+${numericKey}`].map((token) => status(call(pets(s), { auth: `Bearer ${token}` }))));
    expect(await withServer({ apiKey: numericKey }, probe)).toEqual([401, 401, 401]);
    expect(await withServer({ apiKey: numericKey, deviations: ['fault-auth-key-loose-numeric'] }, probe)).toEqual([200, 200, 200]);
  });
});

describe('fault-auth-after-validation', () => {
  it('answers an invalid request without a valid key its 400 or 404, a valid one 401, and stores nothing for it', async () => {
    const seen = await withServer({ deviations: ['fault-auth-after-validation'] }, async (s) => {
      const before = arr(await call(pets(s, '?limit=100'))).length;
      const replies = await Promise.all([
        call(pets(s, '?limit=0'), { auth: null }),
        call(pets(s, '/999999'), { auth: 'Bearer wrong' }),
        call(pets(s), { auth: null }),
        call(pets(s), { auth: null, body: JSON.stringify(validPet) }),
        msg(s, '{"message":"x"}', { auth: null }),
      ]);
      const after = arr(await call(pets(s, '?limit=100'))).length;
      return { statuses: replies.map((r) => r.status), unauthorized: isErrorReply(replies[3]!, 401), stored: after - before };
    });
    expect(seen).toEqual({ statuses: [400, 404, 401, 401, 401], unauthorized: true, stored: 0 });
  });
});
