import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed, pets, raw } from '../helpers.ts';
import { cannedTests, type FamilyTable } from './canned.ts';

const TABLE: FamilyTable<typeof FAMILIES.auth> = {
  'auth.required': {
    ctx: { variant: 'absent' },
    pass: [
      { why: 'a 401', ex: exchange(401, errorBody(401, 'unauthorized'), { 'www-authenticate': 'Bearer' }) },
      { why: 'a 401 for a body that is not JSON either', ctx: { variant: 'absent', invalid: 'a body that is not JSON' }, ex: exchange(401, errorBody(401, 'unauthorized')) },
      { ctx: { alias: 'GET /v1/pets/' }, why: 'a 401', ex: exchange(401, errorBody(401, 'unauthorized')) },
      { ctx: { alias: 'GET /v1/pets/' }, why: 'a plain 404 (the alias is not served)', ex: exchange(404, raw('Not Found'), { 'content-type': 'text/plain' }) },
      { ctx: { alias: 'GET /v1/pets/' }, why: 'a 301 to /v1/pets', ex: exchange(301, undefined, { location: '/v1/pets' }) },
      { ctx: { alias: 'GET /v1/pets/' }, why: 'a 200 that is no listing (some other page)', ex: exchange(200, raw('<h1>Animal Store</h1>'), { 'content-type': 'text/html' }) },
      { why: 'a 401 to HEAD (no body)', ctx: { alias: 'HEAD /v1/pets' }, ex: exchange(401, undefined, {}, { method: 'HEAD' }) },
      { why: 'a 405 to HEAD', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(405, undefined, { allow: 'GET' }, { method: 'HEAD' }) },
      { why: 'a 404 to HEAD of an id', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(404, undefined, {}, { method: 'HEAD' }) },
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
      { ctx: { alias: 'GET /v1/pets/' }, why: 'the listing without credentials', ex: exchange(200, pets(2)), actual: /^200/ },
      { ctx: { alias: 'GET /v1/pets/' }, why: 'an empty listing without credentials', ex: exchange(200, []) },
      { ctx: { alias: 'GET /v1/pets/' }, why: 'a listing whose items are no valid Pet', ex: exchange(200, [{ id: '1', name: 7 }]) },
      { why: 'the listing at /v1/PETS', ctx: { alias: 'GET /v1/PETS' }, ex: exchange(200, pets(1), {}, { url: 'https://api.example.test/v1/PETS' }), expected: /GET \/v1\/PETS/ },
      { why: 'a 200 to HEAD, which has no body to tell', ctx: { alias: 'HEAD /v1/pets' }, ex: exchange(200, undefined, { 'content-type': 'application/json', 'content-length': '120' }, { method: 'HEAD' }), expected: /no 2xx for HEAD \/v1\/pets/, actual: /^200/ },
      { why: 'a 204 to HEAD of an id', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(204, undefined, {}, { method: 'HEAD' }) },
    ],
    na: [
      { ctx: { alias: 'GET /v1/pets/' }, why: 'a transport failure', ex: failed() },
    ],
  },
  'auth.error-body': {
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
  'auth.valid-key-accepted': {
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
  'auth.scheme-variants': {
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
  'auth.www-authenticate': {
    ctx: {},
    pass: [{ why: 'a 401 with a Bearer challenge', ex: exchange(401, errorBody(401), { 'www-authenticate': 'Bearer realm="animal-store"' }) }],
    fail: [
      { why: 'a 401 without the header', ex: exchange(401, errorBody(401)), actual: /no WWW-Authenticate/ },
      { why: 'a 401 with a blank header', ex: exchange(401, errorBody(401), { 'www-authenticate': '   ' }) },
    ],
    na: [{ why: 'a 200', ex: exchange(200, pets(1)) }],
  },
};

describe('the auth checks on canned exchanges', () => {
  cannedTests(FAMILIES.auth, TABLE);
});
