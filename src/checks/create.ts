import { describeResponse, header, jsonBody, jsonObject, type Exchange } from '../http/exchange.ts';
import { jsonEqual, stringifyJson } from '../json/lossless.ts';
import { brokenFields, sameBarStatus, samePet } from './common.ts';
import { errorBody, exchange, failed, pet, raw } from './exchanges.ts';
import { echoes } from './text.ts';
import { combine, defineCheck, definePart, fail, NOT_APPLICABLE, PASS, quoted } from './types.ts';

// Values the cases below share.
const INT64_MAX = 9223372036854775807n;
const NEW_PET = { name: 'Rex', categoryId: INT64_MAX };

export type Fields = Record<string, unknown>;

export const isCreated = (status: number) => status === 201;

export function createdPet(exchange: Exchange): Fields | undefined {
  return exchange.response?.status === 201 ? jsonObject(exchange) : undefined;
}

/** Whether the request's NewPet carried an `id` of the client's. */
export function carriesId(exchange: Exchange): boolean {
  const body = exchange.request.body;
  if (body === undefined || !body.includes('"id"')) return false;
  try {
    const sent: unknown = JSON.parse(body);
    return typeof sent === 'object' && sent !== null && !Array.isArray(sent) && 'id' in sent;
  } catch {
    return false;
  }
}

/** A field of the 201 whose value breaks Pet (categoryId "7" for 7) is create.201-pet's to fail, not this check's. */
export const createEcho = defineCheck<{ input: Fields }>({
  description: 'The created Pet has the name, categoryId and (when sent) status that were sent, where its value is valid for Pet',
  judge(exchange, { env, input }) {
    const pet = createdPet(exchange);
    if (!pet) return NOT_APPLICABLE;
    const broken = brokenFields(env, 'Pet', pet);
    for (const field of ['name', 'categoryId', 'status'] as const) {
      if (!Object.hasOwn(input, field) || broken.has(field)) continue;
      const sent = input[field];
      if (typeof sent === 'string' ? !echoes(pet[field], sent) : !jsonEqual(pet[field], sent)) {
        return fail(`${field} = ${stringifyJson(input[field])}`, `${field} = ${pet[field] === undefined ? '(absent)' : stringifyJson(pet[field])}`);
      }
    }
    return PASS;
  },
  cases: {
    ctx: { input: NEW_PET },
    pass: [
      { why: 'categoryId 9223372036854775807 back exactly', ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775807}')) },
      { why: 'status not sent, the server added one', ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"available"}')) },
      {
        why: 'status sent and echoed',
        ctx: { input: { name: '  padded  ', categoryId: 2, status: 'sold' } },
        ex: exchange(201, { id: 1, name: '  padded  ', categoryId: 2, status: 'sold' }),
      },
      { why: 'a lone surrogate back as itself', ctx: { input: { name: 'a\uD800b', categoryId: 2 } }, ex: exchange(201, raw('{"id":1,"name":"a\\ud800b","categoryId":2}')) },
      { why: 'a lone surrogate back as U+FFFD (RFC 8259 §8.2)', ctx: { input: { name: 'a\uDC00b', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'a\uFFFDb', categoryId: 2 }) },
      { why: 'U+F900 back as U+8C48 (NFC, canonically equivalent)', ctx: { input: { name: '\uF900', categoryId: 2 } }, ex: exchange(201, { id: 1, name: '\u8C48', categoryId: 2 }) },
      { why: 'e and U+0301 back as U+00E9 (NFC)', ctx: { input: { name: 'Re\u0301x', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'R\u00E9x', categoryId: 2 }) },
      // A categoryId that breaks Pet is create.201-pet's to fail; this check judges the fields still usable.
      { why: 'categoryId rounded through a double past int64 (create.201-pet fails it)', ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775808.0}')) },
      { why: 'categoryId as a string of the same digits (create.201-pet fails it)', ex: exchange(201, { id: 1, name: 'Rex', categoryId: '9223372036854775807' }) },
      { why: 'categoryId back as the string "2" (create.201-pet fails it; name and status still echoed)', ctx: { input: { name: 'Rex', categoryId: 2, status: 'sold' } }, ex: exchange(201, { id: 1, name: 'Rex', categoryId: '2', status: 'sold' }) },
    ],
    fail: [
      { why: 'a U+FFFD where the name had none', ctx: { input: { name: 'ab', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'a\uFFFDb', categoryId: 2 }) },
      { why: 'U+00E9 back as e and U+0301 (NFD, not NFC)', ctx: { input: { name: 'R\u00E9x', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'Re\u0301x', categoryId: 2 }) },
      { why: 'U+FB01 back as fi (NFKC, a compatibility mapping)', ctx: { input: { name: '\uFB01ne', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'fine', categoryId: 2 }) },
      { why: 'a lone surrogate dropped', ctx: { input: { name: 'a\uD800b', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'ab', categoryId: 2 }) },
      { why: 'categoryId back as a string, and the name trimmed', ctx: { input: { name: ' Rex', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'Rex', categoryId: '2' }), actual: /^name = "Rex"$/ },
      {
        why: 'categoryId 9223372036854775807 back as 9223372036854775806',
        ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775806}')),
        actual: /categoryId = 9223372036854775806/,
      },
      {
        why: 'name trimmed',
        ctx: { input: { name: '  padded  ', categoryId: 2 } },
        ex: exchange(201, { id: 1, name: 'padded', categoryId: 2 }),
        actual: /name = "padded"/,
      },
      {
        why: 'status sent but replaced',
        ctx: { input: { name: 'Rex', categoryId: 2, status: 'sold' } },
        ex: exchange(201, pet(1, { name: 'Rex', categoryId: 2, status: 'available' })),
      },
      {
        why: 'status sent but dropped',
        ctx: { input: { name: 'Rex', categoryId: 2, status: 'sold' } },
        ex: exchange(201, { id: 1, name: 'Rex', categoryId: 2 }),
        actual: /absent/,
      },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 201 that is no object', ex: exchange(201, [1, 2]) },
    ],
  },
});

