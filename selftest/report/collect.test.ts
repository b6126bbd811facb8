import { describe, expect, it } from 'vitest';
import { loadClauses, type Clause } from '../../src/contract/clauses.ts';
import { CUT_SHORT_MARK, MAX_FAILURES_PER_CLAUSE } from '../../src/report/model.ts';
import { shortfallLines } from '../../src/report/format.ts';
import { collect, type CollectOptions } from '../../src/run/collect.ts';
import type { FailureEvidence } from '../../src/report/model.ts';
import type { CheckRecord, ScenarioMeta } from '../../src/suite/scenario.ts';

const CLAUSE: Clause = { id: 'auth.required', section: '5', title: 'Key required', sentence: 'A missing key yields 401.', level: 'MUST', operations: ['listPets'] };

function scenario(name: string, record: Omit<CheckRecord, 'check' | 'clause' | 'judged'>): { meta: ScenarioMeta } {
  return { meta: { scenario: name, declared: ['auth.required'], checks: [{ check: 'auth.required', clause: CLAUSE.id, judged: 0, ...record }], requests: 1, rateLimited: 0, retryAfter: [], unavailable: 0 } };
}

const ALL: CollectOptions = { isSelected: () => true, leftOut: new Map(), enumValues: () => ['available', 'pending', 'sold'] };

const plainSkip = scenario('plain', { outcome: 'skip', note: 'the store is empty' });
const limitedSkip = scenario('limited', { outcome: 'skip', note: 'every answer that bore on it was rate limited (429): 2', blockedBy: 'rate-limit' });

describe('collect: a skip the target rate-limited away', () => {
  it.each([
    ['after a plain skip', [plainSkip, limitedSkip]],
    ['before a plain skip', [limitedSkip, plainSkip]],
  ])('is kept, with its note, when it comes %s', (_order, scenarios) => {
    const check = collect([CLAUSE], scenarios, ALL).clauses[0]!.checks[0]!;
    expect(check.outcome).toBe('skip');
    expect(check.blockedBy).toBe('rate-limit');
    expect(check.note).toMatch(/429/);
  });

  it('gives way to a pass elsewhere in the run', () => {
    const check = collect([CLAUSE], [limitedSkip, scenario('passed', { outcome: 'pass' })], ALL).clauses[0]!.checks[0]!;
    expect(check.outcome).toBe('pass');
    expect(check.blockedBy).toBeUndefined();
    expect(check.note).toBeUndefined();
  });
});

describe('collect: an operation a clause did not reach, where answers on it were handed back 429', () => {
  const BOTH: Clause = { ...CLAUSE, operations: ['listPets', 'getPet'] };
  const passed = (record: Partial<CheckRecord>) => scenario('passed', { outcome: 'pass', byOperation: { listPets: 1 }, ...record });

  it('is put down to the rate limit, and kept in the coverage for merge', () => {
    const clause = collect([BOTH], [passed({ rateLimitedOn: { getPet: 1 } }), passed({ rateLimitedOn: { getPet: 1, listPets: 2 } })], ALL).clauses[0]!;
    expect(clause.outcome).toBe('partial');
    expect(clause.shortfalls).toEqual([{ operation: 'getPet', reason: '2 requests on it handed back rate limited (429, or 503 with Retry-After)', blockedBy: 'rate-limit' }]);
    expect(clause.coverage?.rateLimitedOn).toEqual({ getPet: 2, listPets: 2 });
  });

  it("is no one's doing where only other operations' answers were", () => {
    const clause = collect([BOTH], [passed({ rateLimitedOn: { listPets: 1 } })], ALL).clauses[0]!;
    expect(clause.outcome).toBe('partial');
    expect(clause.shortfalls?.[0]?.blockedBy).toBeUndefined();
  });
});

