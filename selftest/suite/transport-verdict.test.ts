// A request that got no answer fails one MUST: its own clause's where that is a MUST, else a common one,
// whose Expected then says which clause the request was for and why that one is not named.

import { describe, expect, it } from 'vitest';
import { loadClauses } from '../../src/contract/clauses.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { judge } from '../../src/suite/judge.ts';
import type { WorkerContext } from '../../src/suite/worker.ts';
import { judgeEnv } from '../checks/canned/canned.ts';

function context(): WorkerContext {
  const clauses = new Map(loadClauses().map((clause) => [clause.id, clause]));
  return { clauses, gates: new Map(), config: { only: [], skip: [] }, env: judgeEnv(), envOnly: { env: judgeEnv() } } as unknown as WorkerContext;
}

const unanswered: Exchange = {
  request: { method: 'POST', url: 'http://127.0.0.1:1/v1/pets', headers: {} },
  failure: { kind: 'timeout', message: 'no answer within 1000 ms' },
  durationMs: 1004,
};

describe('a request that got no answer', () => {
  it('fails its own clause where that is a MUST, expecting an HTTP response', () => {
    const { verdicts } = judge(context(), unanswered, { 'create.invalid-400': { rule: 'name missing' } });
    expect(verdicts).toEqual([
      { name: 'create.invalid-400', level: 'MUST', verdict: { outcome: 'fail', expected: 'an HTTP response', actual: 'timeout: no answer within 1000 ms (given up after 1004 ms)' } },
    ]);
  });

  it('fails the common MUST where its own clause is a SHOULD, and says so', () => {
    const { verdicts } = judge(context(), unanswered, { 'create.not-utf8': { rule: 'a lone continuation byte' } });
    expect(verdicts).toEqual([
      {
        name: 'errors.no-5xx',
        level: 'MUST',
        verdict: { outcome: 'fail', expected: "an HTTP response (the request is create.not-utf8's, a SHOULD: left unanswered, it fails errors.no-5xx)", actual: 'timeout: no answer within 1000 ms (given up after 1004 ms)' },
      },
    ]);
  });

  it("falls to a clause the scenario declares only where that covers the request's operation (a listing left unanswered is no POST clause's)", () => {
    const listing: Exchange = { ...unanswered, request: { method: 'GET', url: 'http://127.0.0.1:1/v1/pets?limit=abc', headers: {} }, operationId: 'listPets' };
    const declared = ['create.invalid-400', 'errors.shape'] as const;
    expect(judge(context(), listing, {}, { declared: [...declared] }).verdicts.map((v) => v.name)).toEqual(['errors.no-5xx']);
    const post: Exchange = { ...unanswered, operationId: 'createPet' };
    expect(judge(context(), post, {}, { declared: [...declared] }).verdicts.map((v) => v.name)).toEqual(['create.invalid-400']);
  });

  it('left out by --skip, owes nothing and is judged by nothing', () => {
    const leftOut: Exchange = { ...unanswered, failure: { kind: 'left-out', message: 'createPet is left out (--skip createPet)' }, durationMs: 0 };
    expect(judge(context(), leftOut, { 'create.invalid-400': { rule: 'name missing' } })).toEqual({ verdicts: [], unjudged: [], rateLimited: [] });
  });
});

describe('a 503 without Retry-After the client held as a limit (its rests spent)', () => {
  const refused: Exchange = {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/pets', headers: {} },
    response: { status: 503, headers: { 'content-type': 'text/html' }, body: Buffer.from('<html><body>503</body></html>'), truncated: false },
    durationMs: 3,
  };

  it('is judged as a 429 is, a rate limit (§8): no verdict but the observation of it', () => {
    const held = judge(context(), { ...refused, heldAsLimit: true }, { 'create.201-pet': {} });
    expect(held.verdicts.map((v) => v.name)).toEqual(['limits.rate-limit']);
    expect(held.rateLimited).toContain('create.201-pet');
    expect(held.rateLimited).toContain('errors.no-5xx');
  });

  it('not held, the same 503 fails errors.no-5xx', () => {
    const judged = judge(context(), refused, { 'create.201-pet': {} });
    expect(judged.verdicts.filter((v) => v.verdict.outcome === 'fail').map((v) => v.name)).toContain('errors.no-5xx');
    expect(judged.rateLimited).toEqual([]);
  });
});
