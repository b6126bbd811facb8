/**
 * Every check in CHECKS judged on canned exchanges: at least one it must pass and one it must fail
 * (MUST and SHOULD clauses), or one it must leave n/a and one it must observe with the right value
 * (OBSERVE clauses). The table is keyed by CheckName, so a new check without cases fails both the
 * typecheck and the coverage test below.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, getCheck, type CheckName, type ContextOf } from '../../src/checks/registry.ts';
import type { JudgeEnv, Verdict } from '../../src/checks/types.ts';
import { loadClauses } from '../../src/contract/clauses.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { errorBody, exchange, failed, makeEnv, messageBody, NOW, pet, pets, raw, truncated } from './helpers.ts';

interface Case<C> {
  /** What the case shows, as the test name. */
  why: string;
  ex: Exchange;
  /** Replaces the check's default context for this case. */
  ctx?: C;
  /** Replaces the env clock for this case. */
  now?: Date;
  /** observe: the value the check must record. */
  value?: string;
  /** observe: the detail the check must record. */
  detail?: string;
  /** fail: what the Actual line must say. */
  actual?: RegExp;
  /** fail: what the Expected line must say. */
  expected?: RegExp;
}

interface Cases<C> {
  ctx: C;
  pass?: Case<C>[];
  fail?: Case<C>[];
  na?: Case<C>[];
  observe?: Case<C>[];
}

type Table = { [N in CheckName]: Cases<ContextOf<N>> };

const REMOVAL = new Date('2030-12-05T00:00:00Z');
const AFTER_REMOVAL = new Date('2031-01-10T00:00:00Z');
/** The spec names 5 December 2030 and no zone: that day begins first at UTC+14, at 10:00Z the day before. */
const REMOVAL_DAY_BEGINS = new Date('2030-12-04T10:00:00Z');
const JUST_BEFORE_IT = new Date(REMOVAL_DAY_BEGINS.getTime() - 1);
const INT64_MAX = 9223372036854775807n;
/** What a router answers GET /v1/store/no-such-operation, the control of the orders checks. */
const UNROUTED_404 = exchange(404, errorBody(404, 'not_found', 'no such resource: /v1/store/no-such-operation'));
const NEW_PET = { name: 'Rex', categoryId: INT64_MAX };
const NUL_NAME = { why: 'a NUL character', tooLong: false };
const LONG_NAME = { why: 'over 50 characters', tooLong: true };
const EMPTY_TEXT = { why: 'empty', tooLong: false };
const UNKNOWN_CATEGORY = { why: 'categoryId 0 is not known to name a category, §2.5', tooLong: false };
const FROM_SETTING = 'categoryId 3 is one --category-ids names';
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
const DEPRECATION_HEADERS = { deprecation: '@1735689600', sunset: SUNSET, link: '</v1/pets>; rel="successor-version"' };

