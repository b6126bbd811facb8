/** generators/query.ts: valid queries stay within the parameter schemas, invalid ones break them. */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalidQuery, invalidQueryCases, limitBounds, validLimit, validQuery } from '../../generators/index.ts';
import { makeEnv, SEED, type Env } from './helpers.ts';

let env: Env;
beforeAll(async () => {
  env = await makeEnv();
});

const STATUSES = ['available', 'pending', 'sold'];

/** What is wrong with a listPets query string by §4.1: limit an integer in 1..100 (plain digits, so `+5` and `1e2` count), status in the enum. */
function queryProblems(text: string): string[] {
  const params = new URLSearchParams(text);
  const problems: string[] = [];
  for (const name of ['limit', 'status']) if (params.getAll(name).length > 1) problems.push(`${name} given more than once`);
  for (const limit of params.getAll('limit')) {
    if (!/^-?\d+$/.test(limit)) problems.push(`limit ${JSON.stringify(limit)} is not an integer in plain decimal digits`);
    else if (Number(limit) < 1 || Number(limit) > 100) problems.push(`limit ${limit} is outside 1..100`);
  }
  for (const status of params.getAll('status')) {
    if (!STATUSES.includes(status)) problems.push(`status ${JSON.stringify(status)} is outside the enum`);
  }
  return problems;
}

describe('the listPets parameters as the generators read them', () => {
  it('are limit 1..100 with default 20', () => {
    expect(limitBounds(env.contract)).toEqual({ min: 1, max: 100, fallback: 20 });
  });
});

describe('validQuery', () => {
  it('has limits within 1..100 and statuses in the enum, and its text says the same (200 draws)', () => {
    fc.assert(
      fc.property(validQuery(env.contract), (query) => {
        if (query.limit !== undefined) {
          expect(Number.isInteger(query.limit)).toBe(true);
          expect(query.limit).toBeGreaterThanOrEqual(1);
          expect(query.limit).toBeLessThanOrEqual(100);
        }
        if (query.status !== undefined) expect(STATUSES).toContain(query.status);
        const params = new URLSearchParams(query.text);
        expect(params.get('limit') ?? undefined).toBe(query.limit === undefined ? undefined : String(query.limit));
        expect(params.get('status') ?? undefined).toBe(query.status);
        expect(queryProblems(query.text)).toEqual([]);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('draws both bounds, no limit, and no status', () => {
    const queries = fc.sample(validQuery(env.contract), { seed: SEED, numRuns: 300 });
    const limits = new Set(queries.map((q) => q.limit));
    expect(limits.has(1)).toBe(true);
    expect(limits.has(100)).toBe(true);
    expect(limits.has(undefined)).toBe(true);
    expect(queries.some((q) => q.status === undefined)).toBe(true);
    expect(queries.some((q) => q.text === '')).toBe(true);
  });

  it('validLimit stays within 1..100', () => {
    for (const limit of fc.sample(validLimit(env.contract), { seed: SEED, numRuns: 200 })) {
      expect(Number.isInteger(limit) && limit >= 1 && limit <= 100, String(limit)).toBe(true);
    }
  });
});

describe('invalidQueryCases', () => {
  it('every value has a limit outside 1..100 or not an integer, or a status outside the enum', () => {
    const cases = invalidQueryCases(env.contract);
    expect(cases.length).toBeGreaterThan(0);
    for (const [index, arbitrary] of cases.entries()) {
      fc.assert(
        fc.property(arbitrary, (query) => {
          expect(queryProblems(query.text), `${query.rule}: ${query.text}`).not.toEqual([]);
          expect(query.rule.trim()).not.toBe('');
        }),
        { numRuns: 30, seed: SEED + index },
      );
    }
  });

  it('invalidQuery (any one case) is invalid too (200 draws)', () => {
    fc.assert(
      fc.property(invalidQuery(env.contract), (query) => {
        expect(queryProblems(query.text), query.text).not.toEqual([]);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('covers both bounds, a fraction, text, an empty limit and the status enum', () => {
    const texts = invalidQueryCases(env.contract).flatMap((a) => fc.sample(a, { seed: SEED, numRuns: 1 })).map((q) => q.text);
    for (const text of ['limit=0', 'limit=101', 'limit=1.5', 'limit=abc', 'limit=', 'status=unknown', 'status=SOLD']) expect(texts).toContain(text);
  });

  it('covers the int32 and int64 overflow points, 20 digits, a plus sign, an exponent and a leading space (percent-encoded)', () => {
    const texts = invalidQueryCases(env.contract).flatMap((a) => fc.sample(a, { seed: SEED, numRuns: 1 })).map((q) => q.text);
    for (const text of ['limit=2147483648', 'limit=9223372036854775808', 'limit=99999999999999999999', 'limit=%2B5', 'limit=1e2', 'limit=%205']) expect(texts).toContain(text);
  });

  it('covers limit given twice, in both orders, and status given twice', () => {
    const texts = invalidQueryCases(env.contract).flatMap((a) => fc.sample(a, { seed: SEED, numRuns: 1 })).map((q) => q.text);
    for (const text of ['limit=1&limit=500', 'limit=500&limit=1', 'status=available&status=pending']) expect(texts).toContain(text);
  });
});