/**
 * Judges every 201 of POST /pets, in whichever scenario, against the ids given before (`seenIds`,
 * else the worker's env.createdIds): scenarios that create side by side each see the others'. A
 * NewPet that carried an id of its own is create.ignores-client-id's to judge.
 */
export const createIdUnique = defineCheck<{ seenIds?: Set<string> }>({
  description: 'No two created animals share an id',
  judge(exchange, { seenIds, env }) {
    if (exchange.operationId !== undefined && exchange.operationId !== 'createPet') return NOT_APPLICABLE;
    const ids = seenIds ?? env.createdIds;
    if (!ids || carriesId(exchange)) return NOT_APPLICABLE;
    const id = createdPet(exchange)?.id;
    if (typeof id !== 'number' && typeof id !== 'bigint') return NOT_APPLICABLE;
    const key = String(id);
    if (ids.has(key)) return fail('an id not given to any animal created earlier in this run', `id ${key} again`);
    ids.add(key);
    return PASS;
  },
  cases: {
    ctx: { seenIds: new Set<string>() },
    pass: [
      { why: 'a first id', ex: exchange(201, pet(7)), ctx: { seenIds: new Set(['6']) } },
      { why: 'an int64 id not seen (one below a seen one)', ex: exchange(201, pet(INT64_MAX - 1n)), ctx: { seenIds: new Set([String(INT64_MAX)]) } },
    ],
    fail: [
      { why: 'an id seen before', ex: exchange(201, pet(7)), ctx: { seenIds: new Set(['7']) }, actual: /id 7 again/ },
      { why: 'an int64 id seen before', ex: exchange(201, raw('{"id":9223372036854775807,"name":"x","categoryId":1}')), ctx: { seenIds: new Set(['9223372036854775807']) } },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'an id that is a string', ex: exchange(201, pet(7, { id: '7' })) },
    ],
  },
});