describe('collect: a clause judged in a scenario --max-duration cut short', () => {
  const cutShort = `${CUT_SHORT_MARK} "cut": its later requests were not sent`;

  it('is judged only in part, for the budget, though every answer it judged passed', () => {
    const clause = collect([CLAUSE], [scenario('whole', { outcome: 'pass', byOperation: { listPets: 3 } }), scenario('cut', { outcome: 'pass', byOperation: { listPets: 1 }, cutShort })], ALL).clauses[0]!;
    expect(clause.outcome).toBe('partial');
    expect(clause.shortfalls).toEqual([{ reason: cutShort, blockedBy: 'budget' }]);
    expect(shortfallLines(clause)).toEqual([`Not judged in full: ${cutShort}`]);
  });

  it('still fails where an answer broke it', () => {
    const failed = scenario('cut', { outcome: 'fail', byOperation: { listPets: 1 }, cutShort, expected: '401', actual: '200' });
    expect(collect([CLAUSE], [failed], ALL).clauses[0]!.outcome).toBe('fail');
  });

  it('passes where no scenario that judged it was cut', () => {
    expect(collect([CLAUSE], [scenario('whole', { outcome: 'pass', byOperation: { listPets: 3 } })], ALL).clauses[0]!.outcome).toBe('pass');
  });
});

describe('collect: the capability profile counts what the client waited out', () => {
  const withStats = (unavailable: number, rateLimited: number) => ({ meta: { ...scenario('s', { outcome: 'pass' }).meta, unavailable, rateLimited } });

  it('adds the 503s with Retry-After, summed over the scenarios', () => {
    const found = collect([CLAUSE], [withStats(2, 0), withStats(1, 1)], ALL).capabilities;
    expect(found.find((c) => c.title.startsWith('503'))?.value).toBe('3 × 503');
    expect(found.find((c) => c.title.startsWith('429'))?.value).toMatch(/^1 × 429/);
  });

  it('leaves the 503 line out when none came', () => {
    expect(collect([CLAUSE], [withStats(0, 0)], ALL).capabilities.some((c) => c.title.startsWith('503'))).toBe(false);
  });
});

describe('collect: the rate-limit observation counts the answers the client retried', () => {
  const RATE: Clause = { id: 'limits.rate-limit', section: '8', title: 'Rate limiting seen', sentence: 'Rate limits: not shown.', level: 'OBSERVE', operations: ['listPets'] };
  const seen = (rateLimited: number, unavailable: number, observed: string[]) => ({
    meta: { scenario: 's', declared: ['limits.rate-limit'], checks: [{ check: 'limits.rate-limit', clause: RATE.id, judged: 1, outcome: 'observe' as const, observed }], requests: 1, rateLimited, retryAfter: [], unavailable },
  });

  it('replaces "none reached" by the counts', () => {
    const note = collect([RATE], [seen(3, 1, ['no 429 reached the suite'])], ALL).clauses[0]!.checks[0]!.note;
    expect(note).toBe('3 × 429 and 1 × 503 with Retry-After met by the client, retried within the bounds (those that outlasted them are left unjudged)');
  });

  it('counts the 503s without Retry-After sent again under a lowered cap, and report.json\'s traffic keeps them', () => {
    const overloaded = { meta: { ...seen(0, 0, ['no 429 reached the suite']).meta, overloaded: 4 } };
    const collected = collect([RATE], [overloaded, { meta: { ...seen(1, 0, []).meta, overloaded: 1 } }], ALL);
    expect(collected.clauses[0]!.checks[0]!.note).toBe(
      '1 × 429 met by the client, retried within the bounds (those that outlasted them are left unjudged); 5 × 503 without Retry-After after calm answers, sent again with fewer in flight or after a wait (a 503 that came again was judged)',
    );
    expect(collected.traffic.overloaded).toBe(5);
    expect(collected.capabilities.find((c) => c.title.startsWith('503 without Retry-After'))?.value).toBe('5 × 503');
    expect(collect([RATE], [seen(0, 0, [])], ALL).traffic.overloaded).toBeUndefined();
  });

  it('keeps the lowest rate the client held an origin to, in whole requests a second, where it held one', () => {
    const paced = (pacedRps?: number) => ({ meta: { ...seen(0, 0, []).meta, ...(pacedRps === undefined ? {} : { pacedRps }) } });
    expect(collect([RATE], [paced(), paced(271.9), paced(183.4)], ALL).traffic.pacedRps).toBe(183);
    expect(collect([RATE], [paced(), paced()], ALL).traffic.pacedRps).toBeUndefined();
  });

  it('keeps the fewest connections at a time a host served, where one was seen to serve so few', () => {
    const served = (servedConnections?: number) => ({ meta: { ...seen(0, 0, []).meta, ...(servedConnections === undefined ? {} : { servedConnections }) } });
    const collected = collect([RATE], [served(), served(2), served(1)], ALL);
    expect(collected.traffic.servedConnections).toBe(1);
    expect(collected.capabilities.find((c) => c.title.startsWith('Connections served at a time'))?.value).toBe('1');
    expect(collect([RATE], [served(), served()], ALL).traffic.servedConnections).toBeUndefined();
  });

  it('keeps what was judged beside the counts, and "none reached" when nothing was retried', () => {
    expect(collect([RATE], [seen(2, 0, ['429 with Retry-After: 9'])], ALL).clauses[0]!.checks[0]!.note).toMatch(/^2 × 429 met by the client.*; 429 with Retry-After: 9$/);
    expect(collect([RATE], [seen(0, 0, ['no 429 reached the suite'])], ALL).clauses[0]!.checks[0]!.note).toBe('no 429 reached the suite');
  });
});

