import { describe, expect, it } from 'vitest';
import { requestText } from '../../src/report/detail.ts';
import { renderJson } from '../../src/report/json.ts';
import type { RunReport } from '../../src/report/model.ts';
import { clauseIn, AUTH_HOLES, HOSTILE_BODY, makeKnownFailureReport, makeMultiFailureReport, makeMultiWarningReport, makeReport, NO_CHALLENGE } from './fixture.ts';
import { poison, reportValidator } from './helpers.ts';

describe('renderJson and spec/report.schema.json', () => {
  const validate = reportValidator();

  it('the fixture output validates against the schema', () => {
    const data: unknown = JSON.parse(renderJson(makeReport()));
    const ok = validate(data);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('keeps a request body that is not UTF-8 as its hex beside its shown form, and the text story says how it is written', () => {
    const report = makeReport();
    const check = clauseIn(report, 'list.limit-max').checks[0]!;
    check.evidence!.request = { ...check.evidence!.request, method: 'POST', body: '{"message":"caf\\xe9"}', bodyHex: Buffer.from('{"message":"caf\u00e9"}', 'latin1').toString('hex') };
    const data = JSON.parse(renderJson(report)) as RunReport;
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(clauseIn(data, 'list.limit-max').checks[0]!.evidence!.request.bodyHex).toBe('7b226d657373616765223a22636166e9227d');
    expect(requestText(check.evidence!)).toContain('{"message":"caf\\xe9"}\n(the body is not UTF-8: each byte outside it is written \\xHH above)');
    expect(validate(JSON.parse(renderJson(report).replace('"bodyHex": "7b', '"bodyHex": "7'))), 'an odd count of hex digits').toBe(false);
  });

  it('lists every operation a check failed on, with its evidence, and stays valid', () => {
    const report = makeMultiFailureReport();
    report.clauses.find((c) => c.id === 'auth.required')!.checks[0]!.moreFailures = 3;
    const data = JSON.parse(renderJson(report)) as RunReport;
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data).toEqual(report);
    const check = data.clauses.find((c) => c.id === 'auth.required')!.checks[0]!;
    expect(check.failures).toEqual([AUTH_HOLES.createPet, AUTH_HOLES.sendMessage]);
    expect(Object.keys(check.failures![1]!)).toEqual(['operation', 'expected', 'actual', 'evidence', 'counterexample', 'seed', 'path']);
    expect(check.moreFailures).toBe(3);
    expect(check.actual).toBe(AUTH_HOLES.createPet.actual);
  });

  it('lists every operation a check warned on, with its evidence, as failures are listed, and stays valid', () => {
    const report = makeMultiWarningReport();
    report.clauses.find((c) => c.id === 'auth.www-authenticate')!.checks[0]!.moreWarnings = 2;
    const data = JSON.parse(renderJson(report)) as RunReport;
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data).toEqual(report);
    const check = data.clauses.find((c) => c.id === 'auth.www-authenticate')!.checks[0]!;
    expect(check.warnings).toEqual([NO_CHALLENGE.listPets, NO_CHALLENGE.sendMessage]);
    expect(Object.keys(check.warnings![1]!)).toEqual(['operation', 'expected', 'actual', 'evidence']);
    expect(check.moreWarnings).toBe(2);
    expect(check.failures).toBeUndefined();
    expect(check.actual).toBe(NO_CHALLENGE.listPets.actual);
  });

  it('marks a failure the baseline accepts, with its reason and expiry, and stays valid', () => {
    const report = makeKnownFailureReport();
    const data = JSON.parse(renderJson(report)) as RunReport;
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data).toEqual(report);
    const clause = data.clauses.find((c) => c.id === 'list.limit-max')!;
    expect(clause.known).toEqual({ reason: 'clamps (PETS-123) <b>', expires: '2025-06-30' });
    expect(Object.keys(clause).indexOf('known')).toBe(Object.keys(clause).indexOf('outcome') + 1);
    const broken = (mutate: (known: Record<string, unknown>) => void) => {
      const copy = structuredClone(data) as unknown as { clauses: { known?: Record<string, unknown> }[] };
      mutate(copy.clauses.find((c) => c.known)!.known!);
      return validate(copy);
    };
    expect(broken((k) => delete k.reason)).toBe(false);
    expect(broken((k) => (k.expires = '30/06/2025'))).toBe(false);
    expect(broken((k) => (k.extra = 1))).toBe(false);
  });

  it('round-trips the report exactly, hostile body included', () => {
    const report = makeReport();
    const text = renderJson(report);
    const back = JSON.parse(text) as RunReport;
    expect(back).toEqual(report);
    expect(clauseIn(back, 'list.limit-max').checks[0]!.evidence!.response!.bodyExcerpt).toBe(HOSTILE_BODY);
    // Lone surrogates are written as escapes, so the file is valid UTF-8.
    expect(text).toContain('\\ud800 lone high');
    expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text);
  });

  it('is pretty and stable: same output whatever the key insertion order', () => {
    const report = makeReport();
    const shuffled = JSON.parse(
      JSON.stringify(report, (_k, v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
      ),
    ) as RunReport;
    expect(Object.keys(shuffled)[0]).toBe('exitCode');
    const a = renderJson(report);
    expect(renderJson(shuffled)).toBe(a);
    expect(a.startsWith('{\n  "tool": {\n    "name": "animal-store-conformance",')).toBe(true);
    expect(a.endsWith('\n}\n')).toBe(true);
    expect(Object.keys(JSON.parse(a) as object)).toEqual([
      'tool', 'spec', 'target', 'seed', 'runs', 'startedAt', 'durationMs', 'now', 'failOn',
      'summary', 'clauses', 'capabilities', 'engineErrors', 'verdict', 'exitCode',
    ]);
  });

  it('stays valid with hostile strings everywhere', () => {
    for (const report of [makeReport(), makeMultiFailureReport()]) {
      const data: unknown = JSON.parse(renderJson(poison(report, 7)));
      // The poisoned base URL is still a URI reference, so only formats could object; check the rest.
      validate(data);
      const nonFormat = (validate.errors ?? []).filter((e) => e.keyword !== 'format');
      expect(nonFormat).toEqual([]);
    }
  });

  it('the schema is strict: unknown properties, bad enums and missing fields are rejected', () => {
    const base = JSON.parse(renderJson(makeReport())) as Record<string, unknown> & { clauses: Record<string, unknown>[] };
    const cases: [string, (r: typeof base) => void][] = [
      ['extra top-level key', (r) => { r.extra = 1; }],
      ['extra clause key', (r) => { r.clauses[0]!.extra = 1; }],
      ['extra check key', (r) => { (r.clauses[0]!.checks as Record<string, unknown>[])[0]!.durationMs = 3; }],
      ['bad outcome', (r) => { r.clauses[0]!.outcome = 'passed'; }],
      ['bad level', (r) => { r.clauses[0]!.level = 'MAY'; }],
      ['missing verdict', (r) => { delete r.verdict; }],
      ['negative count', (r) => { (r.summary as Record<string, number>).fail = -1; }],
      ['bad date', (r) => { r.startedAt = 'yesterday'; }],
      ['bad env', (r) => { (r.target as Record<string, unknown>).env = 'prod'; }],
      ['string seed', (r) => { r.seed = '1234'; }],
    ];
    const multi = JSON.parse(renderJson(makeMultiFailureReport())) as typeof base;
    const auth = (r: typeof base) => (r.clauses.find((c) => c.id === 'auth.required')!.checks as Record<string, unknown>[])[0]!;
    const failures = (r: typeof base) => auth(r).failures as Record<string, unknown>[];
    const multiCases: [string, (r: typeof base) => void][] = [
      ['extra failure key', (r) => { failures(r)[0]!.extra = 1; }],
      ['failure without evidence curl', (r) => { delete (failures(r)[1]!.evidence as Record<string, unknown>).curl; }],
      ['negative moreFailures', (r) => { auth(r).moreFailures = -1; }],
      ['more than ten failures', (r) => { auth(r).failures = Array.from({ length: 11 }, () => failures(r)[0]); }],
      ['more than ten warnings', (r) => { auth(r).warnings = Array.from({ length: 11 }, () => failures(r)[0]); }],
      ['extra warning key', (r) => { auth(r).warnings = [{ ...failures(r)[0], extra: 1 }]; }],
      ['negative moreWarnings', (r) => { auth(r).moreWarnings = -1; }],
    ];
    expect(validate(multi)).toBe(true);
    for (const [name, mutate] of multiCases) {
      const copy = structuredClone(multi);
      mutate(copy);
      expect(validate(copy), name).toBe(false);
    }
    for (const [name, mutate] of cases) {
      const copy = structuredClone(base);
      mutate(copy);
      expect(validate(copy), name).toBe(false);
    }
  });
});
