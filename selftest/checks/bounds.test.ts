// Bounds before work: a body past a bound of src/json/bounds.ts never reaches a parser's recursion or
// a schema. A check handed one says so in its Actual; a run leaves its clauses unjudged, judged on the
// status alone (src/suite/judge.ts), since the bound is the suite's and the spec fixes none.
import { beforeAll, describe, expect, it } from 'vitest';
import { getCheck, type JudgeEnv } from '../../src/checks/registry.ts';
import { MAX_QUOTED_CHARS } from '../../src/checks/types.ts';
import { jsonBody } from '../../src/http/exchange.ts';
import { boundsProblem, JSON_BOUNDS } from '../../src/json/bounds.ts';
import { JsonBoundsError, parseJson } from '../../src/json/lossless.ts';
import { exchange, makeEnv, raw } from './helpers.ts';

const members = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',');
const PET = '"id":1,"name":"Rex","categoryId":1';

describe('boundsProblem', () => {
  it.each([
    ['an array nesting bomb', '['.repeat(1_000_000) + ']'.repeat(1_000_000), 'the body nests deeper than 64 levels (the suite reads at most 64)'],
    ['an object nesting bomb', '{"a":'.repeat(500_000) + '1' + '}'.repeat(500_000), 'the body nests deeper than 64 levels (the suite reads at most 64)'],
    ['200,000 members in a listed animal', `[{${members(200_000)},${PET}}]`, 'an object with 200,003 members (the suite reads at most 1,000)'],
    ['a million elements', `[${'0,'.repeat(999_999)}0]`, 'an array of 1,000,000 elements (the suite reads at most 10,000)'],
    ['a million-digit id', `{"id":${'9'.repeat(1_000_000)}}`, 'a number of 1,000,000 digits (the suite reads at most 1,000)'],
    ['a long fraction', `[0.${'1'.repeat(2_000)}]`, 'a number of 2,001 digits (the suite reads at most 1,000)'],
  ])('%s', (_what, text, problem) => {
    expect(boundsProblem(text)).toBe(problem);
    expect(() => parseJson(text)).toThrow(JsonBoundsError);
  });

  it.each([
    ['a page of 100 animals', `[${Array.from({ length: 100 }, () => `{${PET},"status":"available","tag":"x"}`).join(',')}]`],
    ['an Error', '{"code":"bad","message":"no","status":400}'],
    ['64 levels', '['.repeat(64) + ']'.repeat(64)],
    ['1,000 members', `{${members(1_000)}}`],
    ['brackets, commas and digits inside strings', `["${'[{,'.repeat(50_000)}${'9'.repeat(5_000)}", "\\"[[[["]`],
    ['1e999999 (7 digits: a number, read as Infinity)', '{"id":1e999999}'],
    ['an int64 and its negation', '[9223372036854775807,-9223372036854775808]'],
  ])('%s is within bounds', (_what, text) => {
    expect(boundsProblem(text)).toBeUndefined();
  });

  it('an unclosed bomb is past the bound, and not JSON: refused as that', () => {
    expect(boundsProblem('['.repeat(100))).toBe('the body nests deeper than 64 levels (the suite reads at most 64)');
    expect(() => parseJson('['.repeat(100))).toThrow(/^body is not JSON: unexpected end of the text at position 100$/);
  });

  it('refuses a text past the size bound, whatever it holds', () => {
    expect(boundsProblem('"abcdef"', { ...JSON_BOUNDS, maxBytes: 4 })).toBe('a body of 8 bytes (the suite parses at most 4)');
  });
});

describe('a check handed a body past a bound names the bound', () => {
  let env: JudgeEnv;
  beforeAll(async () => {
    env = await makeEnv();
  });

  it('list.200-pets on a listing past a bound: an array is n/a (its items are not read, and the run leaves the clause unjudged), an object fails', () => {
    const ex = exchange(200, raw('['.repeat(1_000_000) + ']'.repeat(1_000_000)));
    expect(jsonBody(ex)).toEqual({ ok: false, problem: 'the body nests deeper than 64 levels (the suite reads at most 64)', pastBound: { top: { object: false } } });
    expect(getCheck('list.200-pets').judge(ex, { env })).toEqual({ outcome: 'n/a' });
    expect(getCheck('list.200-pets').judge(exchange(200, raw(`[{${members(200_000)},${PET}}]`)), { env })).toEqual({ outcome: 'n/a' });
    const wrapped = getCheck('list.200-pets').judge(exchange(200, raw(`{"items":[{${members(200_000)},${PET}}]}`)), { env });
    expect(wrapped).toMatchObject({ outcome: 'fail', actual: '200: a JSON object, not an array (read no further: an object with 200,003 members (the suite reads at most 1,000))' });
  });

  it('a created Pet with a million-digit id fails create.201-pet', () => {
    const verdict = getCheck('create.201-pet').judge(exchange(201, raw(`{"id":${'9'.repeat(1_000_000)},"name":"Rex","categoryId":1}`)), { env });
    expect(verdict).toMatchObject({ outcome: 'fail', actual: expect.stringContaining('a number of 1,000,000 digits') });
  });

  it('an Actual quoting a long value is cut, and says so', () => {
    const verdict = getCheck('list.status-filter').judge(exchange(200, [{ id: 1, name: 'Rex', categoryId: 1, status: 's'.repeat(100_000) }]), { env, status: 'sold' });
    expect(verdict.outcome).toBe('fail');
    const actual = verdict.outcome === 'fail' ? verdict.actual : '';
    expect(actual.length).toBeLessThan(MAX_QUOTED_CHARS + 60);
    expect(actual).toMatch(/^item 1 of 1 \(index 0\) has status "s+… \(cut: 100,\d{3} characters in all\)$/);
  });

  it('a status beyond int64 is quoted exactly, not thrown on (JSON.stringify cannot write a bigint)', () => {
    const listed = getCheck('list.status-filter').judge(exchange(200, raw('[{"id":1,"status":-9223372036854775809}]')), { env, status: 'sold' });
    expect(listed).toMatchObject({ outcome: 'fail', actual: 'item 1 of 1 (index 0) has status -9223372036854775809' });
    // A status that is no string breaks the Message schema: its clause (messages.accepted) judges it, not this one, and nothing throws.
    const message = getCheck('messages.status-queued').judge(exchange(202, raw('{"status":12345678901234567890}')), { env });
    expect(message).toEqual({ outcome: 'n/a' });
  });

  it('an Error nesting too deep fails errors.shape', () => {
    const verdict = getCheck('errors.shape').judge(exchange(400, raw(`{"code":"x","message":"y","status":400,"d":${'['.repeat(100)}${']'.repeat(100)}}`)), { env });
    expect(verdict).toMatchObject({ outcome: 'fail', actual: '400: the body nests deeper than 64 levels (the suite reads at most 64)' });
  });
});