function failure(operation: string, actual = `no 401 on ${operation}`): FailureEvidence {
  const url = `http://127.0.0.1:1/${operation}`;
  return { operation, expected: '401', actual, evidence: { request: { method: 'POST', url, headers: {} }, curl: `curl -X POST '${url}'` } };
}

function failing(name: string, check: string, failures: FailureEvidence[]): { meta: ScenarioMeta } {
  const first = failures[0]!;
  const record: CheckRecord = { check, clause: CLAUSE.id, judged: failures.length, outcome: 'fail', expected: first.expected, actual: first.actual, evidence: first.evidence, failures };
  return { meta: { scenario: name, declared: [check], checks: [record], requests: 1, rateLimited: 0, retryAfter: [], unavailable: 0 } };
}

describe('collect: a clause failed on several operations', () => {
  it('keeps one failure per operation from every scenario, the first one also in the check\'s own fields', () => {
    const scenarios = [
      failing('createPet', 'auth.required', [failure('createPet')]),
      failing('createPet again', 'auth.required', [failure('createPet', 'seen twice')]),
      failing('sendMessage', 'auth.required', [failure('sendMessage')]),
    ];
    const check = collect([CLAUSE], scenarios, ALL).clauses[0]!.checks[0]!;
    expect(check.outcome).toBe('fail');
    expect(check.failures?.map((f) => f.operation)).toEqual(['createPet', 'sendMessage']);
    expect(check.failures?.map((f) => f.evidence?.curl)).toEqual([`curl -X POST 'http://127.0.0.1:1/createPet'`, `curl -X POST 'http://127.0.0.1:1/sendMessage'`]);
    expect(check.actual).toBe('no 401 on createPet');
    expect(check.evidence?.request.url).toBe('http://127.0.0.1:1/createPet');
    expect(check.moreFailures).toBeUndefined();
  });

  it('keeps at most MAX_FAILURES_PER_CLAUSE failures of a clause, from every scenario, and counts the rest', () => {
    const ops = Array.from({ length: MAX_FAILURES_PER_CLAUSE + 2 }, (_, i) => `op${i}`);
    const scenarios = [
      ...ops.map((op) => failing(op, 'auth.required', [failure(op)])),
      failing('aliases', 'auth.required', [failure('listPets'), failure('getPet'), failure('createPet')]),
    ];
    const [check, ...others] = collect([CLAUSE], scenarios, ALL).clauses[0]!.checks;
    expect(others).toEqual([]);
    expect(check!.failures?.map((f) => f.operation)).toEqual(ops.slice(0, MAX_FAILURES_PER_CLAUSE));
    expect(check!.moreFailures).toBe(5);
  });

  it('leaves the scenarios\' records as they were', () => {
    const scenarios = [failing('createPet', 'auth.required', [failure('createPet')]), failing('sendMessage', 'auth.required', [failure('sendMessage')])];
    collect([CLAUSE], scenarios, ALL);
    expect(scenarios[0]!.meta.checks[0]!.failures?.map((f) => f.operation)).toEqual(['createPet']);
  });
});

