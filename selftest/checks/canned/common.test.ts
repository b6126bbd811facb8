import { describe, expect, it } from 'vitest';
import { COMMON_CHECKS, FAMILIES, getCheck } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed, pets, raw } from '../helpers.ts';
import { cannedTests, judgeEnv, type FamilyTable } from './canned.ts';

const TABLE: FamilyTable<typeof FAMILIES.common> = {
  'json.content-type': {
    ctx: {},
    pass: [
      { why: 'application/json; charset=utf-8', ex: exchange(200, pets(2), { 'content-type': 'application/json; charset=utf-8' }) },
      { why: 'Application/JSON (media types are case-insensitive)', ex: exchange(200, pets(1), { 'content-type': 'Application/JSON' }) },
      { why: 'plain application/json on an Error', ex: exchange(400, errorBody(400)) },
      { why: 'a listing starting with [', ex: exchange(200, pets(1)) },
      { why: 'an Error with white space before it', ex: exchange(404, raw(` ${JSON.stringify(errorBody(404))}`)) },
    ],
    fail: [
      { why: 'text/plain', ex: exchange(200, pets(1), { 'content-type': 'text/plain' }), actual: /text\/plain/ },
      { why: 'no Content-Type at all', ex: exchange(200, pets(1), { 'content-type': null }), actual: /absent/ },
      { why: 'text/html on a 404', ex: exchange(404, raw('<h1>Not Found</h1>'), { 'content-type': 'text/html' }) },
      { why: 'application/jsonp is another media type', ex: exchange(200, pets(1), { 'content-type': 'application/jsonp' }) },
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
      { why: 'an empty body', ex: exchange(204) },
      { why: 'a transport failure', ex: failed() },
      { why: 'a CSV with one from GET /store/orders, whose payload is not shown', ex: { ...exchange(200, raw('\uFEFFid,total'), { 'content-type': 'text/csv' }), operationId: 'listStoreOrders' } },
    ],
  },
  'json.unique-names': {
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
  'errors.shape': {
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
      { why: 'a 401 (judged by auth.error-body)', ex: exchange(401, { nothing: 'here' }) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'errors.status-field': {
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
      { why: 'an Error without status (errors.shape judges that)', ex: exchange(400, { code: 'x', message: 'y' }) },
      { why: 'a status that is not an integer', ex: exchange(400, { code: 'x', message: 'y', status: '400' }) },
      { why: 'a body that is not JSON', ex: exchange(400, raw('Bad Request'), { 'content-type': 'text/plain' }) },
    ],
  },
  'errors.no-5xx': {
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
};

describe('the common checks on canned exchanges', () => {
  cannedTests(FAMILIES.common, TABLE);
});

describe('the common checks on a faithful exchange', () => {
  it('pass or stay n/a on a 200 listing and on a 404 Error', () => {
    for (const ex of [exchange(200, pets(3)), exchange(404, errorBody(404, 'not_found'))]) {
      for (const name of COMMON_CHECKS.filter((n) => n !== 'limits.rate-limit')) {
        expect(['pass', 'n/a'], name).toContain(getCheck(name).judge(ex, { env: judgeEnv() }).outcome);
      }
    }
  });
});
