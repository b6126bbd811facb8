// GET /v1/store/orders: exists; its payload is not specified, so it answers an empty array.

import { authenticate } from '../auth.ts';
import type { Handler } from '../context.ts';
import { sendError, sendJson } from '../http.ts';

export const storeOrders: Handler = async (req, res, ctx) => {
  if (!authenticate(req, res, ctx, 'store-orders')) return;
  if (ctx.dev.has('fault-orders-missing')) {
    sendError(res, ctx, 404, 'not_found', 'no such resource: /v1/store/orders');
    return;
  }
  if (ctx.dev.has('fault-orders-missing-request-id')) {
    sendError(res, ctx, 404, 'not_found', `no such resource: /v1/store/orders (request ${++ctx.requestIds})`);
    return;
  }
  if (ctx.dev.has('allowed-orders-404-generic-code')) {
    sendError(res, ctx, 404, 'not_found', 'this account has no orders');
    return;
  }
  if (ctx.dev.has('allowed-orders-404-no-orders')) {
    sendError(res, ctx, 404, 'no_orders', 'this account has no orders');
    return;
  }
  if (ctx.dev.has('allowed-orders-forbidden')) {
    sendError(res, ctx, 403, 'forbidden', 'this account has no access to the Store area');
    return;
  }
  if (ctx.dev.has('allowed-orders-csv')) {
    res.writeHead(200, { 'Content-Type': 'text/csv' }).end('id,status\n');
    return;
  }
  sendJson(res, ctx, 200, []);
};
