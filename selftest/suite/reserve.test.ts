// Scenario.send marks a scenario's first requests `reserve` (OutgoingRequest.reserve), and after them
// those on an operation the scenario has no answer on yet that was not waited out; a canned client
// records the marks, no network.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.ts';
import type { Contract } from '../../src/contract/model.ts';
import type { OutgoingRequest } from '../../src/http/client.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { Recorder } from '../../src/suite/recorder.ts';
import { RESERVE_FIRST_REQUESTS, Scenario } from '../../src/suite/scenario.ts';
import type { WorkerContext } from '../../src/suite/worker.ts';
import { errorBody, exchange, failed } from '../checks/helpers.ts';

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract();
});

/** A scenario over a client that answers with `answers` in turn and records each request's reserve mark. */
function scenarioAnswering(answers: Exchange[]): { s: Scenario; marks: boolean[] } {
  const marks: boolean[] = [];
  const client = {
    send: async (request: OutgoingRequest) => {
      marks.push(request.reserve === true);
      return answers.shift() ?? exchange(200, []);
    },
  };
  const ctx = { contract, client, config: { baseUrl: 'http://127.0.0.1:1', messagesBaseUrl: 'http://127.0.0.1:2', apiKey: 'k', skip: [] } } as unknown as WorkerContext;
  return { s: new Scenario(ctx, 'reserve', new Recorder()), marks };
}

describe('Scenario.send: the reserve mark', () => {
  const handedBack = () => exchange(429, errorBody(429, 'rate_limited'), { 'retry-after': '1' });

  it("is on for a scenario's first requests, answered or not", async () => {
    const { s, marks } = scenarioAnswering([]);
    for (let i = 0; i < RESERVE_FIRST_REQUESTS + 2; i++) await s.send('listPets');
    expect(marks).toEqual([...Array<boolean>(RESERVE_FIRST_REQUESTS).fill(true), false, false]);
  });

  it('after them, stays on an operation until an answer not waited out, and is per operation', async () => {
    const answers = [...Array.from({ length: RESERVE_FIRST_REQUESTS }, () => exchange(200, [])), failed(), handedBack(), exchange(200, []), exchange(200, [])];
    const { s, marks } = scenarioAnswering(answers);
    for (let i = 0; i < RESERVE_FIRST_REQUESTS; i++) await s.send('getPet', { path: { petId: '1' } });
    for (let i = 0; i < 4; i++) await s.send('listPets');
    await s.send('listStoreOrders');
    // No answer, then a 429 handed back: still reserve; after the 200, not on listPets; listStoreOrders its own.
    expect(marks.slice(RESERVE_FIRST_REQUESTS)).toEqual([true, true, true, false, true]);
  });

  it('counts per operation the answers handed back rate limited, and nothing else', async () => {
    const answers = [exchange(429, errorBody(429, 'rate_limited'), { 'retry-after': '1' }), exchange(200, []), failed(), exchange(503, errorBody(503, 'busy'), { 'retry-after': '2' }), exchange(503, errorBody(503, 'busy'))];
    const { s } = scenarioAnswering(answers);
    for (let i = 0; i < 3; i++) await s.send('listPets');
    for (let i = 0; i < 2; i++) await s.send('getPet', { path: { petId: '1' } });
    expect(s.rateLimitedOn).toEqual({ listPets: 1, getPet: 1 });
  });

  it('a 503 with Retry-After keeps it, one without does not', async () => {
    const answers = [...Array.from({ length: RESERVE_FIRST_REQUESTS }, () => exchange(200, [])), exchange(503, errorBody(503, 'busy'), { 'retry-after': '1' }), exchange(503, errorBody(503, 'busy')), exchange(200, [])];
    const { s, marks } = scenarioAnswering(answers);
    for (let i = 0; i < RESERVE_FIRST_REQUESTS; i++) await s.send('getPet', { path: { petId: '1' } });
    for (let i = 0; i < 3; i++) await s.send('listPets');
    expect(marks.slice(RESERVE_FIRST_REQUESTS)).toEqual([true, true, false]);
  });
});
