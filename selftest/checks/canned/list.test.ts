import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed, pet, pets, raw, truncated } from '../helpers.ts';
import { cannedTests, type FamilyTable } from './canned.ts';

const INT64_MAX = 9223372036854775807n;

const TABLE: FamilyTable<typeof FAMILIES.list> = {
  'list.200-pets': {
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
  'list.limit-respected': {
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
  'list.limit-default': {
    ctx: {},
    pass: [{ why: '20 animals without limit', ex: exchange(200, pets(20)) }],
    fail: [{ why: '21 animals without limit', ex: exchange(200, pets(21)), actual: /21 animals/ }],
    na: [{ why: 'a 401', ex: exchange(401, errorBody(401)) }],
  },
  'list.limit-max': {
    ctx: { query: '?limit=1000' },
    pass: [{ why: '100 animals', ex: exchange(200, pets(100)) }],
    fail: [
      { why: '101 animals', ex: exchange(200, pets(101)), actual: /101 animals/, expected: /^at most 100 animals \(\?limit=1000, maximum 100\)$/ },
      { why: '101 animals for a query of two parameters', ctx: { query: '?limit=0&status=sold' }, ex: exchange(200, pets(101)), expected: /^at most 100 animals \(\?limit=0&status=sold, maximum 100\)$/ },
    ],
    na: [{ why: 'a 400 for limit=1000', ex: exchange(400, errorBody(400)) }],
  },
  'list.limit-bounds-accepted': {
    ctx: { limit: 100 },
    pass: [{ why: 'a 200 for limit=100', ex: exchange(200, pets(3)) }],
    fail: [
      { why: 'a 400 for limit=100', ex: exchange(400, errorBody(400)), actual: /^400/ },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
    ],
  },
  'list.full-page': {
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
  'list.status-filter': {
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
  'list.invalid-query': {
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
  'list.invalid-query-handling': {
    ctx: { query: 'limit=0' },
    observe: [
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'rejected with 400', detail: 'limit=0' },
      { why: 'a 200', ex: exchange(200, pets(1)), value: 'tolerated with 200', detail: 'limit=0' },
      { why: 'a 422', ex: exchange(422, errorBody(422)), value: 'rejected with 422' },
      { why: 'a 302', ex: exchange(302), value: 'answered 302' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
};

describe('the list checks on canned exchanges', () => {
  cannedTests(FAMILIES.list, TABLE);
});
