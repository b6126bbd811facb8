import { describeResponse, jsonBody } from '../http/exchange.ts';
import { limitBounds } from '../contract/model.ts';
import type { TopLevel } from '../json/bounds.ts';
import { isInt, isJsonObject, stringifyJson } from '../json/lossless.ts';
import { schemaVerdict } from './common.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS, type Verdict } from './types.ts';
import type { Exchange } from '../http/exchange.ts';
import { errorBody, exchange, failed, pet, pets, raw, truncated } from './exchanges.ts';
import { echoes } from './text.ts';

// Values the cases below share.
const INT64_MAX = 9223372036854775807n;

/** The listing as an array, when the response is a 200 with one. */
function items(exchange: Exchange): unknown[] | undefined {
  if (exchange.response?.status !== 200) return undefined;
  const body = jsonBody(exchange);
  return body.ok && Array.isArray(body.value) ? body.value : undefined;
}

/**
 * A 200 listing whose body went past a bound of the suite's reading (src/json/bounds.ts): the shape
 * of its outermost value, all that is known of it; its items are not read.
 */
function pastBound(exchange: Exchange): TopLevel | undefined {
  if (exchange.response?.status !== 200) return undefined;
  const body = jsonBody(exchange);
  return body.ok ? undefined : body.pastBound?.top;
}

/** An empty listing can break neither a bound nor a filter: it judges nothing. */
function atMost(exchange: Exchange, max: number, what: string): Verdict {
  const top = pastBound(exchange);
  if (top) {
    if (top.object || !top.items) return NOT_APPLICABLE;
    return top.items <= max ? PASS : fail(`at most ${max} animals (${what})`, `${top.items} animals (counted, not read: the body went past a bound of the suite's reading)`);
  }
  const list = items(exchange);
  if (!list?.length) return NOT_APPLICABLE;
  return list.length <= max ? PASS : fail(`at most ${max} animals (${what})`, `${list.length} animals`);
}

export const list200Pets = defineCheck({
  description: 'GET /pets with the valid key and valid parameters answers 200 with Pets',
  judge(exchange, { env }) {
    if (exchange.response?.status !== 200) return fail('200 with an array of Pet', describeResponse(exchange));
    const top = pastBound(exchange);
    // Past a bound, an object is no listing however it goes on; an array's items are not read.
    if (top) return top.object ? fail('200 with an array of Pet', `200: a JSON object, not an array (read no further: ${(jsonBody(exchange) as { problem: string }).problem})`) : NOT_APPLICABLE;
    return schemaVerdict(exchange, env, 'Pets');
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'a 200 with Pets', ex: exchange(200, pets(3)) },
      { why: 'an empty listing', ex: exchange(200, []) },
      { why: 'a Pet without status (optional)', ex: exchange(200, [{ id: 1, name: 'Rex', categoryId: 2 }]) },
      { why: 'int64 extremes', ex: exchange(200, [pet(INT64_MAX, { categoryId: -(2n ** 63n) })]) },
    ],
    fail: [
      { why: 'a 404', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'a wrapper object instead of an array', ex: exchange(200, { items: pets(2) }) },
      { why: 'a Pet missing id', ex: exchange(200, [{ name: 'Rex', categoryId: 2 }]) },
      { why: 'an id beyond int64', ex: exchange(200, raw('[{"id":9223372036854775808,"name":"Rex","categoryId":1}]')), actual: /int64/ },
      { why: 'a status outside the enum', ex: exchange(200, [pet(1, { status: 'adopted' })]) },
      { why: 'a body that is not JSON', ex: exchange(200, raw('[{"id":1,')) },
      { why: 'a truncated body', ex: truncated(200, '[') },
      { why: 'an object past a bound of the suite\'s reading', ex: exchange(200, raw(`{"items":${'['.repeat(70)}${']'.repeat(70)}}`)), actual: /^200: a JSON object, not an array \(read no further: the body nests deeper than 64 levels/ },
    ],
    na: [{ why: 'an array past a bound: its items are not read', ex: exchange(200, raw(`[${'['.repeat(70)}${']'.repeat(70)}]`)) }],
  },
});