/**
 * Judges a POST /pets whose NewPet also carried an `id` (§2.2: "`id` is not part of the input. The
 * service assigns it."): a refusal (4xx) or a created animal under another id. `existing` says
 * whether an animal had that id already; an unused one drawn high in the int64 range is as good as
 * never chosen by a service that assigns its own, so getting it back means the client's was taken.
 */
export const createIgnoresClientId = definePart<{ clientId: string; existing: boolean }>({
  description: 'A NewPet that carries an id is refused, or created under an id the service assigns',
  judge(exchange, { clientId, existing }) {
    const status = exchange.response?.status;
    if (clientId === undefined || status === undefined || status >= 500 || status === 401 || status === 429) return NOT_APPLICABLE;
    // Refused: nothing was created under the id (the Error body is errors.shape's to judge).
    if (status >= 400) return PASS;
    const id = jsonObject(exchange)?.id;
    if (typeof id !== 'number' && typeof id !== 'bigint' && typeof id !== 'string') return NOT_APPLICABLE;
    if (String(id) !== clientId) return PASS;
    const whose = existing ? `the id ${clientId} of an existing animal` : `the unused id ${clientId}`;
    return fail(`400 refusing it, or ${status} with an id the service assigns, not ${whose} sent in the NewPet`, `${status} with id ${String(id)}`);
  },
});

/** Judges GET /pets/{id} of an existing animal after a NewPet carrying its id was sent: it is unchanged. */
export const createClientIdLeavesExisting = definePart<{ before: Fields }>({
  description: 'A NewPet that carries the id of an existing animal leaves that animal as it was',
  judge(exchange, { env, before }) {
    if (before === undefined) return NOT_APPLICABLE;
    const body = jsonBody(exchange);
    if (exchange.response?.status === 200 && body.ok && samePet(env, body.value, before)) return PASS;
    // Only its status moved: another system may have (§3), so it shows nothing either way.
    if (exchange.response?.status === 200 && body.ok && sameBarStatus(env, body.value, before)) return NOT_APPLICABLE;
    return fail(`200 with ${stringifyJson(before)}, as before a NewPet carrying its id was sent`, describeResponse(exchange));
  },
});

export const createLocation = defineCheck({
  description: 'A 201 carries a Location header',
  judge(exchange) {
    if (exchange.response?.status !== 201) return NOT_APPLICABLE;
    return header(exchange, 'location') ? PASS : fail('Location: <URL of the created animal>', 'no Location header on the 201');
  },
  cases: {
    ctx: {},
    pass: [{ why: 'a 201 with Location', ex: exchange(201, pet(7), { location: '/v1/pets/7' }) }],
    fail: [{ why: 'a 201 without Location', ex: exchange(201, pet(7)), actual: /no Location/ }],
    na: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
  },
});

/** Judges the GET of the Location URL: it must give back the created animal. */
export const createLocationResolves = defineCheck<{ created: Fields }>({
  description: 'The Location of a 201 leads to the created animal',
  judge(exchange, { env, created }) {
    const body = jsonBody(exchange);
    if (exchange.response?.status === 200 && body.ok && sameBarStatus(env, body.value, created)) return PASS;
    return fail(`200 with ${stringifyJson(created)} at ${exchange.request.url}`, describeResponse(exchange));
  },
  cases: {
    ctx: { created: pet(7) },
    pass: [
      { why: 'a 200 with the created animal', ex: exchange(200, pet(7)) },
      { why: 'the same fields in another order', ex: exchange(200, raw('{"status":"available","categoryId":1,"name":"pet 7","id":7}')) },
      { why: 'an int64 id, exact', ex: exchange(200, raw('{"id":9223372036854775807,"name":"x","categoryId":1}')), ctx: { created: { id: INT64_MAX, name: 'x', categoryId: 1 } } },
      { why: 'fields Pet does not define, only in the GET', ex: exchange(200, { ...pet(7), links: { self: '/v1/pets/7' }, updatedAt: '2026-01-01T00:00:00Z' }) },
      { why: 'another status (another system may move it at once, §3)', ex: exchange(200, pet(7, { status: 'sold' })) },
      { why: 'the 201 gave categoryId as the string "1" (create.201-pet fails it), the GET as 1', ctx: { created: pet(7, { categoryId: '1' }) }, ex: exchange(200, pet(7)) },
    ],
    fail: [
      { why: 'a 404', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'another name', ex: exchange(200, pet(7, { name: 'someone else' })) },
      { why: 'another categoryId beside an extra field', ex: exchange(200, { ...pet(7, { categoryId: 2 }), links: {} }) },
      { why: 'an int64 id rounded', ex: exchange(200, raw('{"id":9223372036854775806,"name":"x","categoryId":1}')), ctx: { created: { id: INT64_MAX, name: 'x', categoryId: 1 } } },
    ],
  },
});

