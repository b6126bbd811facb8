// GET /v1/store/orders: exists; its payload is not specified, so it answers an empty array.

import { authenticate } from '../auth.ts';
import type { Handler } from '../context.ts';
import { allowed, fault, switches, type Deviation } from '../deviation.ts';
import { sendError, sendJson, sendRaw } from '../http.ts';

/** The deviations switched in this module (reference/deviations.ts gathers them into the catalogue). */
export const STORE_ORDERS_DEVIATIONS = [
  fault('fault-orders-missing', 'orders.exists', 'GET /v1/store/orders answers 404 (after authentication).'),
  fault('fault-orders-missing-request-id', 'orders.exists', 'GET /v1/store/orders is not routed, and every 404 of the router names a request id of its own in its message ("no such resource: /v1/store/orders (request 7)"), so no two 404 bodies are byte for byte alike.'),
  fault('fault-orders-gone', 'orders.exists', 'GET /v1/store/orders answers 410 Gone (Error body, code "gone"), after authentication, as an operation retired from a deployment would.'),
  fault('fault-orders-503', 'errors.no-5xx', 'GET /v1/store/orders answers 503 with an HTML page and no Retry-After every time (its backend is down), after authentication, while every other operation answers: sent again under a lower cap, it still does.'),
  fault('fault-orders-503-retry-after-0', 'errors.no-5xx', 'GET /v1/store/orders answers 503 (Error body) with Retry-After: 0 every time, after authentication: its backend is down and says to come back at once, waited out or rested for (helper-38a).'),
  allowed('allowed-orders-404-no-orders', 'GET /v1/store/orders answers the valid key 404 with an Error of its own (code "no_orders", "this account has no orders"), as an API whose collection does not exist for an account would; unrouted paths still get the router\'s not_found (its responses are not shown, §4.4).'),
  allowed('allowed-orders-404-generic-code', 'GET /v1/store/orders answers the valid key 404 with an Error under the router\'s generic code (code "not_found", "this account has no orders"), as an API with one code for every 404 would (its responses are not shown, §4.4; the codes are not shown, §7).'),
  allowed('allowed-orders-csv', 'GET /v1/store/orders answers 200 with a text/csv body (its payload is not shown, §4.4).'),
  allowed('allowed-orders-forbidden', 'GET /v1/store/orders answers the valid key 403 (Error body, code "forbidden"), as a Store area needing an entitlement the key\'s account lacks would (its responses are not shown, §4.4).'),
] as const satisfies readonly Deviation[];

const on = switches(STORE_ORDERS_DEVIATIONS);

export const storeOrders: Handler = async (req, res, ctx) => {
  if (!authenticate(req, res, ctx, 'store-orders')) return;
  if (on(ctx, 'fault-orders-missing')) {
    sendError(res, ctx, 404, 'not_found', 'no such resource: /v1/store/orders');
    return;
  }
  if (on(ctx, 'fault-orders-gone')) {
    sendError(res, ctx, 410, 'gone', 'the Store area was retired');
    return;
  }
  if (on(ctx, 'fault-orders-503-retry-after-0')) {
    sendError(res, ctx, 503, 'unavailable', 'the orders backend is down', { 'Retry-After': '0' });
    return;
  }
  if (on(ctx, 'fault-orders-503')) {
    sendRaw(res, 503, 'text/html', '<html><body><h1>503 Service Unavailable</h1><p>orders backend down</p></body></html>');
    return;
  }
  if (on(ctx, 'fault-orders-missing-request-id')) {
    sendError(res, ctx, 404, 'not_found', `no such resource: /v1/store/orders (request ${++ctx.requestIds})`);
    return;
  }
  if (on(ctx, 'allowed-orders-404-generic-code')) {
    sendError(res, ctx, 404, 'not_found', 'this account has no orders');
    return;
  }
  if (on(ctx, 'allowed-orders-404-no-orders')) {
    sendError(res, ctx, 404, 'no_orders', 'this account has no orders');
    return;
  }
  if (on(ctx, 'allowed-orders-forbidden')) {
    sendError(res, ctx, 403, 'forbidden', 'this account has no access to the Store area');
    return;
  }
  if (on(ctx, 'allowed-orders-csv')) {
    res.writeHead(200, { 'Content-Type': 'text/csv' }).end('id,status\n');
    return;
  }
  sendJson(res, ctx, 200, []);
};