export const listLimitRespected = defineCheck<{ limit: number }>({
  description: 'A listing holds at most limit animals',
  judge: (exchange, { limit }) => atMost(exchange, limit, `limit=${limit}`),
  cases: {
    ctx: { limit: 5 },
    pass: [
      { why: '5 animals for limit=5', ex: exchange(200, pets(5)) },
      { why: 'fewer animals than limit', ex: exchange(200, pets(2)) },
    ],
    fail: [{ why: '6 animals for limit=5', ex: exchange(200, pets(6)), actual: /6 animals/ }],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 200 that is no array', ex: exchange(200, { items: pets(9) }) },
      { why: 'an empty listing (nothing to judge)', ex: exchange(200, []) },
    ],
  },
});

export const listLimitDefault = defineCheck({
  description: 'Without limit, a listing holds at most the default (20)',
  judge(exchange, { env }) {
    const { fallback } = limitBounds(env.contract);
    return atMost(exchange, fallback, `limit omitted, default ${fallback}`);
  },
  cases: {
    ctx: {},
    pass: [{ why: '20 animals without limit', ex: exchange(200, pets(20)) }],
    fail: [{ why: '21 animals without limit', ex: exchange(200, pets(21)), actual: /21 animals/ }],
    na: [{ why: 'a 401', ex: exchange(401, errorBody(401)) }],
  },
});

/** `query`: the query string sent, as it is to be shown ("?limit=0&status=sold", "no query"). */
export const listLimitMax = defineCheck<{ query: string }>({
  description: 'A listing never holds more than the maximum limit (100) animals',
  judge(exchange, { query, env }) {
    const { max } = limitBounds(env.contract);
    return atMost(exchange, max, `${query}, maximum ${max}`);
  },
  cases: {
    ctx: { query: '?limit=1000' },
    pass: [{ why: '100 animals', ex: exchange(200, pets(100)) }],
    fail: [
      { why: '101 animals', ex: exchange(200, pets(101)), actual: /101 animals/, expected: /^at most 100 animals \(\?limit=1000, maximum 100\)$/ },
      { why: '10,001 animals, past the bound of elements the suite reads', ex: exchange(200, raw(`[${Array.from({ length: 10_001 }, (_, i) => `{"id":${i}}`).join(',')}]`)), actual: /^10001 animals \(counted, not read/ },
      { why: '101 animals for a query of two parameters', ctx: { query: '?limit=0&status=sold' }, ex: exchange(200, pets(101)), expected: /^at most 100 animals \(\?limit=0&status=sold, maximum 100\)$/ },
    ],
    na: [
      { why: 'a 400 for limit=1000', ex: exchange(400, errorBody(400)) },
      { why: 'an array past the depth bound: its items were not all counted', ex: exchange(200, raw(`[${'['.repeat(70)}${']'.repeat(70)}]`)) },
    ],
  },
});

export const listLimitAccepted = defineCheck<{ limit: number }>({
  description: 'Every limit from the minimum to the maximum (1 to 100) is answered with 200',
  judge(exchange, { limit }) {
    return exchange.response?.status === 200 ? PASS : fail(`200 for limit=${limit}`, describeResponse(exchange));
  },
  cases: {
    ctx: { limit: 100 },
    pass: [{ why: 'a 200 for limit=100', ex: exchange(200, pets(3)) }],
    fail: [
      { why: 'a 400 for limit=100', ex: exchange(400, errorBody(400)), actual: /^400/ },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
    ],
  },
});

export const listFullPage = defineCheck<{ limit: number; known: number }>({
  description: 'A page holds min(limit, animals known to exist) animals',
  judge(exchange, { limit, known }) {
    const list = items(exchange);
    if (!list) return NOT_APPLICABLE;
    const want = Math.min(limit, known);
    if (want === 0) return NOT_APPLICABLE;
    return list.length >= want ? PASS : fail(`${want} animals (limit ${limit}, at least ${known} exist)`, `${list.length} animals`);
  },
  cases: {
    ctx: { limit: 10, known: 3 },
    pass: [
      { why: '3 animals when 3 exist (limit 10)', ex: exchange(200, pets(3)) },
      { why: '10 animals when 50 exist (limit 10)', ex: exchange(200, pets(10)), ctx: { limit: 10, known: 50 } },
    ],
    fail: [
      { why: '2 animals when 3 exist', ex: exchange(200, pets(2)), actual: /2 animals/ },
      { why: '9 animals for limit 10 when 50 exist', ex: exchange(200, pets(9)), ctx: { limit: 10, known: 50 } },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'no animal known to exist', ex: exchange(200, []), ctx: { limit: 10, known: 0 } },
    ],
  },
});

