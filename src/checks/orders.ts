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
