// A 2xx to any request owes its operation's success body, judged under that operation's success
// clause: the probes that only observe what the spec leaves open included.

import { describe, expect, it } from 'vitest';
import { exchange, messageBody, pet, pets } from '../../src/checks/exchanges.ts';
import { loadClauses } from '../../src/contract/clauses.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { judge, type Judgements } from '../../src/suite/judge.ts';
import type { WorkerContext } from '../../src/suite/worker.ts';
import { judgeEnv } from '../checks/canned/canned.ts';

function context(only: string[] = []): WorkerContext {
  const clauses = new Map(loadClauses().map((clause) => [clause.id, clause]));
  return { clauses, gates: new Map(), config: { only, skip: [], maxBodyBytes: 4_194_304 }, env: judgeEnv(), envOnly: { env: judgeEnv() } } as unknown as WorkerContext;
}

const BASE = 'http://127.0.0.1:1';
const to = (operationId: string, ex: Exchange, method: string, path: string): Exchange => ({ ...ex, request: { method, url: `${BASE}${path}`, headers: {} }, operationId });
const named = (ex: Exchange, judgements: Judgements = {}, ctx = context()) =>
  judge(ctx, ex, judgements)
    .verdicts.filter((v) => ['list.200-pets', 'create.201-pet', 'get.200-pet', 'messages.accepted'].includes(v.name))
    .map((v) => [v.name, v.verdict.outcome]);

describe('a success answer to a request its success clause did not judge', () => {
  it('fails that clause where the body is not the schema the operation names', () => {
    expect(named(to('listPets', exchange(200, { pets: [] }), 'GET', '/v1/pets?limit=0'))).toEqual([['list.200-pets', 'fail']]);
    expect(named(to('createPet', exchange(201, {}), 'POST', '/v1/pets'))).toEqual([['create.201-pet', 'fail']]);
    expect(named(to('createPet', exchange(201, pet(7, { id: '7' })), 'POST', '/v1/pets'))).toEqual([['create.201-pet', 'fail']]);
    expect(named(to('getPet', exchange(200, { id: 1 }), 'GET', '/v1/pets/-1'))).toEqual([['get.200-pet', 'fail']]);
    expect(named(to('sendMessage', exchange(202, {}), 'POST', '/messages'))).toEqual([['messages.accepted', 'fail']]);
    expect(named(to('sendMessage', exchange(202, messageBody({ message: 7 })), 'POST', '/messages'))).toEqual([['messages.accepted', 'fail']]);
  });

  it('records nothing where the body is that schema: the shape alone is no pass of the clause (that Pet, the status asked for), so it counts for none of its coverage', () => {
    expect(named(to('listPets', exchange(200, pets(2)), 'GET', '/v1/pets?limit=0'))).toEqual([]);
    expect(named(to('createPet', exchange(201, pet(7)), 'POST', '/v1/pets'))).toEqual([]);
    expect(named(to('getPet', exchange(200, pet(5)), 'GET', '/v1/pets/5'))).toEqual([]);
    // The createdAt format is messages.created-at's to judge.
    expect(named(to('sendMessage', exchange(202, messageBody({ createdAt: 'today' })), 'POST', '/messages'))).toEqual([]);
  });

  it('leaves alone a refusal, a HEAD, a petId that is no int64 (another route may answer it) and an operation whose payload is not shown', () => {
    expect(named(to('listPets', exchange(400, { code: 'x', message: 'y', status: 400 }), 'GET', '/v1/pets?limit=0'))).toEqual([]);
    expect(named(to('listPets', exchange(200), 'HEAD', '/v1/pets'))).toEqual([]);
    expect(named(to('getPet', exchange(200, pets(1)), 'GET', '/v1/pets/abc'))).toEqual([]);
    expect(named(to('getPet', exchange(200, pets(1)), 'GET', '/v1/pets/9223372036854775808'))).toEqual([]);
    expect(judge(context(), to('listStoreOrders', exchange(200, 'anything'), 'GET', '/v1/store/orders'), {}).verdicts.filter((v) => v.verdict.outcome === 'fail')).toEqual([]);
  });

  it('judges it once where the scenario judges the clause itself, and not where the common checks are off or --only leaves the clause out', () => {
    const wrapped = to('listPets', exchange(200, { pets: [] }), 'GET', '/v1/pets');
    expect(named(wrapped, { 'list.200-pets': {} })).toEqual([['list.200-pets', 'fail']]);
    expect(judge(context(), wrapped, {}, { common: false }).verdicts).toEqual([]);
    expect(named(wrapped, {}, context(['auth.required']))).toEqual([]);
  });
});
