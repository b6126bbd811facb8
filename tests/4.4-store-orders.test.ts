import { describe } from 'vitest';
import { UNROUTED_SEGMENT, type OrdersControl } from '../src/checks/orders.ts';
import { scenario } from '../src/suite/scenario.ts';

describe('§4.4 Store orders: GET /store/orders', () => {
  scenario('the operation exists: the valid key gets neither 405 nor an unrouted path\'s 404, and never a 5xx', { checks: ['orders.exists', 'orders.access', 'errors.no-5xx'], operations: ['listStoreOrders'] }, async (s) => {
    // Its payloads are not shown (§4.4): only existence and the rules of §5 and §7 are judged.
    const orders = await s.send('listStoreOrders');
    // A 404 is set against the answers to a sibling path nothing routes, sent twice (what differs
    // between them is volatile) and only when needed.
    const control: OrdersControl = {};
    if (orders.response?.status === 404) {
      const sendUnrouted = () => s.send('listStoreOrders', { url: s.url('listStoreOrders').replace(/orders$/, UNROUTED_SEGMENT) });
      control.unrouted = await sendUnrouted();
      control.again = await sendUnrouted();
    }
    s.verify(orders, { 'orders.exists': control, 'orders.access': control }, { common: true });
  });
});
