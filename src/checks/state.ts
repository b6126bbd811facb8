import { describeResponse, jsonObject } from '../http/exchange.ts';
import { stringifyJson } from '../json/lossless.ts';
import { carriesId, createdPet } from './create.ts';
import { errorBody, exchange, pet, raw } from './exchanges.ts';
import { echoes } from './text.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS } from './types.ts';
import type { Exchange } from '../http/exchange.ts';

// Values the cases below share.
const on = (operationId: string, ex: Exchange): Exchange => ({ ...ex, operationId });
const CREATED = { id: '9223372036854775807', name: 'Rex', categoryId: '4' };

/** The animal as its 201 showed it: what its id must keep naming. */
export interface CreatedAnimal {
  id: string;
  name: string;
  categoryId: string;
}

/**
 * A GET /pets/{petId}, later in a sequence of calls, of an animal the suite created: found, under
 * its id, with the name and categoryId its 201 showed. Its status may have moved (§3: "Transitions:
 * not shown"); any answer but 200 and 404 is another clause's to judge. The caller gives the answer
 * after the read-lag window (src/suite/read-lag.ts), so a 404 is no longer a replica trailing.
 */
export const stateIdKeepsNaming = defineCheck<{ created: CreatedAnimal }>({
  description: 'An animal the suite created is found by its id, with its name and categoryId, whatever calls came after',
  judge(exchange, { created }) {
    const status = exchange.response?.status;
    if (exchange.operationId !== 'getPet' || (status !== 200 && status !== 404)) return NOT_APPLICABLE;
    const expected = `200 with the animal created as id ${created.id} (name ${stringifyJson(created.name)}, categoryId ${created.categoryId})`;
    if (status === 404) return fail(expected, describeResponse(exchange));
    const pet = jsonObject(exchange);
    if (pet && String(pet.id) === created.id && echoes(pet.name, created.name) && String(pet.categoryId) === created.categoryId) return PASS;
    return fail(expected, describeResponse(exchange));
  },
  cases: {
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
});

/**
 * A 201 of POST /pets: its id is none the suite saw naming another animal before it sent the request
 * (in a listing, or by id): in a sequence of calls, what its model saw (`taken`); anywhere else, what
 * any answer of the run showed (env.shownIds). No operation removes an animal, so such an id was
 * taken: a service that hands it out again has two animals under it, overwrote one, or showed one
 * that was not there (a placeholder for an unknown id).
 */
export const stateIdFresh = defineCheck<{ taken?: ReadonlyMap<string, string> }>({
  description: 'A created animal gets an id the suite has not seen another animal hold',
  judge(exchange, { taken, env }) {
    if (exchange.operationId !== 'createPet' || carriesId(exchange)) return NOT_APPLICABLE;
    const created = createdPet(exchange);
    const id = created?.id;
    if (typeof id !== 'number' && typeof id !== 'bigint') return NOT_APPLICABLE;
    if (taken === undefined && !env.shownIds) return NOT_APPLICABLE;
    const holder = taken ? taken.get(String(id)) : env.shownIds!.heldBefore(exchange, String(id), created!);
    if (holder === undefined) return PASS;
    return fail(`an id no animal seen so far holds`, `id ${String(id)}, which ${holder}`);
  },
  cases: {
    ctx: { taken: new Map([['12', 'was listed at step 2 as "Bella" (categoryId 2)']]) },
    pass: [{ why: 'an id not seen before', ex: on('createPet', exchange(201, pet(13))) }],
    fail: [{ why: 'the id of an animal a listing showed before', ex: on('createPet', exchange(201, pet(12))), actual: /id 12, which was listed at step 2/ }],
    na: [
      { why: 'a refusal', ex: on('createPet', exchange(400, errorBody(400))) },
      { why: 'a GET that shows the animal', ex: on('getPet', exchange(200, pet(12))) },
    ],
  },
});

export const STATE_CHECKS = {
  'state.id-keeps-naming': stateIdKeepsNaming,
  'state.id-fresh': stateIdFresh,
};
