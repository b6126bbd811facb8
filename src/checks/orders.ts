import { describeResponse } from '../http/exchange.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS } from './types.ts';

export const ordersExists = defineCheck({
  name: 'orders-exists',
  clause: 'orders.exists',
  description: 'GET /store/orders with the valid key is answered with neither 404 nor 405',
  judge(exchange) {
    const status = exchange.response?.status;
    if (status === undefined) return NOT_APPLICABLE;
    return status === 404 || status === 405 ? fail('a status other than 404 and 405 (the operation exists)', describeResponse(exchange)) : PASS;
  },
});

export const ordersAccess = defineCheck({
  name: 'orders-access',
  clause: 'orders.access',
  description: 'Records what GET /store/orders answers the valid key, a 403 (the key\'s account denied the operation) included',
  judge(exchange) {
    const status = exchange.response?.status;
    if (status === undefined || status === 401 || status === 404 || status === 405 || status >= 500) return NOT_APPLICABLE;
    return { outcome: 'observe', value: status === 403 ? 'refused to the valid key (403)' : `answered ${status}` };
  },
});
