import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed } from '../helpers.ts';
import { cannedTests, type FamilyTable } from './canned.ts';

const UNROUTED_404 = exchange(404, errorBody(404, 'not_found', 'no such resource: /v1/store/no-such-operation'));

const TABLE: FamilyTable<typeof FAMILIES.orders> = {
  'orders.exists': {
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
  'orders.access': {
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
};

describe('the orders checks on canned exchanges', () => {
  cannedTests(FAMILIES.orders, TABLE);
});
