import { describeResponse, jsonBody, jsonObject, type Exchange } from '../http/exchange.ts';
import { exactInteger, isInt, isInt64, sameInteger, stringifyJson, type ExactInt } from '../json/lossless.ts';
import { samePet, schemaVerdict } from './common.ts';
import { errorBody, exchange, failed, pet, raw } from './exchanges.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS } from './types.ts';

// Values the cases below share.
const INT64_MAX = 9223372036854775807n;

/**
 * `statusMayChange`: another client or system may have moved the animal to another status since it
 * was listed or created (§3: "Transitions: not shown"); a Pet that differs from what was shown only
 * by another status is then no evidence either way.
 */
/**
 * `shownBy` names the answer `expected` was taken from, for the Expected line: where a listing and a
 * GET disagree about a seeded animal, nothing tells which is wrong but the reader.
 */
export const get200Pet = defineCheck<{ expected: Record<string, unknown>; statusMayChange?: boolean; shownBy?: string }>({
  description: 'GET /pets/{id} of an existing animal answers 200 with that Pet',
  judge(exchange, { env, expected, statusMayChange, shownBy }) {
    const wanted = shownBy ? `the Pet ${shownBy} showed, ${stringifyJson(expected)}` : stringifyJson(expected);
    if (exchange.response?.status !== 200) return fail(`200 with ${wanted}`, describeResponse(exchange));
    const shape = schemaVerdict(exchange, env, 'Pet');
    if (shape.outcome !== 'pass') return shape;
    const body = jsonBody(exchange);
    if (body.ok && samePet(env, body.value, expected)) return PASS;
    const status = jsonObject(exchange)?.status;
    if (statusMayChange && typeof status === 'string' && samePet(env, body.ok ? body.value : undefined, { ...expected, status })) return NOT_APPLICABLE;
    return fail(wanted, describeResponse(exchange));
  },
  cases: {
    ctx: { expected: pet(INT64_MAX) },
    pass: [
      { why: 'a 200 with the animal, int64 id exact', ex: exchange(200, raw('{"id":9223372036854775807,"name":"pet 9223372036854775807","categoryId":1,"status":"available"}')) },
      { why: 'extra fields the listing did not carry', ex: exchange(200, { ...pet(INT64_MAX), category: { id: 1, name: 'dogs' } }) },
      { why: 'a status the listing did not show', ctx: { expected: { id: 3, name: 'x', categoryId: 1 } }, ex: exchange(200, { id: 3, name: 'x', categoryId: 1, status: 'sold' }) },
      { why: 'the status the listing showed left out (§2.1: status is not required of a Pet)', ex: exchange(200, { id: INT64_MAX, name: `pet ${INT64_MAX}`, categoryId: 1 }) },
      { why: 'the listing gave categoryId as the string "4" (list.200-pets fails it), the GET as 4', ctx: { expected: pet(10, { categoryId: '4' }) }, ex: exchange(200, pet(10, { categoryId: 4 })) },
      { why: 'the listing gave categoryId 2^70, beyond int64 (list.200-pets fails it)', ctx: { expected: pet(10, { categoryId: 2n ** 70n }) }, ex: exchange(200, pet(10, { categoryId: 4 })) },
    ],
    fail: [
      { why: 'a 404', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'the id rounded', ex: exchange(200, raw('{"id":9223372036854775806,"name":"pet 9223372036854775807","categoryId":1,"status":"available"}')) },
      { why: 'a body that is not a Pet', ex: exchange(200, { id: 1 }) },
      { why: 'another status', ex: exchange(200, pet(INT64_MAX, { status: 'sold' })) },
      { why: 'no name', ex: exchange(200, { id: 1, categoryId: 1 }) },
      { why: 'the listing gave categoryId as a string, and the GET another name', ctx: { expected: pet(10, { categoryId: '4' }) }, ex: exchange(200, pet(10, { categoryId: 4, name: 'Rex' })) },
      { why: 'categoryId as a string in the GET itself (its own Pet is judged)', ctx: { expected: pet(10, { categoryId: 4 }) }, ex: exchange(200, pet(10, { categoryId: '4' })), actual: /categoryId must be integer/ },
      { why: 'another status and another name, on an animal another client may have moved', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'sold', name: 'Rex' })) },
      { why: 'a status outside PetStatus, on an animal another client may have moved', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'lost' })) },
      {
        why: 'another name than the listing showed: the Expected line names the listing (it may be the one that is wrong)',
        ctx: { expected: pet(7), statusMayChange: true, shownBy: 'GET /pets?limit=100' },
        ex: exchange(200, pet(7, { name: 'Rex' })),
        expected: /^the Pet GET \/pets\?limit=100 showed, \{"id":7,/,
      },
    ],
    na: [
      { why: 'another status on a listed animal (§3 leaves transitions open; another client may have sold it)', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'sold' })) },
    ],
  },
});

