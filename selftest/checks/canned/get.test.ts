import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed, pet, raw } from '../helpers.ts';
import { cannedTests, type FamilyTable } from './canned.ts';

const INT64_MAX = 9223372036854775807n;

const TABLE: FamilyTable<typeof FAMILIES.get> = {
  'get.200-pet': {
    ctx: { expected: pet(INT64_MAX) },
    pass: [
      { why: 'a 200 with the animal, int64 id exact', ex: exchange(200, raw('{"id":9223372036854775807,"name":"pet 9223372036854775807","categoryId":1,"status":"available"}')) },
      { why: 'extra fields the listing did not carry', ex: exchange(200, { ...pet(INT64_MAX), category: { id: 1, name: 'dogs' } }) },
      { why: 'a status the listing did not show', ctx: { expected: { id: 3, name: 'x', categoryId: 1 } }, ex: exchange(200, { id: 3, name: 'x', categoryId: 1, status: 'sold' }) },
      { why: 'the listing gave categoryId as the string "4" (list.200-pets fails it), the GET as 4', ctx: { expected: pet(10, { categoryId: '4' }) }, ex: exchange(200, pet(10, { categoryId: 4 })) },
      { why: 'the listing gave categoryId 2^70, beyond int64 (list.200-pets fails it)', ctx: { expected: pet(10, { categoryId: 2n ** 70n }) }, ex: exchange(200, pet(10, { categoryId: 4 })) },
    ],
    fail: [
      { why: 'a 404', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'the id rounded', ex: exchange(200, raw('{"id":9223372036854775806,"name":"pet 9223372036854775807","categoryId":1,"status":"available"}')) },
      { why: 'a body that is not a Pet', ex: exchange(200, { id: 1 }) },
      { why: 'another status', ex: exchange(200, pet(INT64_MAX, { status: 'sold' })) },
      { why: 'no name', ex: exchange(200, { id: 1, categoryId: 1 }) },
      { why: 'the listing gave categoryId as a string, and the GET another name', ctx: { expected: pet(10, { categoryId: '4' }) }, ex: exchange(200, pet(10, { categoryId: 4, name: 'Rex' })) },
      { why: 'categoryId as a string in the GET itself (its own Pet is judged)', ctx: { expected: pet(10, { categoryId: 4 }) }, ex: exchange(200, pet(10, { categoryId: '4' })), actual: /categoryId must be integer/ },
      { why: 'the status the listing showed left out', ex: exchange(200, { id: INT64_MAX, name: `pet ${INT64_MAX}`, categoryId: 1 }) },
      { why: 'the status left out, on an animal another client may have moved', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, { id: 7, name: 'pet 7', categoryId: 1 }) },
      { why: 'another status and another name, on an animal another client may have moved', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'sold', name: 'Rex' })) },
      { why: 'a status outside PetStatus, on an animal another client may have moved', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'lost' })) },
    ],
    na: [
      { why: 'another status on a listed animal (§3 leaves transitions open; another client may have sold it)', ctx: { expected: pet(7), statusMayChange: true }, ex: exchange(200, pet(7, { status: 'sold' })) },
    ],
  },
  'get.read-lag': {
    ctx: { misses: 0, lagMs: 0 },
    observe: [
      { why: 'found by the first GET', ex: exchange(200, pet(7)), value: 'found by the first GET' },
      { why: 'found after two 404s, 63 ms on', ex: exchange(200, pet(7)), ctx: { misses: 2, lagMs: 63 }, value: '404 at first, found within 100 ms' },
      { why: 'found after 1.2 s', ex: exchange(200, pet(7)), ctx: { misses: 6, lagMs: 1200 }, value: '404 at first, found within 2000 ms' },
      { why: 'found by a GET held back 900 ms', ex: exchange(200, pet(7)), ctx: { misses: 0, lagMs: 903, heldMs: 903 }, value: 'found within 1000 ms, its first GET held back by the lag earlier reads met' },
    ],
    na: [
      { why: 'never found (get.200-pet fails it)', ex: exchange(404, errorBody(404, 'not_found')), ctx: { misses: 6, lagMs: 1000 } },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'get.unknown-404': {
    ctx: { id: '9223372036854775806' },
    pass: [{ why: 'a 404', ex: exchange(404, errorBody(404, 'not_found')) }],
    fail: [
      { why: 'a 200', ex: exchange(200, pet(1)), actual: /^200/ },
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 410', ex: exchange(410, errorBody(410)) },
    ],
  },
  'get.malformed-id': {
    ctx: { id: 'abc' },
    pass: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 404', ex: exchange(404, errorBody(404)) },
    ],
    fail: [
      { why: 'a 500', ex: exchange(500, errorBody(500)), actual: /^500/ },
      { why: 'a 200', ex: exchange(200, pet(1)) },
      { why: 'a 401 with the valid key', ex: exchange(401, errorBody(401)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
};

describe('the get checks on canned exchanges', () => {
  cannedTests(FAMILIES.get, TABLE);
});