describe('collect: a SHOULD clause warned on several operations', () => {
  const SHOULD: Clause = { ...CLAUSE, id: 'auth.www-authenticate', level: 'SHOULD' };
  function warning(name: string, warnings: FailureEvidence[]): { meta: ScenarioMeta } {
    const first = warnings[0]!;
    const record: CheckRecord = { check: 'auth.www-authenticate', clause: SHOULD.id, judged: warnings.length, outcome: 'warn', expected: first.expected, actual: first.actual, evidence: first.evidence, warnings };
    return { meta: { scenario: name, declared: [record.check], checks: [record], requests: 1, rateLimited: 0, retryAfter: [], unavailable: 0 } };
  }

  it('keeps one warning per operation from every scenario, the first one also in the check\'s own fields', () => {
    const scenarios = [warning('listPets', [failure('listPets')]), warning('listPets again', [failure('listPets', 'seen twice')]), warning('sendMessage', [failure('sendMessage')])];
    const clause = collect([SHOULD], scenarios, ALL).clauses[0]!;
    const check = clause.checks[0]!;
    expect(clause.outcome).toBe('warn');
    expect(check.warnings?.map((w) => w.operation)).toEqual(['listPets', 'sendMessage']);
    expect(check.warnings?.map((w) => w.evidence?.curl)).toEqual([`curl -X POST 'http://127.0.0.1:1/listPets'`, `curl -X POST 'http://127.0.0.1:1/sendMessage'`]);
    expect(check.actual).toBe('no 401 on listPets');
    expect(check.failures).toBeUndefined();
  });

  it('keeps at most MAX_FAILURES_PER_CLAUSE warnings and counts the rest', () => {
    const ops = Array.from({ length: MAX_FAILURES_PER_CLAUSE + 3 }, (_, i) => `op${i}`);
    const check = collect([SHOULD], ops.map((op) => warning(op, [failure(op)])), ALL).clauses[0]!.checks[0]!;
    expect(check.warnings?.map((w) => w.operation)).toEqual(ops.slice(0, MAX_FAILURES_PER_CLAUSE));
    expect(check.moreWarnings).toBe(3);
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
      unavailable: 0,
    },
  }));

  it('has a row for every OBSERVE clause of the catalogue the run observed, with what was seen', () => {
    const capabilities = collect(catalogue, observedAll, ALL).capabilities;
    expect(capabilities.map((c) => c.id).sort()).toEqual(observations.map((c) => c.id).sort());
    for (const id of ['create.content-type', 'create.name-constraints', 'messages.text-constraints']) {
      expect(capabilities.find((c) => c.id === id)?.value).toBe(`what ${id} saw`);
    }
    expect(capabilities.find((c) => c.id === 'limits.rate-limit')?.value).toBe('no 429 seen');
  });

  it('leaves out what the run did not observe', () => {
    const capabilities = collect(catalogue, [], ALL).capabilities;
    expect(capabilities.map((c) => c.id)).toEqual(['limits.rate-limit']);
  });
});