/** An item's id as the text a petId would give it, or undefined. */
function idText(item: unknown): string | undefined {
  const id = isJsonObject(item) ? item['id'] : undefined;
  return isInt(id) ? String(id) : typeof id === 'string' ? id : undefined;
}

/**
 * `fetched`: for some listed animals, the status GET /pets/{petId} showed of each (the scenario sends
 * it after a listing that listed the animal, and for another status before and after this one: see
 * tests/support/store.ts). One listed under S whose GETs showed T before and after the listing would
 * have had to move to S and back between them: the listing's own status, shown or not, is not its.
 */
export const listStatusFilter = defineCheck<{ status: string; fetched?: ReadonlyMap<string, string> }>({
  description: 'With status=S every animal listed that shows a status has status S, and so does every one listed whose GET shows one, before and after the listing',
  judge(exchange, { status, fetched }) {
    const list = items(exchange);
    if (!list?.length) return NOT_APPLICABLE;
    // status is optional in a Pet (§2.1): an animal listed without it shows nothing the filter could have got wrong, but its GET may.
    const shown = (pet: unknown) => typeof pet !== 'object' || pet === null || 'status' in pet;
    const index = list.findIndex((pet) => shown(pet) && (pet as Record<string, unknown> | null)?.status !== status);
    if (index >= 0) {
      const other = stringifyJson((list[index] as Record<string, unknown> | null)?.status ?? null);
      return fail(`every item with status "${status}"`, `item ${index + 1} of ${list.length} (index ${index}) has status ${other}`);
    }
    const got = (pet: unknown) => fetched?.get(idText(pet) ?? '');
    const moved = list.findIndex((pet) => got(pet) !== undefined && got(pet) !== status);
    if (moved >= 0) {
      const id = idText(list[moved])!;
      const listedAs = shown(list[moved]) ? `shows status ${JSON.stringify(status)}` : 'shows no status';
      return fail(
        `every item with status "${status}" (as GET /pets/{petId} shows it)`,
        `item ${moved + 1} of ${list.length} (id ${id}) ${listedAs}, and GET /pets/${id} showed status ${JSON.stringify(got(list[moved]))} before and after this listing`,
      );
    }
    return list.some((pet) => shown(pet) || got(pet) === status) ? PASS : NOT_APPLICABLE;
  },
  cases: {
    ctx: { status: 'sold' },
    pass: [
      { why: 'every animal sold', ex: exchange(200, pets(4, { status: 'sold' })) },
      { why: 'every animal that shows a status sold, one without', ex: exchange(200, [pet(1, { status: 'sold' }), { id: 2, name: 'Rex', categoryId: 1 }]) },
      { why: 'a sold animal, where a GET showed another, not listed, available', ctx: { status: 'sold', fetched: new Map([['1', 'available']]) }, ex: exchange(200, [pet(2, { status: 'sold' })]) },
      { why: 'animals without status whose GET shows sold', ctx: { status: 'sold', fetched: new Map([['1', 'sold']]) }, ex: exchange(200, [{ id: 1, name: 'Rex', categoryId: 1 }, { id: 2, name: 'Max', categoryId: 1 }]) },
    ],
    fail: [
      { why: 'one pending among sold', ex: exchange(200, [pet(1, { status: 'sold' }), pet(2, { status: 'pending' })]), actual: /^item 2 of 2 \(index 1\) has status "pending"$/ },
      { why: 'an animal with status null', ex: exchange(200, [pet(1, { status: 'sold' }), pet(2, { status: null })]), actual: /^item 2 of 2 \(index 1\) has status null$/ },
      { why: 'one pending among sold and animals without status', ex: exchange(200, [{ id: 1, name: 'Rex', categoryId: 1 }, pet(2, { status: 'pending' })]), actual: /^item 2 of 2/ },
      { why: 'status in another case', ex: exchange(200, [pet(1, { status: 'SOLD' })]) },
      {
        why: 'an animal listed as sold whose GET shows available before and after (a filter ignored, the query\'s status stamped on every item)',
        ctx: { status: 'sold', fetched: new Map([['2', 'available']]) },
        ex: exchange(200, [pet(1, { status: 'sold' }), pet(2, { status: 'sold' })]),
        actual: /^item 2 of 2 \(id 2\) shows status "sold", and GET \/pets\/2 showed status "available"/,
      },
      {
        why: 'an animal listed without status whose GET shows available',
        ctx: { status: 'sold', fetched: new Map([['2', 'available']]) },
        ex: exchange(200, [{ id: 1, name: 'Rex', categoryId: 1 }, { id: 2, name: 'Max', categoryId: 1 }]),
        actual: /^item 2 of 2 \(id 2\) shows no status, and GET \/pets\/2 showed status "available"/,
      },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'an empty listing (nothing to judge)', ex: exchange(200, []) },
      { why: 'animals without status (optional, §2.1): nothing to judge', ex: exchange(200, [{ id: 1, name: 'Rex', categoryId: 1 }]) },
    ],
  },
});

