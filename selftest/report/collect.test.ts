import { describe, expect, it } from 'vitest';
import { loadClauses, type Clause } from '../../src/contract/clauses.ts';
import { collect } from '../../src/run/collect.ts';
import type { CheckRecord, ScenarioMeta } from '../../src/suite/scenario.ts';

const CLAUSE: Clause = { id: 'auth.required', section: '5', title: 'Key required', sentence: 'A missing key yields 401.', level: 'MUST', operations: ['listPets'] };

function scenario(name: string, record: Omit<CheckRecord, 'check' | 'clause' | 'judged'>): { meta: ScenarioMeta } {
  return { meta: { scenario: name, declared: ['auth-required'], checks: [{ check: 'auth-required', clause: CLAUSE.id, judged: 0, ...record }], requests: 1, rateLimited: 0, retryAfter: [] } };
}

const plainSkip = scenario('plain', { outcome: 'skip', note: 'the store is empty' });
const limitedSkip = scenario('limited', { outcome: 'skip', note: 'every answer that bore on it was rate limited (429): 2', blockedBy: 'rate-limit' });

describe('collect: a skip the target rate-limited away', () => {
  it.each([
    ['after a plain skip', [plainSkip, limitedSkip]],
    ['before a plain skip', [limitedSkip, plainSkip]],
  ])('is kept, with its note, when it comes %s', (_order, scenarios) => {
    const check = collect([CLAUSE], scenarios, () => true).clauses[0]!.checks[0]!;
    expect(check.outcome).toBe('skip');
    expect(check.blockedBy).toBe('rate-limit');
    expect(check.note).toMatch(/429/);
  });

  it('gives way to a pass elsewhere in the run', () => {
    const check = collect([CLAUSE], [limitedSkip, scenario('passed', { outcome: 'pass' })], () => true).clauses[0]!.checks[0]!;
    expect(check.outcome).toBe('pass');
    expect(check.blockedBy).toBeUndefined();
    expect(check.note).toBeUndefined();
  });
});

describe('collect: the capability profile', () => {
  const catalogue = loadClauses();
  const observations = catalogue.filter((clause) => clause.level === 'OBSERVE');
  const seen = (clause: Clause) => `what ${clause.id} saw`;
  const observedAll = observations.map((clause) => ({
    meta: {
      scenario: clause.id,
      declared: [],
      checks: [{ check: `${clause.id}-check`, clause: clause.id, judged: 1, outcome: 'observe' as const, observed: [seen(clause)] }],
      requests: 1,
      rateLimited: 0,
      retryAfter: [],
    },
  }));

  it('has a row for every OBSERVE clause of the catalogue the run observed, with what was seen', () => {
    const capabilities = collect(catalogue, observedAll, () => true).capabilities;
    expect(capabilities.map((c) => c.id).sort()).toEqual(observations.map((c) => c.id).sort());
    for (const id of ['create.content-type', 'create.null-optional', 'create.name-constraints', 'messages.text-constraints']) {
      expect(capabilities.find((c) => c.id === id)?.value).toBe(`what ${id} saw`);
    }
    expect(capabilities.find((c) => c.id === 'limits.rate-limit')?.value).toBe('no 429 seen');
  });

  it('leaves out what the run did not observe', () => {
    const capabilities = collect(catalogue, [], () => true).capabilities;
    expect(capabilities.map((c) => c.id)).toEqual(['limits.rate-limit']);
  });
});