/** Bounds the lag is reported in, so that the observations of one run stay few. */
const LAG_BOUNDS_MS = [50, 100, 250, 500, 1000, 2000, 3000, 5000];

/**
 * Records whether a GET of an animal the service had shown found it at once, or only after 404s
 * (a read replica trailing the primary: the spec promises no read-your-writes timing). `misses`
 * and `lagMs` come from the retries of src/suite/read-lag.ts.
 */
export const getReadLag = defineCheck<{ misses: number; lagMs: number; heldMs?: number }>({
  description: 'Records whether an animal just created or listed is found by the first GET /pets/{id}, or only after a 404',
  judge(exchange, { misses, lagMs, heldMs = 0 }) {
    const status = exchange.response?.status;
    // Never found within the window: get.200-pet (or the clause that read it) fails it; the lag is said here too.
    const bound = LAG_BOUNDS_MS.find((ms) => lagMs <= ms) ?? lagMs;
    if (status === 404 && misses > 0) return { outcome: 'observe', value: `still 404 after ${Math.round(LAG_BOUNDS_MS.findLast((ms) => ms <= lagMs) ?? lagMs)} ms of GETs` };
    if (status !== 200) return NOT_APPLICABLE;
    if (misses === 0 && heldMs > 0) return { outcome: 'observe', value: `found within ${bound} ms, its first GET held back by the lag earlier reads met` };
    if (misses === 0) return { outcome: 'observe', value: 'found by the first GET' };
    return { outcome: 'observe', value: `404 at first, found within ${bound} ms` };
  },
  cases: {
    ctx: { misses: 0, lagMs: 0 },
    observe: [
      { why: 'found by the first GET', ex: exchange(200, pet(7)), value: 'found by the first GET' },
      { why: 'found after two 404s, 63 ms on', ex: exchange(200, pet(7)), ctx: { misses: 2, lagMs: 63 }, value: '404 at first, found within 100 ms' },
      { why: 'found after 1.2 s', ex: exchange(200, pet(7)), ctx: { misses: 6, lagMs: 1200 }, value: '404 at first, found within 2000 ms' },
      { why: 'found by a GET held back 900 ms', ex: exchange(200, pet(7)), ctx: { misses: 0, lagMs: 903, heldMs: 903 }, value: 'found within 1000 ms, its first GET held back by the lag earlier reads met' },
      { why: 'found after 2.5 s', ex: exchange(200, pet(7)), ctx: { misses: 8, lagMs: 3004 }, value: '404 at first, found within 5000 ms' },
      { why: 'never found (get.200-pet fails it)', ex: exchange(404, errorBody(404, 'not_found')), ctx: { misses: 9, lagMs: 5012 }, value: 'still 404 after 5000 ms of GETs' },
    ],
    na: [
      { why: 'one GET only, after an earlier read was never found', ex: exchange(404, errorBody(404, 'not_found')), ctx: { misses: 0, lagMs: 0 } },
      { why: 'a transport failure', ex: failed() },
    ],
  },
});

/** `mayExist`: an id an animal may hold (0 and below, where ids may start): any 200 is get.same-id's to judge. */
export const getUnknown404 = defineCheck<{ id: string; mayExist?: boolean }>({
  description: 'GET /pets/{id} of an id no animal has answers 404',
  judge(exchange, { id, mayExist }) {
    const status = exchange.response?.status;
    if (status === 404) return PASS;
    if (status === 200 && mayExist) return NOT_APPLICABLE;
    if (status === 200) {
      // An animal under exactly that id was there after all: not the server's fault.
      const found = jsonObject(exchange)?.id;
      if (found !== undefined && String(found) === id) return NOT_APPLICABLE;
    }
    return fail(mayExist ? `404 for id ${id}, or the animal that has it` : `404 for unknown id ${id}`, describeResponse(exchange));
  },
  cases: {
    ctx: { id: '9223372036854775806' },
    pass: [{ why: 'a 404', ex: exchange(404, errorBody(404, 'not_found')) }],
    fail: [
      { why: 'a 200', ex: exchange(200, pet(1)), actual: /^200/ },
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 410', ex: exchange(410, errorBody(410)) },
      { why: 'a 400 for -1, an int64 an animal may hold', ctx: { id: '-1', mayExist: true }, ex: exchange(400, errorBody(400)) },
    ],
    na: [{ why: 'a 200 with another animal for 0, which may exist: get.same-id judges it', ctx: { id: '0', mayExist: true }, ex: exchange(200, pet(1)) }],
  },
});

