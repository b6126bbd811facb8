import { describe } from 'vitest';
import { scenario } from '../src/suite/scenario.ts';

describe('§4.4 Store orders: GET /store/orders', () => {
  scenario('the operation exists: the valid key gets neither 404 nor 405, and never a 5xx', { checks: ['orders-exists', 'orders-access', 'no-5xx'] }, async (s) => {
    // Its payloads are not shown (§4.4): only existence and the rules of §5 and §7 are judged.
    s.check(await s.send('listStoreOrders'), { 'orders-exists': {}, 'orders-access': {} }, { common: true });
  });
});