const TABLE: Table = {
  'json-content-type': {
    ctx: {},
    pass: [
      { why: 'application/json; charset=utf-8', ex: exchange(200, pets(2), { 'content-type': 'application/json; charset=utf-8' }) },
      { why: 'Application/JSON (media types are case-insensitive)', ex: exchange(200, pets(1), { 'content-type': 'Application/JSON' }) },
      { why: 'plain application/json on an Error', ex: exchange(400, errorBody(400)) },
    ],
    fail: [
      { why: 'text/plain', ex: exchange(200, pets(1), { 'content-type': 'text/plain' }), actual: /text\/plain/ },
      { why: 'no Content-Type at all', ex: exchange(200, pets(1), { 'content-type': null }), actual: /absent/ },
      { why: 'text/html on a 404', ex: exchange(404, raw('<h1>Not Found</h1>'), { 'content-type': 'text/html' }) },
      { why: 'application/jsonp is another media type', ex: exchange(200, pets(1), { 'content-type': 'application/jsonp' }) },
    ],
    na: [
      { why: 'an empty body', ex: exchange(204) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'json-no-bom': {
    ctx: {},
    pass: [
      { why: 'a listing starting with [', ex: exchange(200, pets(1)) },
      { why: 'an Error with white space before it', ex: exchange(404, raw(` ${JSON.stringify(errorBody(404))}`)) },
    ],
    fail: [
      {
        why: 'a listing after a UTF-8 byte-order mark',
        ex: exchange(200, raw(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(pets(1)))]))),
        actual: /^a byte-order mark before the JSON/,
        expected: /RFC 8259 §8\.1/,
      },
      { why: 'an Error after one, whatever its Content-Type', ex: exchange(400, raw(`\uFEFF${JSON.stringify(errorBody(400))}`), { 'content-type': 'text/plain' }) },
    ],
    na: [
      { why: 'an empty body', ex: exchange(204) },
      { why: 'a transport failure', ex: failed() },
      { why: 'a CSV with one from GET /store/orders, whose payload is not shown', ex: { ...exchange(200, raw('\uFEFFid,total'), { 'content-type': 'text/csv' }), operationId: 'listStoreOrders' } },
    ],
  },
  'json-unique-names': {
    ctx: {},
    pass: [
      { why: 'a listing of distinct names', ex: exchange(200, pets(3)) },
      { why: 'a name inside a string value, and the same name in sibling objects', ex: exchange(200, raw('[{"id":1,"name":"\\"status\\": x","status":"sold"},{"id":2,"status":"sold"}]')) },
      { why: 'the same name at two depths', ex: exchange(201, raw('{"id":1,"name":"a","tags":{"name":"b"}}')) },
    ],
    fail: [
      {
        why: 'a listing item carrying status twice, as a filter leak a last-wins parser hides',
        ex: exchange(200, raw('[{"id":1,"name":"Rex","categoryId":1,"status":"available","status":"sold"}]')),
        actual: /^a name repeated within an object, with different values: "status": "available" then "sold" on 200 /,
        expected: /RFC 8259 §4/,
      },
      { why: 'an Error repeating code with the same value', ex: exchange(400, raw('{"code":"bad","message":"m","status":400,"code":"bad"}')), actual: /same value/ },
      { why: 'a repeated int64 name, kept exact', ex: exchange(200, raw('{"id":9223372036854775807,"id":1}')), actual: /"id": 9223372036854775807 then 1/ },
    ],
    na: [
      { why: 'a body that is not JSON', ex: exchange(200, raw('{"a":1,"a":')) },
      { why: 'a JSON string', ex: exchange(200, raw('"a"')) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'error-shape': {
    ctx: {},
    pass: [
      { why: 'a 400 Error', ex: exchange(400, errorBody(400, 'invalid_body', 'name is required')) },
      { why: 'a 404 Error with an extra field (schemas stay open)', ex: exchange(404, { ...errorBody(404, 'not_found'), requestId: 'r1' }) },
    ],
    fail: [
      { why: 'an Error missing code', ex: exchange(400, { message: 'name is required', status: 400 }), actual: /code/ },
      { why: 'an Error missing status', ex: exchange(404, { code: 'not_found', message: 'no such animal' }), actual: /status/ },
      { why: 'status as a string', ex: exchange(400, { code: 'x', message: 'y', status: '400' }) },
      { why: 'an HTML 500', ex: exchange(500, raw('<h1>Internal Server Error</h1>'), { 'content-type': 'text/html' }) },
      { why: 'an empty 404', ex: exchange(404), actual: /empty body/ },
      { why: 'an Error as an array', ex: exchange(400, [errorBody(400)]) },
    ],
    na: [
      { why: 'a 200', ex: exchange(200, pets(1)) },
      { why: 'a 401 (judged by auth-401-error-body)', ex: exchange(401, { nothing: 'here' }) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'error-status-field': {
    ctx: {},
    pass: [
      { why: 'status 400 on a 400', ex: exchange(400, errorBody(400)) },
      { why: 'status 404 on a 404', ex: exchange(404, errorBody(404, 'not_found')) },
    ],
    fail: [
      { why: 'status 200 on a 400', ex: exchange(400, { code: 'x', message: 'y', status: 200 }), actual: /Error\.status = 200 on an HTTP 400/ },
      { why: 'status 404 on a 400', ex: exchange(400, errorBody(404)) },
      { why: 'status 500 on a 401', ex: exchange(401, errorBody(500, 'unauthorized')) },
    ],
    na: [
      { why: 'a 200', ex: exchange(200, { code: 'x', message: 'y', status: 404 }) },
      { why: 'an Error without status (error-shape judges that)', ex: exchange(400, { code: 'x', message: 'y' }) },
      { why: 'a status that is not an integer', ex: exchange(400, { code: 'x', message: 'y', status: '400' }) },
      { why: 'a body that is not JSON', ex: exchange(400, raw('Bad Request'), { 'content-type': 'text/plain' }) },
    ],
  },
  'no-5xx': {
    ctx: {},
    pass: [
      { why: 'a 200', ex: exchange(200, pets(1)) },
      { why: 'a 404', ex: exchange(404, errorBody(404)) },
      { why: 'a 499', ex: exchange(499) },
    ],
    fail: [
      { why: 'a 500', ex: exchange(500, errorBody(500)), actual: /^500/ },
      { why: 'a 503', ex: exchange(503) },
    ],
    na: [{ why: 'a transport failure', ex: failed('reset', 'socket hang up') }],
  },
  'auth-401': {
    ctx: { variant: 'absent' },
    pass: [
      { why: 'a 401', ex: exchange(401, errorBody(401, 'unauthorized'), { 'www-authenticate': 'Bearer' }) },
      { why: 'a 401 for a body that is not JSON either', ctx: { variant: 'absent', invalid: 'a body that is not JSON' }, ex: exchange(401, errorBody(401, 'unauthorized')) },
    ],
    fail: [
      { why: 'a 200 without a key', ex: exchange(200, pets(1)), actual: /^200/ },
      { why: 'a 403 (the spec says 401)', ex: exchange(403, errorBody(403, 'forbidden')) },
      { why: 'a transport failure', ex: failed(), actual: /timeout/ },
      {
        why: 'a 400 for an invalid query without a key (validated before authenticated)',
        ctx: { variant: 'absent', invalid: 'limit=0 (below the minimum 1)' },
        ex: exchange(400, errorBody(400, 'invalid_query')),
        expected: /^401 for Authorization absent, whatever else is wrong \(here limit=0 \(below the minimum 1\)\): §7 gives 401 on all operations$/,
        actual: /^400/,
      },
      { why: 'a 404 for an unknown petId with a wrong key (tells a caller without a key which ids exist)', ctx: { variant: 'key with a suffix', invalid: 'petId 9223372036854775807' }, ex: exchange(404, errorBody(404, 'not_found')), actual: /^404/ },
    ],
  },
  'auth-401-error-body': {
    ctx: {},
    pass: [{ why: 'a 401 Error', ex: exchange(401, errorBody(401, 'unauthorized', 'missing or invalid API key')) }],
    fail: [
      { why: 'an empty 401', ex: exchange(401), actual: /empty body/ },
      { why: 'a 401 Error missing status', ex: exchange(401, { code: 'unauthorized', message: 'no key' }) },
      { why: 'a plain-text 401', ex: exchange(401, raw('Unauthorized'), { 'content-type': 'text/plain' }) },
    ],
    na: [
      { why: 'a 200', ex: exchange(200, pets(1)) },
      { why: 'a 403', ex: exchange(403) },
    ],
  },
  'auth-valid-key-accepted': {
    ctx: {},
    pass: [
      { why: 'a 200', ex: exchange(200, pets(1)) },
      { why: 'a 404', ex: exchange(404, errorBody(404)) },
      { why: 'a 403 where the responses are not shown (§4.4)', ex: { ...exchange(403, errorBody(403)), operationId: 'listStoreOrders' } },
    ],
    fail: [
      { why: 'a 401', ex: exchange(401, errorBody(401)), actual: /^401/ },
      { why: 'a 403', ex: exchange(403, errorBody(403)) },
      { why: 'a 403 where the contract shows a success (listPets)', ex: { ...exchange(403, errorBody(403)), operationId: 'listPets' } },
      { why: 'a 401 where the responses are not shown (§4.4)', ex: { ...exchange(401, errorBody(401)), operationId: 'listStoreOrders' }, expected: /other than 401 for/ },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'auth-scheme-variant': {
    ctx: { variant: 'bearer <API_KEY>' },
    observe: [
      { why: 'a 200', ex: exchange(200, pets(1)), value: 'bearer <API_KEY>: accepted (200)' },
      { why: 'a 401', ex: exchange(401, errorBody(401)), value: 'bearer <API_KEY>: refused (401)' },
    ],
    na: [
      { why: 'a 500 (errors.no-5xx judges it)', ex: exchange(500, errorBody(500)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'auth-www-authenticate': {
    ctx: {},
    pass: [{ why: 'a 401 with a Bearer challenge', ex: exchange(401, errorBody(401), { 'www-authenticate': 'Bearer realm="animal-store"' }) }],
    fail: [
      { why: 'a 401 without the header', ex: exchange(401, errorBody(401)), actual: /no WWW-Authenticate/ },
      { why: 'a 401 with a blank header', ex: exchange(401, errorBody(401), { 'www-authenticate': '   ' }) },
    ],
    na: [{ why: 'a 200', ex: exchange(200, pets(1)) }],
  },
  'auth-alias-not-served': {
    ctx: { alias: 'GET /v1/pets/' },
    pass: [
      { why: 'a 401', ex: exchange(401, errorBody(401, 'unauthorized')) },
      { why: 'a plain 404 (the alias is not served)', ex: exchange(404, raw('Not Found'), { 'content-type': 'text/plain' }) },
      { why: 'a 301 to /v1/pets', ex: exchange(301, undefined, { location: '/v1/pets' }) },
      { why: 'a 200 that is no listing (some other page)', ex: exchange(200, raw('<h1>Animal Store</h1>'), { 'content-type': 'text/html' }) },
      { why: 'a 401 to HEAD (no body)', ctx: { alias: 'HEAD /v1/pets' }, ex: exchange(401, undefined, {}, { method: 'HEAD' }) },
      { why: 'a 405 to HEAD', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(405, undefined, { allow: 'GET' }, { method: 'HEAD' }) },
      { why: 'a 404 to HEAD of an id', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(404, undefined, {}, { method: 'HEAD' }) },
    ],
    fail: [
      { why: 'the listing without credentials', ex: exchange(200, pets(2)), actual: /^200/ },
      { why: 'an empty listing without credentials', ex: exchange(200, []) },
      { why: 'a listing whose items are no valid Pet', ex: exchange(200, [{ id: '1', name: 7 }]) },
      { why: 'the listing at /v1/PETS', ctx: { alias: 'GET /v1/PETS' }, ex: exchange(200, pets(1), {}, { url: 'https://api.example.test/v1/PETS' }), expected: /GET \/v1\/PETS/ },
      { why: 'a 200 to HEAD, which has no body to tell', ctx: { alias: 'HEAD /v1/pets' }, ex: exchange(200, undefined, { 'content-type': 'application/json', 'content-length': '120' }, { method: 'HEAD' }), expected: /no 2xx for HEAD \/v1\/pets/, actual: /^200/ },
      { why: 'a 204 to HEAD of an id', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(204, undefined, {}, { method: 'HEAD' }) },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'list-200-pets': {
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
    ],
  },
  'list-limit-respected': {
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
  'list-limit-default': {
    ctx: {},
    pass: [{ why: '20 animals without limit', ex: exchange(200, pets(20)) }],
    fail: [{ why: '21 animals without limit', ex: exchange(200, pets(21)), actual: /21 animals/ }],
    na: [{ why: 'a 401', ex: exchange(401, errorBody(401)) }],
  },
  'list-limit-max': {
    ctx: { query: '?limit=1000' },
    pass: [{ why: '100 animals', ex: exchange(200, pets(100)) }],
    fail: [
      { why: '101 animals', ex: exchange(200, pets(101)), actual: /101 animals/, expected: /^at most 100 animals \(\?limit=1000, maximum 100\)$/ },
      { why: '101 animals for a query of two parameters', ctx: { query: '?limit=0&status=sold' }, ex: exchange(200, pets(101)), expected: /^at most 100 animals \(\?limit=0&status=sold, maximum 100\)$/ },
    ],
    na: [{ why: 'a 400 for limit=1000', ex: exchange(400, errorBody(400)) }],
  },
  'list-limit-accepted': {
    ctx: { limit: 100 },
    pass: [{ why: 'a 200 for limit=100', ex: exchange(200, pets(3)) }],
    fail: [
      { why: 'a 400 for limit=100', ex: exchange(400, errorBody(400)), actual: /^400/ },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
    ],
  },
  'list-full-page': {
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
  'list-status-filter': {
    ctx: { status: 'sold' },
    pass: [
      { why: 'every animal sold', ex: exchange(200, pets(4, { status: 'sold' })) },
    ],
    fail: [
      { why: 'one pending among sold', ex: exchange(200, [pet(1, { status: 'sold' }), pet(2, { status: 'pending' })]), actual: /^item 2 of 2 \(index 1\) has status "pending"$/ },
      { why: 'an animal without status', ex: exchange(200, [{ id: 1, name: 'Rex', categoryId: 1 }]), actual: /null/ },
      { why: 'status in another case', ex: exchange(200, [pet(1, { status: 'SOLD' })]) },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'an empty listing (nothing to judge)', ex: exchange(200, []) },
    ],
  },
  'list-invalid-query': {
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
      { why: 'a 500 (judged by no-5xx)', ex: exchange(500) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'list-invalid-query-handling': {
    ctx: { query: 'limit=0' },
    observe: [
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'rejected with 400', detail: 'limit=0' },
      { why: 'a 200', ex: exchange(200, pets(1)), value: 'tolerated with 200', detail: 'limit=0' },
      { why: 'a 422', ex: exchange(422, errorBody(422)), value: 'rejected with 422' },
      { why: 'a 302', ex: exchange(302), value: 'answered 302' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'create-201-pet': {
    ctx: {},
    pass: [
      { why: 'a 201 Pet', ex: exchange(201, pet(7)) },
      { why: 'a 201 Pet with an int64 id', ex: exchange(201, pet(INT64_MAX)) },
      { why: 'a 201 Pet for a name with NUL', ex: exchange(201, pet(7, { name: 'a\u0000b' })), ctx: { refusable: NUL_NAME } },
      { why: 'a 400 refusing a name with NUL', ex: exchange(400, errorBody(400)), ctx: { refusable: NUL_NAME } },
      { why: 'a 413 refusing a long name', ex: exchange(413, errorBody(413)), ctx: { refusable: LONG_NAME } },
      { why: 'a 400 refusing a categoryId not known to name a category', ex: exchange(400, errorBody(400)), ctx: { refusable: UNKNOWN_CATEGORY } },
      { why: 'a 201 Pet for a categoryId not known to name a category', ex: exchange(201, pet(7, { categoryId: 0 })), ctx: { refusable: UNKNOWN_CATEGORY } },
    ],
    fail: [
      {
        why: 'a 400 for a categoryId --category-ids names: the Expected line says so, and where to change it',
        ex: exchange(400, errorBody(400)),
        ctx: { category: FROM_SETTING },
        expected: /^201 with the created Pet \(categoryId 3 is one --category-ids names; if the target refuses it, give categoryIds it accepts with --category-ids\)$/,
      },
      { why: 'a 500 for a categoryId --category-ids names: no hint', ex: exchange(500, errorBody(500)), ctx: { category: FROM_SETTING }, expected: /^201 with the created Pet$/ },
      { why: 'a 422 refusing a categoryId not known to name a category (§4.2 says 400)', ex: exchange(422, errorBody(422)), ctx: { refusable: UNKNOWN_CATEGORY }, expected: /or 400 refusing it \(categoryId 0 is not known/ },
      { why: 'a 404 refusing a categoryId not known to name a category (§7 gives 404 to GET /pets/{petId} alone)', ex: exchange(404, errorBody(404)), ctx: { refusable: UNKNOWN_CATEGORY } },
      { why: 'a 200 (the spec says 201)', ex: exchange(200, pet(7)), actual: /^200/ },
      { why: 'a 201 without id', ex: exchange(201, { name: 'Rex', categoryId: 1 }), actual: /id/ },
      { why: 'categoryId as a string', ex: exchange(201, pet(7, { categoryId: '1' })) },
      { why: 'categoryId rounded through a double past int64', ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775808.0}')), actual: /categoryId/ },
      { why: 'status null in a 201 for a status sent as null', ex: exchange(201, pet(7, { status: null })), ctx: { refusable: { why: 'status null', tooLong: false } }, actual: /status/ },
      { why: 'an empty 201', ex: exchange(201) },
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 400 refusing a name every server must take', ex: exchange(400, errorBody(400)), ctx: { refusable: undefined }, actual: /^400/ },
      { why: 'a 413 refusing a NUL (not a size)', ex: exchange(413, errorBody(413)), ctx: { refusable: NUL_NAME }, actual: /^413/ },
      { why: 'a 422 refusing a long name (§4.2 says 400)', ex: exchange(422, errorBody(422)), ctx: { refusable: LONG_NAME } },
      { why: 'a 500 for a NUL', ex: exchange(500, errorBody(500)), ctx: { refusable: NUL_NAME } },
      { why: 'a 200 for a long name', ex: exchange(200, pet(7)), ctx: { refusable: LONG_NAME } },
    ],
  },
  'create-echo': {
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
  'create-id-unique': {
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
  'create-ignores-client-id': {
    ctx: { clientId: '7', existing: true },
    pass: [
      { why: 'a 201 under another id', ex: exchange(201, pet(8)) },
      { why: 'a 400 refusing the id', ex: exchange(400, errorBody(400, 'invalid_pet', 'id is assigned by the service')) },
      { why: 'a 409 refusing the id an animal already has', ex: exchange(409, errorBody(409, 'conflict')) },
      { why: 'an int64 id one below the unused one sent', ex: exchange(201, raw('{"id":9223372036854775806,"name":"x","categoryId":3}')), ctx: { clientId: '9223372036854775807', existing: false } },
    ],
    fail: [
      { why: 'a 201 reusing the id of an existing animal', ex: exchange(201, pet(7)), actual: /^201 with id 7$/ },
      { why: 'a 200 reusing it', ex: exchange(200, pet(7)) },
      { why: 'a 201 under the unused int64 id sent', ex: exchange(201, raw('{"id":9223372036854775807,"name":"x","categoryId":3}')), ctx: { clientId: '9223372036854775807', existing: false }, actual: /9223372036854775807/ },
      { why: 'the id given back as a string', ex: exchange(201, pet('7' as unknown as number)) },
    ],
    na: [
      { why: 'a 500 (errors.no-5xx judges it)', ex: exchange(500, errorBody(500)) },
      { why: 'a 201 without an id (create.201-pet judges it)', ex: exchange(201, { name: 'x', categoryId: 2 }) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'create-client-id-leaves-existing': {
    ctx: { before: pet(7) },
    pass: [
      { why: 'the animal as it was', ex: exchange(200, pet(7)) },
      { why: 'as it was, with a field Pet does not define', ex: exchange(200, { ...pet(7), updatedAt: '2026-01-01T00:00:00Z' }) },
    ],
    fail: [
      { why: 'overwritten by the NewPet', ex: exchange(200, pet(7, { name: "carries another animal's id", categoryId: 2, status: 'pending' })), actual: /carries another/ },
      { why: 'its status changed', ex: exchange(200, pet(7, { status: 'sold' })) },
      { why: 'gone', ex: exchange(404, errorBody(404, 'not_found')), actual: /^404/ },
    ],
  },
  'create-invalid-400': {
    ctx: { rule: 'name missing' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 415 when the body, not the media type, is wrong', ex: exchange(415, errorBody(415)), actual: /^415/ },
      { why: 'a 201', ex: exchange(201, pet(1)) },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
      { why: 'a 500', ex: exchange(500) },
    ],
  },
  'create-name-constraints': {
    ctx: { refusable: NUL_NAME },
    observe: [
      { why: 'a 201', ex: exchange(201, pet(7, { name: 'a\u0000b' })), value: 'name a NUL character: accepted (201)' },
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'name a NUL character: refused (400)' },
      { why: 'a 413 for a long name', ex: exchange(413, errorBody(413)), ctx: { refusable: LONG_NAME }, value: 'name over 50 characters: refused (413)' },
    ],
    na: [
      { why: 'a 500 (create-201-pet and errors.no-5xx judge it)', ex: exchange(500, errorBody(500)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'create-null-optional': {
    ctx: { field: 'status' },
    pass: [{ why: 'a 400 refusing status null', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 201 without status (null taken as omitted)', ex: exchange(201, { id: 7, name: 'Rex', categoryId: 1 }), expected: /^400 for "status": null/, actual: /^201/ },
      { why: 'a 201 with status null', ex: exchange(201, pet(7, { status: null })) },
      { why: 'a 422 (§4.2 gives invalid values 400)', ex: exchange(422, errorBody(422)), actual: /^422/ },
      { why: 'a 500', ex: exchange(500, errorBody(500)) },
    ],
  },
  'create-content-type': {
    ctx: { contentType: 'text/plain' },
    observe: [
      { why: 'a 201 (read as JSON)', ex: exchange(201, pet(1)), value: 'Content-Type text/plain: accepted (201)' },
      { why: 'a 415', ex: exchange(415, errorBody(415)), value: 'Content-Type text/plain: refused (415)' },
      { why: 'a 400 with no Content-Type sent', ex: exchange(400, errorBody(400)), ctx: { contentType: null }, value: 'Content-Type (none): refused (400)' },
    ],
    na: [
      { why: 'a 500 (errors.no-5xx judges it)', ex: exchange(500, errorBody(500)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'create-location': {
    ctx: {},
    pass: [{ why: 'a 201 with Location', ex: exchange(201, pet(7), { location: '/v1/pets/7' }) }],
    fail: [{ why: 'a 201 without Location', ex: exchange(201, pet(7)), actual: /no Location/ }],
    na: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
  },
  'create-location-resolves': {
    ctx: { created: pet(7) },
    pass: [
      { why: 'a 200 with the created animal', ex: exchange(200, pet(7)) },
      { why: 'the same fields in another order', ex: exchange(200, raw('{"status":"available","categoryId":1,"name":"pet 7","id":7}')) },
      { why: 'an int64 id, exact', ex: exchange(200, raw('{"id":9223372036854775807,"name":"x","categoryId":1}')), ctx: { created: { id: INT64_MAX, name: 'x', categoryId: 1 } } },
      { why: 'fields Pet does not define, only in the GET', ex: exchange(200, { ...pet(7), links: { self: '/v1/pets/7' }, updatedAt: '2026-01-01T00:00:00Z' }) },
      { why: 'the 201 gave categoryId as the string "1" (create.201-pet fails it), the GET as 1', ctx: { created: pet(7, { categoryId: '1' }) }, ex: exchange(200, pet(7)) },
    ],
    fail: [
      { why: 'a 404', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'another name', ex: exchange(200, pet(7, { name: 'someone else' })) },
      { why: 'another categoryId beside an extra field', ex: exchange(200, { ...pet(7, { categoryId: 2 }), links: {} }) },
      { why: 'an int64 id rounded', ex: exchange(200, raw('{"id":9223372036854775806,"name":"x","categoryId":1}')), ctx: { created: { id: INT64_MAX, name: 'x', categoryId: 1 } } },
    ],
  },
  'pet-default-status': {
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
  'create-name-normalized': {
    ctx: { input: { name: '\uF900', categoryId: 2 } },
    observe: [
      {
        why: 'U+F900 back as U+8C48',
        ex: exchange(201, { id: 1, name: '\u8C48', categoryId: 2 }),
        value: 'name returned normalised to Unicode NFC (canonically equivalent to the one sent)',
      },
      {
        why: 'a lone surrogate as U+FFFD and e U+0301 as U+00E9',
        ctx: { input: { name: 'e\u0301\uD800', categoryId: 2 } },
        ex: exchange(201, { id: 1, name: '\u00E9\uFFFD', categoryId: 2 }),
        value: 'name returned normalised to Unicode NFC (canonically equivalent to the one sent)',
      },
    ],
    na: [
      { why: 'the name back as sent', ex: exchange(201, { id: 1, name: '\uF900', categoryId: 2 }) },
      { why: 'a lone surrogate back as U+FFFD only', ctx: { input: { name: 'a\uD800', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'a\uFFFD', categoryId: 2 }) },
      { why: 'another name', ex: exchange(201, { id: 1, name: 'Rex', categoryId: 2 }) },
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
    ],
  },
  'create-category-constraints': {
    ctx: { categoryId: 0 },
    observe: [
      { why: 'a 201 for categoryId 0', ex: exchange(201, pet(7, { categoryId: 0 })), value: 'categoryId 0: accepted (201)' },
      { why: 'a 400 for categoryId 0', ex: exchange(400, errorBody(400)), value: 'categoryId 0: refused (400)' },
      { why: 'a 422 (create-201-pet fails it)', ex: exchange(422, errorBody(422)), value: 'categoryId 0: refused (422)' },
      { why: 'a 400 for -1', ex: exchange(400, errorBody(400)), ctx: { categoryId: -1 }, value: 'a negative categoryId: refused (400)' },
      { why: 'a 400 for int64 min', ex: exchange(400, errorBody(400)), ctx: { categoryId: -(2n ** 63n) }, value: 'a categoryId below -2^53: refused (400)' },
      { why: 'a 201 for int64 max', ex: exchange(201, pet(7, { categoryId: INT64_MAX })), ctx: { categoryId: INT64_MAX }, value: 'a categoryId beyond 2^53: accepted (201)' },
      { why: 'a 400 for 1001', ex: exchange(400, errorBody(400)), ctx: { categoryId: 1001 }, value: 'a positive categoryId: refused (400)' },
    ],
    na: [
      { why: 'a 500 (create-201-pet and errors.no-5xx judge it)', ex: exchange(500, errorBody(500)) },
      { why: 'a 200 (create-201-pet judges it)', ex: exchange(200, pet(7)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'create-unknown-fields': {
    ctx: {},
    observe: [
      { why: 'a 201', ex: exchange(201, pet(7)), value: 'ignored (201)' },
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'refused (400)' },
      { why: 'a 422', ex: exchange(422, errorBody(422)), value: 'answered 422' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'get-200-pet': {
    ctx: { expected: pet(INT64_MAX) },
    pass: [
      { why: 'a 200 with the animal, int64 id exact', ex: exchange(200, raw('{"id":9223372036854775807,"name":"pet 9223372036854775807","categoryId":1,"status":"available"}')) },
      { why: 'extra fields the listing did not carry', ex: exchange(200, { ...pet(INT64_MAX), category: { id: 1, name: 'dogs' } }) },
      { why: 'a status the listing did not show', ctx: { expected: { id: 3, name: 'x', categoryId: 1 } }, ex: exchange(200, { id: 3, name: 'x', categoryId: 1, status: 'sold' }) },
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
      { why: 'the status the listing showed left out', ex: exchange(200, { id: INT64_MAX, name: `pet ${INT64_MAX}`, categoryId: 1 }) },
      { why: 'the status left out, on an animal another client may have moved', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, { id: 7, name: 'pet 7', categoryId: 1 }) },
      { why: 'another status and another name, on an animal another client may have moved', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'sold', name: 'Rex' })) },
      { why: 'a status outside PetStatus, on an animal another client may have moved', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'lost' })) },
    ],
    na: [
      { why: 'another status on a listed animal (§3 leaves transitions open; another client may have sold it)', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'sold' })) },
    ],
  },
  'get-read-lag': {
    ctx: { misses: 0, lagMs: 0 },
    observe: [
      { why: 'found by the first GET', ex: exchange(200, pet(7)), value: 'found by the first GET' },
      { why: 'found after two 404s, 63 ms on', ex: exchange(200, pet(7)), ctx: { misses: 2, lagMs: 63 }, value: '404 at first, found within 100 ms' },
      { why: 'found after 1.2 s', ex: exchange(200, pet(7)), ctx: { misses: 6, lagMs: 1200 }, value: '404 at first, found within 2000 ms' },
      { why: 'found by a GET held back 900 ms', ex: exchange(200, pet(7)), ctx: { misses: 0, lagMs: 903, heldMs: 903 }, value: 'found within 1000 ms, its first GET held back by the lag earlier reads met' },
    ],
    na: [
      { why: 'never found (get.200-pet fails it)', ex: exchange(404, errorBody(404, 'not_found')), ctx: { misses: 6, lagMs: 1000 } },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'get-unknown-404': {
    ctx: { id: '9223372036854775806' },
    pass: [{ why: 'a 404', ex: exchange(404, errorBody(404, 'not_found')) }],
    fail: [
      { why: 'a 200', ex: exchange(200, pet(1)), actual: /^200/ },
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 410', ex: exchange(410, errorBody(410)) },
    ],
  },
  'get-malformed-id': {
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
  'deprecation-operational': {
    ctx: { removal: REMOVAL, id: '7' },
    pass: [{ why: 'a 200 before removal', ex: exchange(200, pet(7), DEPRECATION_HEADERS) }],
    fail: [
      { why: 'a 404 for a listed id before removal', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'a 410 before removal', ex: exchange(410, errorBody(410)) },
      { why: 'a 410 at 09:59:59.999Z on 4 December 2030, still 4 December everywhere', ex: exchange(410, errorBody(410)), now: JUST_BEFORE_IT },
    ],
    na: [
      { why: 'a 404 after removal', ex: exchange(404, errorBody(404)), now: AFTER_REMOVAL },
      { why: 'a 410 at 10:00Z on 4 December 2030, when 5 December begins at UTC+14', ex: exchange(410, errorBody(410)), now: REMOVAL_DAY_BEGINS },
      { why: 'a 410 at 00:00Z on 5 December 2030', ex: exchange(410, errorBody(410)), now: REMOVAL },
    ],
  },
  'deprecation-headers-well-formed': {
    ctx: {},
    pass: [
      { why: 'Deprecation @1735689600, Sunset IMF-fixdate, Link successor-version', ex: exchange(200, pet(7), DEPRECATION_HEADERS) },
      { why: 'no deprecation headers at all', ex: exchange(200, pet(7)) },
      { why: 'Sunset in the obsolete RFC 850 form', ex: exchange(200, pet(7), { sunset: 'Thursday, 05-Dec-30 00:00:00 GMT' }) },
      { why: 'Sunset in the asctime form', ex: exchange(200, pet(7), { sunset: 'Thu Dec  5 00:00:00 2030' }) },
      { why: 'Deprecation: true (the drafts before RFC 9745)', ex: exchange(200, pet(7), { deprecation: 'true' }) },
      { why: 'Deprecation as an HTTP-date (an earlier draft)', ex: exchange(200, pet(7), { deprecation: 'Sun, 01 Jun 2025 00:00:00 GMT' }) },
      { why: 'two link-values', ex: exchange(200, pet(7), { link: '</v1/pets>; rel="successor-version", <https://docs.example/deprecation>; rel="deprecation"; type="text/html"' }) },
      { why: 'Link with empty list elements (RFC 9110 §5.6.1.2)', ex: exchange(200, pet(7), { link: ', </v1/pets>; rel="successor-version",, <https://docs.example/d>; rel="deprecation", ' }) },
      { why: 'Deprecation with a parameter (an RFC 9651 Item)', ex: exchange(200, pet(7), { deprecation: '@1735689600;note="see docs"' }) },
      {
        why: 'Deprecation with parameters of every bare-item type',
        ex: exchange(200, pet(7), { deprecation: '@1735689600; a=-1;b;c=?1;d=tok/x:y;e=1.5;f=:aGk=:;g=@5;h=%"caf%c3%a9";i="q\\"d"' }),
      },
    ],
    fail: [
      { why: 'Deprecation: yes please', ex: exchange(200, pet(7), { deprecation: 'yes please' }), actual: /Deprecation: yes please/ },
      { why: 'Deprecation: 2030-12-05 (no HTTP-date)', ex: exchange(200, pet(7), { deprecation: '2030-12-05' }) },
      { why: 'Sunset: 2030-12-05', ex: exchange(200, pet(7), { sunset: '2030-12-05' }), actual: /Sunset: 2030-12-05/ },
      { why: 'Link without angle brackets', ex: exchange(200, pet(7), { link: '/v1/pets; rel="successor-version"' }), actual: /Link/ },
      { why: 'Deprecation with an upper-case parameter key', ex: exchange(200, pet(7), { deprecation: '@1735689600;Note=1' }), actual: /Deprecation/ },
      { why: 'Deprecation with a parameter without a value after =', ex: exchange(200, pet(7), { deprecation: '@1735689600;note=' }) },
      { why: 'Deprecation with white space before the ;', ex: exchange(200, pet(7), { deprecation: '@1735689600 ;note=1' }) },
      { why: 'Link with a bad element among empty ones', ex: exchange(200, pet(7), { link: ',, /v1/pets; rel="successor-version",' }), actual: /Link/ },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'deprecation-sunset-not-early': {
    ctx: { removal: REMOVAL },
    pass: [
      { why: 'Sunset on 5 Dec 2030', ex: exchange(200, pet(7), { sunset: SUNSET }) },
      { why: 'Sunset in 2031', ex: exchange(200, pet(7), { sunset: 'Wed, 01 Jan 2031 00:00:00 GMT' }) },
      { why: 'Sunset at midnight of 5 December in CET', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 23:00:00 GMT' }) },
      { why: 'Sunset at the start of 5 December at UTC+14', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 10:00:00 GMT' }) },
    ],
    fail: [
      { why: 'Sunset on 1 Dec 2030', ex: exchange(200, pet(7), { sunset: 'Sun, 01 Dec 2030 00:00:00 GMT' }), actual: /01 Dec 2030/ },
      { why: 'Sunset before 5 December began anywhere (UTC+14)', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 09:59:59 GMT' }) },
    ],
    na: [
      { why: 'no Sunset', ex: exchange(200, pet(7)) },
      { why: 'a Sunset that is no HTTP-date', ex: exchange(200, pet(7), { sunset: '2030-12-01' }) },
    ],
  },
  'deprecation-signals': {
    ctx: {},
    observe: [
      { why: 'all three', ex: exchange(200, pet(7), DEPRECATION_HEADERS), value: 'deprecation, sunset, link' },
      { why: 'Sunset only', ex: exchange(200, pet(7), { sunset: SUNSET }), value: 'sunset' },
      { why: 'none', ex: exchange(200, pet(7)), value: 'none' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'deprecation-after-removal': {
    ctx: { removal: REMOVAL },
    observe: [
      { why: 'a 200 after removal', ex: exchange(200, pet(7)), now: AFTER_REMOVAL, value: 'still served' },
      { why: 'a 410 after removal', ex: exchange(410, errorBody(410)), now: AFTER_REMOVAL, value: 'answered 410' },
      { why: 'a 404 on the removal date', ex: exchange(404, errorBody(404)), now: REMOVAL, value: 'answered 404' },
      { why: 'a 410 once 5 December has begun at UTC+14', ex: exchange(410, errorBody(410)), now: REMOVAL_DAY_BEGINS, value: 'answered 410' },
    ],
    na: [
      { why: 'a 200 before removal', ex: exchange(200, pet(7)) },
      { why: 'a 410 a millisecond before 5 December begins anywhere', ex: exchange(410, errorBody(410)), now: JUST_BEFORE_IT },
      { why: 'a transport failure after removal', ex: failed(), now: AFTER_REMOVAL },
    ],
  },
  'orders-exists': {
    ctx: { unrouted: UNROUTED_404 },
    pass: [
      { why: 'a 200', ex: exchange(200, []) },
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 404 of its own (another code: "this account has no orders")', ex: exchange(404, errorBody(404, 'no_orders', 'this account has no orders')) },
      {
        why: 'a 404 of its own under the generic code the unrouted path gets too (its message the operation\'s own)',
        ctx: { unrouted: UNROUTED_404, again: UNROUTED_404 },
        ex: exchange(404, errorBody(404, 'not_found', 'this account has no orders')),
      },
      { why: 'a 404 where an unrouted path gets 400', ctx: { unrouted: exchange(400, errorBody(400)) }, ex: exchange(404, errorBody(404)) },
    ],
    fail: [
      { why: 'a 404 when no control came back', ctx: {}, ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'a 404 the unrouted path answers too, paths swapped', ex: exchange(404, errorBody(404, 'not_found', 'no such resource: /v1/store/orders')), actual: /as GET \/store\/no-such-operation answers \(404 / },
      {
        why: 'a 404 Error of the unrouted path\'s code, a request id apart (the unrouted answers differ in it too)',
        ctx: { unrouted: exchange(404, errorBody(404, 'not_found', 'no route (request 1111)')), again: exchange(404, errorBody(404, 'not_found', 'no route (request 2222)')) },
        ex: exchange(404, errorBody(404, 'not_found', 'no route (request 7f3a)')),
      },
      {
        why: 'a framework\'s 404 with its path and a timestamp, the stable fields alike once the paths are swapped',
        ctx: {
          unrouted: exchange(404, { timestamp: '2026-11-22T10:00:00.100Z', status: 404, error: 'Not Found', path: '/v1/store/no-such-operation' }),
          again: exchange(404, { timestamp: '2026-11-22T10:00:00.200Z', status: 404, error: 'Not Found', path: '/v1/store/no-such-operation' }),
        },
        ex: exchange(404, { timestamp: '2026-11-22T10:00:00.300Z', status: 404, error: 'Not Found', path: '/v1/store/orders' }),
      },
      { why: 'a 405', ex: exchange(405, errorBody(405)), actual: /^405/ },
      { why: 'a 405 even when unrouted paths get 405', ctx: { unrouted: exchange(405, errorBody(405)) }, ex: exchange(405, errorBody(405)) },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'orders-access': {
    ctx: { unrouted: UNROUTED_404 },
    observe: [
      { why: 'a 200', ex: exchange(200, []), value: 'answered 200' },
      { why: 'a 403 with an Error', ex: exchange(403, errorBody(403)), value: 'refused to the valid key (403)' },
      { why: 'a 404 of its own', ex: exchange(404, errorBody(404, 'no_orders', 'none')), value: 'a 404 of its own, unlike an unrouted path\'s (404 {"code":"no_orders","message":"none","status":404})' },
      {
        why: 'a 404 of its own under the unrouted path\'s generic code',
        ctx: { unrouted: UNROUTED_404, again: UNROUTED_404 },
        ex: exchange(404, errorBody(404, 'not_found', 'none')),
        value: 'a 404 of its own, unlike an unrouted path\'s (404 {"code":"not_found","message":"none","status":404})',
      },
    ],
    na: [
      { why: 'a 401 (auth.valid-key-accepted judges it)', ex: exchange(401, errorBody(401)) },
      { why: 'a 404 like the unrouted path\'s (orders.exists judges it)', ex: exchange(404, errorBody(404, 'not_found', 'no such resource: /v1/store/orders')) },
      { why: 'a 404 with no control (orders.exists judges it)', ctx: {}, ex: exchange(404, errorBody(404, 'no_orders', 'none')) },
      { why: 'a 500', ex: exchange(500, errorBody(500)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'messages-accepted': {
    ctx: {},
    pass: [
      { why: 'a 200 with a full body', ex: exchange(200, messageBody()) },
      { why: 'a 201 with a full body', ex: exchange(201, messageBody()) },
      { why: 'a 202 with a full body', ex: exchange(202, messageBody()) },
      { why: 'a malformed createdAt (judged by messages-created-at)', ex: exchange(202, messageBody({ createdAt: 'nope' })) },
      { why: 'a 400 refusing an empty text', ex: exchange(400, errorBody(400)), ctx: { refusable: EMPTY_TEXT } },
      { why: 'a 413 refusing a long text', ex: exchange(413, errorBody(413)), ctx: { refusable: LONG_NAME } },
    ],
    fail: [
      { why: 'a 200 {}', ex: exchange(200, {}), actual: /required property/ },
      { why: 'a 202 without id', ex: exchange(202, { message: 'hi', status: 'queued', createdAt: '2026-11-22T10:00:00Z' }) },
      { why: 'id as a number', ex: exchange(201, messageBody({ id: 17 })) },
      { why: 'an empty 204', ex: exchange(204) },
      { why: 'a 400', ex: exchange(400, errorBody(400)), actual: /^400/ },
      { why: 'a 413 refusing an empty text (not a size)', ex: exchange(413, errorBody(413)), ctx: { refusable: EMPTY_TEXT }, actual: /^413/ },
      { why: 'a 500 for an empty text', ex: exchange(500, errorBody(500)), ctx: { refusable: EMPTY_TEXT } },
    ],
  },
  'messages-text-constraints': {
    ctx: { refusable: EMPTY_TEXT },
    observe: [
      { why: 'a 202', ex: exchange(202, messageBody({ message: '' })), value: 'message empty: accepted (202)' },
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'message empty: refused (400)' },
    ],
    na: [
      { why: 'a 500', ex: exchange(500, errorBody(500)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'messages-text-normalized': {
    ctx: { text: 'A\u030A' },
    observe: [{ why: 'A U+030A back as U+00C5', ex: exchange(202, messageBody({ message: '\u00C5' })), value: 'message returned normalised to Unicode NFC (canonically equivalent to the one sent)' }],
    na: [
      { why: 'the text back as sent', ex: exchange(202, messageBody({ message: 'A\u030A' })) },
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
    ],
  },
  'messages-id-unique': {
    ctx: { text: 'hello', seen: new Map([['msg_1', 'earlier text']]) },
    pass: [
      { why: 'a new id', ex: exchange(202, messageBody({ id: 'msg_2' })) },
      { why: 'the id of the same text sent before (a repeat taken as the one before)', ctx: { text: 'earlier text', seen: new Map([['msg_1', 'earlier text']]) }, ex: exchange(202, messageBody({ id: 'msg_1' })) },
    ],
    fail: [{ why: 'the id of another text', ex: exchange(202, messageBody({ id: 'msg_1' })), actual: /^id "msg_1" again, first given to "earlier text"/ }],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'an id that is not a string (messages.accepted fails it)', ex: exchange(202, messageBody({ id: 7 })) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'messages-echo': {
    ctx: { text: '  padded  ' },
    pass: [
      { why: 'the text exactly', ex: exchange(202, messageBody({ message: '  padded  ' })) },
      { why: 'a lone surrogate back as U+FFFD', ctx: { text: '\uD800 x' }, ex: exchange(202, messageBody({ message: '\uFFFD x' })) },
      { why: 'U+2F800 back as U+4E3D (NFC)', ctx: { text: '\u{2F800}' }, ex: exchange(202, messageBody({ message: '\u4E3D' })) },
    ],
    fail: [
      { why: 'a pair of surrogates back as two U+FFFD', ctx: { text: '\uD83D\uDE00' }, ex: exchange(202, messageBody({ message: '\uFFFD\uFFFD' })) },
      { why: 'the text trimmed', ex: exchange(202, messageBody({ message: 'padded' })), actual: /"padded"/ },
      { why: 'U+00C5 back as A and U+030A (NFD)', ctx: { text: '\u00C5' }, ex: exchange(202, messageBody({ message: 'A\u030A' })) },
      { why: 'no message field', ex: exchange(202, { id: 'm', status: 'queued', createdAt: '2026-11-22T10:00:00Z' }), actual: /null/ },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a message that is no string (messages.accepted fails its schema)', ex: exchange(202, messageBody({ message: 42 })) },
    ],
  },
  'messages-status-queued': {
    ctx: {},
    pass: [{ why: 'status queued', ex: exchange(202, messageBody()) }],
    fail: [
      { why: 'status sent', ex: exchange(202, messageBody({ status: 'sent' })), actual: /"sent"/ },
      { why: 'status Queued', ex: exchange(202, messageBody({ status: 'Queued' })) },
      { why: 'no status field', ex: exchange(202, { id: 'm', message: 'x', createdAt: '2026-11-22T10:00:00Z' }), actual: /null/ },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a status that is no string (messages.accepted fails its schema)', ex: exchange(202, messageBody({ status: 1 })) },
    ],
  },
  'messages-created-at': {
    ctx: {},
    pass: [
      { why: '2026-11-22T10:00:00Z', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00Z' })) },
      { why: '2026-11-22T10:00:00.123Z', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00.123Z' })) },
      { why: '2026-11-22T10:00:00+00:00', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00+00:00' })) },
      { why: '20261122T100000Z (ISO 8601 basic format)', ex: exchange(202, messageBody({ createdAt: '20261122T100000Z' })) },
      { why: '20261122T100000,5Z (basic format, decimal comma)', ex: exchange(202, messageBody({ createdAt: '20261122T100000,5Z' })) },
      { why: '20261122T1000+0000 (basic format, minutes, zero offset)', ex: exchange(202, messageBody({ createdAt: '20261122T1000+0000' })) },
    ],
    fail: [
      { why: '2026-11-22T12:00:00+02:00 (not UTC)', ex: exchange(202, messageBody({ createdAt: '2026-11-22T12:00:00+02:00' })), actual: /\+02:00/ },
      { why: 'Sun Nov 22 2026', ex: exchange(202, messageBody({ createdAt: 'Sun Nov 22 2026' })) },
      { why: '2026-11-22 10:00:00Z (space, not T)', ex: exchange(202, messageBody({ createdAt: '2026-11-22 10:00:00Z' })) },
      { why: 'no offset at all', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00' })) },
      { why: 'epoch milliseconds', ex: exchange(202, messageBody({ createdAt: 1795341600000 })) },
      { why: 'month 13', ex: exchange(202, messageBody({ createdAt: '2026-13-22T10:00:00Z' })) },
      { why: '20261122t100000Z (lower-case t: RFC 3339, not ISO 8601)', ex: exchange(202, messageBody({ createdAt: '20261122t100000Z' })) },
      { why: '20261122T120000+0200 (basic format, not UTC)', ex: exchange(202, messageBody({ createdAt: '20261122T120000+0200' })), actual: /\+0200/ },
      { why: '2026-11-22T100000Z (extended date, basic time)', ex: exchange(202, messageBody({ createdAt: '2026-11-22T100000Z' })) },
      { why: '20261302T100000Z (basic format, month 13)', ex: exchange(202, messageBody({ createdAt: '20261302T100000Z' })) },
      { why: 'absent', ex: exchange(202, { id: 'm', message: 'hi', status: 'queued' }), actual: /null/ },
    ],
    na: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
  },
  'messages-created-at-recent': {
    ctx: { sentAt: NOW },
    pass: [
      { why: '4 minutes after sending', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:04:00Z' })) },
      { why: '1 minute before sending (clock skew)', ex: exchange(202, messageBody({ createdAt: '2026-11-22T09:59:00Z' })) },
      { why: '4 minutes after sending, in basic format', ex: exchange(202, messageBody({ createdAt: '20261122T100400Z' })) },
    ],
    fail: [
      { why: '6 minutes after sending', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:06:00Z' })), actual: /10:06:00Z/ },
      { why: 'a day earlier', ex: exchange(202, messageBody({ createdAt: '2026-11-21T10:00:00Z' })) },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a createdAt that is no date', ex: exchange(202, messageBody({ createdAt: 'nope' })) },
    ],
  },
  'messages-invalid-400': {
    ctx: { rule: 'malformed JSON (truncated)' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 415 (§4.5 says 400)', ex: exchange(415, errorBody(415)), actual: /^415/ },
      { why: 'a 202', ex: exchange(202, messageBody()) },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
    ],
  },
  'messages-non-string': {
    ctx: { rule: 'message of the wrong JSON type (integer)' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 202', ex: exchange(202, messageBody({ message: '7' })), actual: /^202/ },
      { why: 'a 500', ex: exchange(500) },
    ],
  },
  'messages-success-status': {
    ctx: {},
    observe: [
      { why: 'a 200', ex: exchange(200, messageBody()), value: '200' },
      { why: 'a 202', ex: exchange(202, messageBody()), value: '202' },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'rate-limit-seen': {
    ctx: {},
    observe: [
      { why: 'a 200', ex: exchange(200, pets(1)), value: 'no 429 reached the suite' },
      { why: 'a 429 with Retry-After', ex: exchange(429, errorBody(429), { 'retry-after': '5' }), value: '429 with Retry-After: 5' },
      { why: 'a 429 without Retry-After', ex: exchange(429, errorBody(429)), value: '429 without Retry-After' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
};

type Kind = 'pass' | 'fail' | 'na' | 'observe';
const KINDS: readonly Kind[] = ['pass', 'fail', 'na', 'observe'];

let env: JudgeEnv;
beforeAll(async () => {
  env = await makeEnv();
});

function judge(name: string, cases: Cases<unknown>, c: Case<unknown>): Verdict {
  const ctx = (c.ctx ?? cases.ctx) as Record<string, unknown>;
  return getCheck(name).judge(c.ex, { ...ctx, env: c.now ? { ...env, now: c.now } : env });
}

function expectVerdict(kind: Kind, c: Case<unknown>, verdict: Verdict): void {
  switch (kind) {
    case 'pass':
      expect(verdict).toEqual({ outcome: 'pass' });
      break;
    case 'na':
      expect(verdict).toEqual({ outcome: 'n/a' });
      break;
    case 'fail':
      expect(verdict.outcome).toBe('fail');
      if (verdict.outcome !== 'fail') return;
      expect(verdict.expected.trim()).not.toBe('');
      expect(verdict.actual.trim()).not.toBe('');
      if (c.actual) expect(verdict.actual).toMatch(c.actual);
      if (c.expected) expect(verdict.expected).toMatch(c.expected);
      break;
    case 'observe':
      expect(verdict.outcome).toBe('observe');
      if (verdict.outcome !== 'observe') return;
      expect(verdict.value).toBe(c.value);
      if (c.detail !== undefined) expect(verdict.detail).toBe(c.detail);
      break;
  }
}

const entries = Object.entries(TABLE) as [CheckName, Cases<unknown>][];
const levels = new Map(loadClauses().map((clause) => [clause.id, clause.level]));

describe('the canned-case table', () => {
  it('covers exactly the checks in CHECKS', () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.keys(CHECKS).sort());
  });

  it.each(entries.map(([name]) => name))('%s: its name matches its key and its clause is in clauses.yaml', (name) => {
    expect(CHECKS[name].name).toBe(name);
    expect(levels.has(CHECKS[name].clause)).toBe(true);
  });

  it.each(entries)('%s: has the cases its level calls for', (name, cases) => {
    const level = levels.get(CHECKS[name].clause);
    if (level === 'OBSERVE') {
      expect(cases.na?.length ?? 0, 'an exchange it does not bear on').toBeGreaterThan(0);
      expect(cases.observe?.length ?? 0, 'an exchange it records').toBeGreaterThan(0);
      expect(cases.pass ?? [], 'an observation never passes').toEqual([]);
      expect(cases.fail ?? [], 'an observation never fails').toEqual([]);
      for (const c of cases.observe ?? []) expect(c.value, `${c.why}: the value to record`).toBeTypeOf('string');
    } else {
      expect(level === 'MUST' || level === 'SHOULD').toBe(true);
      expect(cases.pass?.length ?? 0, 'an exchange it must pass').toBeGreaterThan(0);
      expect(cases.fail?.length ?? 0, 'an exchange it must fail').toBeGreaterThan(0);
      expect(cases.observe ?? []).toEqual([]);
    }
  });
});

const rows = entries.flatMap(([name, cases]) =>
  KINDS.flatMap((kind) => (cases[kind] ?? []).map((c) => ({ name, kind, why: c.why, cases, c }))),
);

describe('every check on canned exchanges', () => {
  it.each(rows)('$name $kind: $why', ({ name, kind, cases, c }) => {
    expectVerdict(kind, c, judge(name, cases, c));
  });
});

describe('every check on hostile exchanges', () => {
  const hostile: [string, () => Exchange][] = [
    ['a transport failure', () => failed('reset', 'socket hang up')],
    ['a truncated body', () => truncated(200, '[{"id":1')],
    ['invalid UTF-8', () => exchange(200, raw(Buffer.from([0x5b, 0xff, 0xfe, 0x5d])))],
    ['a body that is no JSON', () => exchange(201, raw('<html>oops</html>'), { 'content-type': 'text/html' })],
    ['JSON null', () => exchange(202, null)],
    ['a number beyond every double', () => exchange(400, raw('{"code":"x","message":"y","status":1e400}'))],
  ];
  it.each(entries)('%s: judges them without throwing, with a well-formed verdict', (name, cases) => {
    for (const [what, make] of hostile) {
      const verdict = judge(name, cases, { why: what, ex: make() });
      expect(['pass', 'fail', 'n/a', 'observe'], what).toContain(verdict.outcome);
    }
  });
});

describe('the common checks on a faithful exchange', () => {
  it('pass or stay n/a on a 200 listing and on a 404 Error', () => {
    for (const ex of [exchange(200, pets(3)), exchange(404, errorBody(404, 'not_found'))]) {
      for (const name of ['no-5xx', 'json-content-type', 'json-no-bom', 'json-unique-names', 'error-shape', 'error-status-field', 'auth-401-error-body', 'auth-www-authenticate'] as const) {
        expect(['pass', 'n/a'], name).toContain(getCheck(name).judge(ex, { env }).outcome);
      }
    }
  });
});

describe('regressions', () => {
  // Date.parse rolls 30 February over to 2 March; the check must not.
  it('messages-created-at fails createdAt 2026-02-30T10:00:00Z', () => {
    const ex = exchange(202, messageBody({ createdAt: '2026-02-30T10:00:00Z' }));
    expect(getCheck('messages-created-at').judge(ex, { env }).outcome).toBe('fail');
  });
});
