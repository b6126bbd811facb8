import { describeResponse, header, jsonObject, type Exchange } from '../http/exchange.ts';
import { jsonEqual } from '../json/lossless.ts';
import { isRedirect } from './common.ts';
import { errorBody, exchange, failed } from './exchanges.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS } from './types.ts';

// Values the cases below share.
const UNROUTED_404 = exchange(404, errorBody(404, 'not_found', 'no such resource: /v1/store/no-such-operation'));

/** The last path segment of the control request: a sibling of /store/orders no service routes. */
export const UNROUTED_SEGMENT = 'no-such-operation';

/**
 * The valid key's answer to GET /store/orders set against its answer to the unrouted sibling path,
 * asked twice: a 404 that reads like the unrouted one (the same body once the paths are swapped,
 * or a JSON object equal to it in every field the two unrouted answers agree on, so a request id
 * or a timestamp is no difference) means nothing routes the operation; a 404 of its own ("this
 * account has no orders", even under a generic "not_found" code) is the operation answering,
 * which §4.4 leaves open.
 */
export interface OrdersControl {
  unrouted?: Exchange;
  /** The same unrouted request again. */
  again?: Exchange;
}

function text(exchange: Exchange): string {
  return exchange.response?.body.toString('utf8') ?? '';
}

/** The control's value with its path segment as the orders request's, nested values included. */
function swapped(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll(UNROUTED_SEGMENT, 'orders');
  if (Array.isArray(value)) return value.map(swapped);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, swapped(inner)]));
  return value;
}

/** Whether the orders 404 is the unrouted path's 404: undefined where no usable control came back. */
export function readsAsUnrouted(orders: Exchange, { unrouted, again }: OrdersControl): boolean | undefined {
  if (!unrouted?.response) return undefined;
  if (unrouted.response.status !== orders.response?.status) return false;
  if (text(unrouted).replaceAll(UNROUTED_SEGMENT, 'orders') === text(orders)) return true;
  if (header(unrouted, 'content-type') !== header(orders, 'content-type')) return false;
  const [mine, control, control2] = [jsonObject(orders), jsonObject(unrouted), again && jsonObject(again)];
  if (!mine || !control) return false;
  const stable = (name: string) => !control2 || jsonEqual(control[name], control2[name]);
  const names = new Set([...Object.keys(mine), ...Object.keys(control)].filter(stable));
  // Bodies with nothing stable in common say nothing either way.
  if (names.size === 0) return false;
  return [...names].every((name) => jsonEqual(mine[name], swapped(control[name])));
}

export const ordersExists = defineCheck<OrdersControl>({
  description: 'GET /store/orders with the valid key is answered neither 405, 410 nor the 404 of a path nothing routes',
  judge(exchange, control) {
    const { unrouted } = control;
    const status = exchange.response?.status;
    // A redirect the suite does not follow (to another origin) says nothing of what answers here.
    if (status === undefined || isRedirect(status)) return NOT_APPLICABLE;
    // 405: no such method here; 410 Gone: "no longer available at the origin server" (RFC 9110 §15.5.11).
    if (status === 405 || status === 410) return fail(`a status other than ${status} (the operation exists)`, describeResponse(exchange));
    if (status !== 404) return PASS;
    const same = readsAsUnrouted(exchange, control);
    if (same === false) return PASS;
    const alike = same ? `, as GET /store/${UNROUTED_SEGMENT} answers (${describeResponse(unrouted!, 120)})` : '';
    return fail('a status other than 404, or a 404 of the operation\'s own (the operation exists)', `${describeResponse(exchange)}${alike}`);
  },
  cases: {
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
      { why: 'a 410 Gone', ex: exchange(410, errorBody(410)), expected: /other than 410/ },
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
    na: [
      { why: 'a transport failure', ex: failed() },
      { why: 'a 307 to another origin, not followed', ex: exchange(307, undefined, { location: 'https://elsewhere.example.test/v1/store/orders' }) },
    ],
  },
});

export const ordersAccess = defineCheck<OrdersControl>({
  description: 'Records what GET /store/orders answers the valid key: a 403 (the key\'s account denied the operation), or a 404 of its own, included',
  judge(exchange, control) {
    const status = exchange.response?.status;
    if (status === undefined || status === 401 || status === 405 || status >= 500) return NOT_APPLICABLE;
    if (status === 404) {
      if (readsAsUnrouted(exchange, control) !== false) return NOT_APPLICABLE;
      return { outcome: 'observe', value: `a 404 of its own, unlike an unrouted path's (${describeResponse(exchange, 120)})` };
    }
    return { outcome: 'observe', value: status === 403 ? 'refused to the valid key (403)' : `answered ${status}` };
  },
  cases: {
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
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const ORDERS_CHECKS = {
  'orders.exists': ordersExists,
  'orders.access': ordersAccess,
} as const;