export const getMalformedId = defineCheck<{ id: string }>({
  description: 'GET /pets/{id} with an id that is not an int64 answers 4xx (the Error shape is judged apart)',
  judge(exchange, { id }) {
    const status = exchange.response?.status ?? 0;
    return status >= 400 && status < 500 && status !== 401 ? PASS : fail(`a 4xx for petId ${JSON.stringify(id)}`, describeResponse(exchange));
  },
  cases: {
    ctx: { id: 'abc' },
    pass: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 404', ex: exchange(404, errorBody(404)) },
    ],
    fail: [
      { why: 'a 500', ex: exchange(500, errorBody(500)), actual: /^500/ },
      { why: 'a 200', ex: exchange(200, pet(1)) },
      { why: 'a 401 with the valid key', ex: exchange(401, errorBody(401)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
});

/** The last path segment the request asked for, percent-decoded; undefined where it does not decode. */
function petIdSegment(exchange: Exchange): string | undefined {
  try {
    return decodeURIComponent(new URL(exchange.request.url).pathname.split('/').pop() ?? '');
  } catch {
    return undefined;
  }
}

const INTEGER = /^-?\d+$/;

/** The petId a GET of getPet asked for, exactly; undefined for another operation or a petId that is no integer. */
function requestedId(exchange: Exchange): ExactInt | undefined {
  if (exchange.operationId !== 'getPet' || exchange.request.method.toUpperCase() !== 'GET') return undefined;
  const segment = petIdSegment(exchange);
  return segment !== undefined && INTEGER.test(segment) ? exactInteger(segment) : undefined;
}

/**
 * A 404 to GET /pets/{petId} whose petId is no int64 (not an integer, or one past int64 such as
 * 2^63): §4.3 types petId an int64, so such a path may be no route of getPet's at all (a typed route,
 * ASP.NET Core's `{petId:long}`), and the router's 404 answers for no operation, as the 404 of an
 * alias does. Judged by no clause of getPet's or the common ones.
 */
export function isNoPetRoute(exchange: Exchange): boolean {
  if (exchange.operationId !== 'getPet' || exchange.response?.status !== 404) return false;
  const segment = petIdSegment(exchange);
  return segment !== undefined && !(INTEGER.test(segment) && isInt64(exactInteger(segment)));
}

/** Judged on every exchange (a common check): n/a but for a 200 of GET /pets/{petId} whose body carries an integer id. */
export const getSameId = defineCheck({
  description: 'A 200 of GET /pets/{petId} carries the animal with that id, whichever id was asked for',
  judge(exchange) {
    if (exchange.response?.status !== 200) return NOT_APPLICABLE;
    const asked = requestedId(exchange);
    const id = jsonObject(exchange)?.id;
    // Without an integer id the body is no Pet: get.200-pet or the listing's checks judge its shape.
    if (asked === undefined || !isInt(id)) return NOT_APPLICABLE;
    return sameInteger(id, asked) ? PASS : fail(`404, or the animal with id ${asked}`, describeResponse(exchange));
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'the animal asked for', ex: asked('7', exchange(200, pet(7))) },
      { why: 'id 0, asked for as 0', ex: asked('0', exchange(200, pet(0))) },
      { why: 'an int64 id, exact', ex: asked('9223372036854775807', exchange(200, raw('{"id":9223372036854775807,"name":"x","categoryId":1}'))) },
      { why: 'a petId written with leading zeros', ex: asked('007', exchange(200, pet(7))) },
    ],
    fail: [
      { why: 'another animal for id 0 (an array index)', ex: asked('0', exchange(200, pet(10))), actual: /^200/ },
      { why: 'another animal for a negative id', ex: asked('-2', exchange(200, pet(9))) },
      { why: 'the id rounded through a double', ex: asked('9223372036854775807', exchange(200, raw('{"id":9223372036854775808,"name":"x","categoryId":1}'))) },
    ],
    na: [
      { why: 'a 404', ex: asked('0', exchange(404, errorBody(404))) },
      { why: 'a body without an id (get.200-pet judges it)', ex: asked('7', exchange(200, { name: 'x' })) },
      { why: 'a petId that is no integer (get.malformed-id judges it)', ex: asked('abc', exchange(200, pet(7))) },
      { why: 'another operation', ex: exchange(200, pet(8)) },
    ],
  },
});

/** An answer to GET /v1/pets/{petId} (getPet). */
function asked(petId: string, answer: Exchange): Exchange {
  return { ...answer, operationId: 'getPet', request: { ...answer.request, method: 'GET', url: `https://api.example.test/v1/pets/${petId}` } };
}

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const GET_CHECKS = {
  'get.200-pet': get200Pet,
  'get.read-lag': getReadLag,
  'get.unknown-404': getUnknown404,
  'get.malformed-id': getMalformedId,
  'get.same-id': getSameId,
} as const;
