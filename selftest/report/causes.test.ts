import { describe, expect, it } from 'vitest';
import { likelyCauses } from '../../src/report/causes.ts';
import type { ClauseResult, FailureEvidence } from '../../src/report/model.ts';

function failing(id: string, failure: FailureEvidence): ClauseResult {
  return { id, section: '4.2', title: id, sentence: '', level: 'MUST', operations: ['createPet'], outcome: 'fail', checks: [{ check: id, clause: id, outcome: 'fail', judged: 1, ...failure, failures: [failure] }] };
}

const request = { method: 'POST', url: 'http://127.0.0.1:1/v1/pets', headers: {} };

describe('likelyCauses', () => {
  it('names int64 values rounded through a double once for every clause they failed', () => {
    const causes = likelyCauses([
      failing('create.echo', { operation: 'createPet', expected: 'categoryId 9007199254740993', actual: 'categoryId 9007199254740992' }),
      failing('create.201-pet', { operation: 'createPet', expected: 'id as sent in Location', actual: 'id 9007199254740992', counterexample: '{"categoryId":9007199254740993}' }),
      failing('get.200-pet', { operation: 'getPet', expected: 'the Pet as created (id 1)', actual: 'a Pet with name "x"' }),
    ]);
    expect(causes).toEqual([{ summary: 'int64 values beyond 2^53 come back rounded to the nearest double (9007199254740993 as 9007199254740992)', clauses: ['create.echo', 'create.201-pet'] }]);
  });

  it('names an operation that went unanswered, and leaves a cause of one clause alone', () => {
    const timeout = { operation: 'createPet', actual: 'timeout', evidence: { request, transportError: 'timeout: no answer within 1000 ms', curl: 'curl' } };
    expect(likelyCauses([failing('create.invalid-400', timeout), failing('errors.no-5xx', timeout)])).toEqual([
      { summary: 'POST /v1/pets: timeout: no answer within 1000 ms', clauses: ['create.invalid-400', 'errors.no-5xx'] },
    ]);
    expect(likelyCauses([failing('create.invalid-400', timeout)])).toEqual([]);
  });

  it('never groups successful answers by their shape alone', () => {
    const created = { operation: 'createPet', expected: 'x', actual: 'y', evidence: { request, response: { status: 201, headers: { 'content-type': 'application/json' }, bodyExcerpt: '{"id":1,"name":"a","categoryId":1}', bodyTruncated: false }, curl: 'curl' } };
    expect(likelyCauses([failing('create.echo', created), failing('create.id-unique', created)])).toEqual([]);
  });
});
