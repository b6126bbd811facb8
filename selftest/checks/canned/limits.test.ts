import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed, pets } from '../helpers.ts';
import { cannedTests, type FamilyTable } from './canned.ts';

const TABLE: FamilyTable<typeof FAMILIES.limits> = {
  'limits.rate-limit': {
    ctx: {},
    observe: [
      { why: 'a 200', ex: exchange(200, pets(1)), value: 'no 429 reached the suite' },
      { why: 'a 429 with Retry-After', ex: exchange(429, errorBody(429), { 'retry-after': '5' }), value: '429 with Retry-After: 5' },
      { why: 'a 429 without Retry-After', ex: exchange(429, errorBody(429)), value: '429 without Retry-After' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
};

describe('the limits checks on canned exchanges', () => {
  cannedTests(FAMILIES.limits, TABLE);
});