export const listInvalidQuery = defineCheck<{ query: string }>({
  description: 'An invalid query value is refused with a 4xx (GET /pets lists no error status for it), or answered with 200 and a listing within bounds',
  judge(exchange, { query }) {
    const status = exchange.response?.status;
    if (status === undefined || status >= 500) return NOT_APPLICABLE;
    // 401 and 403 speak of the valid key, not of the query.
    if (status === 200 || (status >= 400 && status < 500 && status !== 401 && status !== 403)) return PASS;
    return fail(`a 4xx refusal (400, 422...) or 200 (clamped) for ${query}`, describeResponse(exchange));
  },
  cases: {
    ctx: { query: 'limit=abc' },
    pass: [
      { why: 'a 200 (clamped)', ex: exchange(200, pets(20)) },
      { why: 'a 400 (rejected)', ex: exchange(400, errorBody(400)) },
      { why: 'a 422 (rejected; GET /pets lists no status for it)', ex: exchange(422, errorBody(422)) },
    ],
    fail: [
      { why: 'a 401 with the valid key', ex: exchange(401, errorBody(401)), actual: /^401/ },
      { why: 'a 403', ex: exchange(403, errorBody(403)) },
      { why: 'a 302', ex: exchange(302) },
    ],
    na: [
      { why: 'a 500 (judged by errors.no-5xx)', ex: exchange(500) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
});

export const listInvalidQueryHandling = defineCheck<{ query: string }>({
  description: 'Records whether invalid query values are rejected or tolerated',
  judge(exchange, { query }) {
    const status = exchange.response?.status;
    if (status === undefined) return NOT_APPLICABLE;
    return { outcome: 'observe', value: status === 200 ? 'tolerated with 200' : status >= 400 && status < 500 ? `rejected with ${status}` : `answered ${status}`, detail: query };
  },
  cases: {
    ctx: { query: 'limit=0' },
    observe: [
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'rejected with 400', detail: 'limit=0' },
      { why: 'a 200', ex: exchange(200, pets(1)), value: 'tolerated with 200', detail: 'limit=0' },
      { why: 'a 422', ex: exchange(422, errorBody(422)), value: 'rejected with 422' },
      { why: 'a 302', ex: exchange(302), value: 'answered 302' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
/**
 * Judged on every exchange (a common check): each animal of a listing that this worker created is
 * shown with the name and categoryId its 201 showed (no operation changes them; its status may
 * move, §3). A listing that holds none of them bears on nothing.
 */
export const listShowsCreated = defineCheck({
  description: 'A listing shows each animal the suite created with the name and categoryId its 201 showed',
  judge(exchange, { env }) {
    if (exchange.operationId !== 'listPets' || exchange.response?.status !== 200 || !env.createdAnimals) return NOT_APPLICABLE;
    const body = jsonBody(exchange);
    if (!body.ok || !Array.isArray(body.value)) return NOT_APPLICABLE;
    let compared = 0;
    for (const item of body.value) {
      if (!item || typeof item !== 'object' || Array.isArray(item) || !isInt(item.id)) continue;
      const created = env.createdAnimals.get(String(item.id));
      if (!created) continue;
      compared++;
      if (!echoes(item.name, created.name) || String(item.categoryId) !== created.categoryId) {
        return fail(`animal ${created.id} listed as its 201 showed it: name ${stringifyJson(created.name)}, categoryId ${created.categoryId}`, `listed as ${stringifyJson(item)}`);
      }
    }
    return compared > 0 ? PASS : NOT_APPLICABLE;
  },
  cases: {
    ctx: { env: { createdAnimals: new Map([['7', { id: '7', name: 'Montgomery', categoryId: '9007199254740993' }]]) } },
    pass: [
      { why: 'the animal as created, among others', ex: listing(raw('[{"id":1,"name":"Rex","categoryId":1},{"id":7,"name":"Montgomery","categoryId":9007199254740993,"status":"sold"}]')) },
      { why: 'its name in NFC where it was created decomposed', ctx: { env: { createdAnimals: new Map([['7', { id: '7', name: 'Cafe\u0301', categoryId: '4' }]]) } }, ex: listing([{ id: 7, name: 'Caf\u00e9', categoryId: 4 }]) },
    ],
    fail: [
      { why: 'its name cut short', ex: listing(raw('[{"id":7,"name":"Montgom","categoryId":9007199254740993}]')), actual: /Montgom"/ },
      { why: 'its categoryId rounded through a double', ex: listing(raw('[{"id":7,"name":"Montgomery","categoryId":9007199254740992}]')) },
      { why: 'another animal under its id', ex: listing([{ id: 7, name: 'Bella', categoryId: 2 }]) },
    ],
    na: [
      { why: 'a listing without the animals the suite created', ex: listing([pet(1), pet(2)]) },
      { why: 'a 400', ex: { ...listing([]), response: exchange(400, errorBody(400)).response } },
      { why: 'a GET by id (state.id-keeps-naming judges those)', ex: { ...exchange(200, { id: 7, name: 'Bella', categoryId: 2 }), operationId: 'getPet' } },
    ],
  },
});

/** An answer to GET /v1/pets (listPets). */
function listing(body: Parameters<typeof exchange>[1]): Exchange {
  return { ...exchange(200, body), operationId: 'listPets' };
}

export const LIST_CHECKS = {
  'list.200-pets': list200Pets,
  'list.limit-respected': listLimitRespected,
  'list.limit-default': listLimitDefault,
  'list.limit-max': listLimitMax,
  'list.limit-bounds-accepted': listLimitAccepted,
  'list.full-page': listFullPage,
  'list.shows-created': listShowsCreated,
  'list.status-filter': listStatusFilter,
  'list.invalid-query': listInvalidQuery,
  'list.invalid-query-handling': listInvalidQueryHandling,
} as const;
