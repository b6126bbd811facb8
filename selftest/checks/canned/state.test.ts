import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import type { Exchange } from '../../../src/http/exchange.ts';
import { errorBody, exchange, pet, raw } from '../helpers.ts';
import { cannedTests, type FamilyTable } from './canned.ts';

const on = (operationId: string, ex: Exchange): Exchange => ({ ...ex, operationId });
const CREATED = { id: '9223372036854775807', name: 'Rex', categoryId: '4' };
const taken = new Map([['12', 'was listed in step 2 as "Bella" (categoryId 2)']]);

const TABLE: FamilyTable<typeof FAMILIES.state> = {
  'state.id-keeps-naming': {
    ctx: { created: CREATED },
    pass: [
      { why: 'the animal under its id, int64 exact', ex: on('getPet', exchange(200, raw('{"id":9223372036854775807,"name":"Rex","categoryId":4,"status":"available"}'))) },
      { why: 'another status (§3: transitions not shown)', ex: on('getPet', exchange(200, raw('{"id":9223372036854775807,"name":"Rex","categoryId":4,"status":"sold"}'))) },
      { why: 'the name in NFC where it was created decomposed', ctx: { created: { ...CREATED, name: 'Cafe\u0301' } }, ex: on('getPet', exchange(200, raw('{"id":9223372036854775807,"name":"Caf\u00e9","categoryId":4}'))) },
    ],
    fail: [
      { why: 'a 404 after the read-lag window', ex: on('getPet', exchange(404, errorBody(404, 'not_found'))), actual: /^404/ },
      { why: 'the id rounded to a double', ex: on('getPet', exchange(200, raw('{"id":9223372036854775808,"name":"Rex","categoryId":4}'))) },
      { why: 'another animal under the id', ex: on('getPet', exchange(200, raw('{"id":9223372036854775807,"name":"Bella","categoryId":2}'))), expected: /name "Rex"/ },
      { why: 'the categoryId changed', ex: on('getPet', exchange(200, raw('{"id":9223372036854775807,"name":"Rex","categoryId":5}'))) },
    ],
    na: [
      { why: 'a 401 (auth.valid-key-accepted judges it)', ex: on('getPet', exchange(401, errorBody(401))) },
      { why: 'a 500 (errors.no-5xx judges it)', ex: on('getPet', exchange(500, errorBody(500))) },
      { why: 'a listing', ex: on('listPets', exchange(200, [pet(1)])) },
    ],
  },
  'state.id-fresh': {
    ctx: { taken },
    pass: [{ why: 'an id not seen before', ex: on('createPet', exchange(201, pet(13))) }],
    fail: [{ why: 'the id of an animal a listing showed before', ex: on('createPet', exchange(201, pet(12))), actual: /id 12, which was listed in step 2/ }],
    na: [
      { why: 'a refusal', ex: on('createPet', exchange(400, errorBody(400))) },
      { why: 'a GET that shows the animal', ex: on('getPet', exchange(200, pet(12))) },
    ],
  },
};

describe('the state checks on canned exchanges', () => {
  cannedTests(FAMILIES.state, TABLE);
});
