import { describe, expect, it } from 'vitest';
import type { Clause } from '../../src/contract/clauses.ts';
import { shortfallsOf, type Coverage } from '../../src/run/coverage.ts';

const STATUSES = ['available', 'pending', 'sold'];
const options = { leftOut: new Map([['sendMessage', 'MESSAGES_BASE_URL is not configured']]), enumValues: () => STATUSES };

function coverage(judged: Record<string, number>, extra: Partial<Coverage> = {}): Coverage {
  return { judged, unjudged: {}, covered: new Set(), blocked: [], rateLimitedOn: {}, ...extra };
}

const clause = (over: Partial<Clause>): Clause => ({ id: 'x.y', section: '4', title: 't', sentence: 's', level: 'MUST', operations: ['listPets'], ...over });

describe('shortfallsOf', () => {
  it('puts an operation it did not reach down to the rate limit only where answers on that operation were handed back', () => {
    const both = clause({ operations: ['createPet', 'getPet'] });
    expect(shortfallsOf(both, coverage({ createPet: 2 }, { rateLimitedOn: { getPet: 1 } }), options)).toEqual([
      { operation: 'getPet', reason: '1 request on it handed back rate limited (429, or 503 with Retry-After)', blockedBy: 'rate-limit' },
    ]);
    expect(shortfallsOf(both, coverage({ createPet: 2 }, { rateLimitedOn: { createPet: 3 } }), options)).toEqual([
      { operation: 'getPet', reason: 'no exchange with this operation bore on the clause in this run' },
    ]);
  });

  it('needs every operation judged, telling the settings\' choice from the target\'s doing', () => {
    const auth = clause({ operations: ['listPets', 'getPet', 'sendMessage', 'createPet'] });
    const found = shortfallsOf(auth, coverage({ listPets: 3 }, { unjudged: { getPet: { reason: 'not-sent: hung', count: 4 } } }), options);
    expect(found).toEqual([
      { operation: 'getPet', reason: '4 requests judged nothing: not-sent: hung', blockedBy: 'no-answer' },
      { operation: 'sendMessage', reason: 'MESSAGES_BASE_URL is not configured', choice: true },
      { operation: 'createPet', reason: 'no exchange with this operation bore on the clause in this run' },
    ]);
  });

  it('needs two exchanges to judge uniqueness', () => {
    const unique = clause({ operations: ['createPet'], minimum: { exchanges: 2 } });
    expect(shortfallsOf(unique, coverage({ createPet: 1 }), options)).toEqual([{ reason: 'judged on 1 exchange, and the clause needs at least 2' }]);
    expect(shortfallsOf(unique, coverage({ createPet: 2 }), options)).toEqual([]);
  });

  it('needs a judged listing for every status value of a filter', () => {
    const filter = clause({ minimum: { each: { enum: 'PetStatus', field: 'status' } } });
    expect(shortfallsOf(filter, coverage({ listPets: 5 }, { covered: new Set(['available']) }), options)).toEqual([
      { reason: 'not judged for status pending, sold (the clause needs every PetStatus value)' },
    ]);
    expect(shortfallsOf(filter, coverage({ listPets: 5 }, { covered: new Set(STATUSES) }), options)).toEqual([]);
  });

  it('asks only the operations a clause judges, where it names them, and nothing of an OBSERVE clause', () => {
    const resolves = clause({ operations: ['createPet', 'getPet'], minimum: { operations: ['getPet'] } });
    expect(shortfallsOf(resolves, coverage({ getPet: 1 }), options)).toEqual([]);
    expect(shortfallsOf(clause({ level: 'OBSERVE', operations: ['createPet'] }), coverage({}), options)).toEqual([]);
  });
});