export const petDefaultStatus = defineCheck({
  description: 'Records the status given to an animal created without one',
  judge(exchange) {
    const pet = createdPet(exchange);
    if (!pet) return NOT_APPLICABLE;
    return { outcome: 'observe', value: pet.status === undefined ? 'none' : quoted(stringifyJson(pet.status)) };
  },
  cases: {
    ctx: {},
    observe: [
      { why: 'a status given by the server', ex: exchange(201, pet(7, { status: 'available' })), value: '"available"' },
      { why: 'no status', ex: exchange(201, { id: 7, name: 'Rex', categoryId: 1 }), value: 'none' },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 200', ex: exchange(200, pet(7)) },
    ],
  },
});

/** The check of create.ignores-client-id: createIgnoresClientId and createClientIdLeavesExisting together. */
export const createIgnoresClientIdClause = combine(createIgnoresClientId, createClientIdLeavesExisting, {
  ctx: { clientId: '7', existing: true },
  pass: [
    { why: 'a 201 under another id', ex: exchange(201, pet(8)) },
    { why: 'a 400 refusing the id', ex: exchange(400, errorBody(400, 'invalid_pet', 'id is assigned by the service')) },
    { why: 'a 409 refusing the id an animal already has', ex: exchange(409, errorBody(409, 'conflict')) },
    { why: 'an int64 id one below the unused one sent', ex: exchange(201, raw('{"id":9223372036854775806,"name":"x","categoryId":3}')), ctx: { clientId: '9223372036854775807', existing: false } },
    { ctx: { before: pet(7) }, why: 'the animal as it was', ex: exchange(200, pet(7)) },
    { ctx: { before: pet(7) }, why: 'as it was, with a field Pet does not define', ex: exchange(200, { ...pet(7), updatedAt: '2026-01-01T00:00:00Z' }) },
  ],
  fail: [
    { why: 'a 201 reusing the id of an existing animal', ex: exchange(201, pet(7)), actual: /^201 with id 7$/ },
    { why: 'a 200 reusing it', ex: exchange(200, pet(7)) },
    { why: 'a 201 under the unused int64 id sent', ex: exchange(201, raw('{"id":9223372036854775807,"name":"x","categoryId":3}')), ctx: { clientId: '9223372036854775807', existing: false }, actual: /9223372036854775807/ },
    { why: 'the id given back as a string', ex: exchange(201, pet('7' as unknown as number)) },
    { ctx: { before: pet(7) }, why: 'overwritten by the NewPet', ex: exchange(200, pet(7, { name: "carries another animal's id", categoryId: 2, status: 'pending' })), actual: /carries another/ },
    { ctx: { before: pet(7) }, why: 'gone', ex: exchange(404, errorBody(404, 'not_found')), actual: /^404/ },
  ],
  na: [
    { why: 'a 500 (errors.no-5xx judges it)', ex: exchange(500, errorBody(500)) },
    { why: 'a 201 without an id (create.201-pet judges it)', ex: exchange(201, { name: 'x', categoryId: 2 }) },
    { why: 'a transport failure', ex: failed() },
  ],
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies (what a POST takes and refuses is create-input.ts). */
export const CREATE_CHECKS = {
  'create.echo': createEcho,
  'create.id-unique': createIdUnique,
  'create.ignores-client-id': createIgnoresClientIdClause,
  'create.location': createLocation,
  'create.location-resolves': createLocationResolves,
  'pet.default-status': petDefaultStatus,
} as const;
