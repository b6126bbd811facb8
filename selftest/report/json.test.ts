import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.ts';
import type { RunReport } from '../../src/report/model.ts';
import { HOSTILE_BODY, makeReport } from './fixture.ts';
import { SCHEMA, poison } from './helpers.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin = ((addFormatsModule as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
}

describe('renderJson and spec/report.schema.json', () => {
  const validate = validator();

  it('the fixture output validates against the schema', () => {
    const data: unknown = JSON.parse(renderJson(makeReport()));
    const ok = validate(data);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('round-trips the report exactly, hostile body included', () => {
    const report = makeReport();
    const text = renderJson(report);
    const back = JSON.parse(text) as RunReport;
    expect(back).toEqual(report);
    expect(back.clauses[2]!.checks[0]!.evidence!.response!.bodyExcerpt).toBe(HOSTILE_BODY);
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
    const data: unknown = JSON.parse(renderJson(poison(makeReport(), 7)));
    // The poisoned base URL is still a URI reference, so only formats could object; check the rest.
    validate(data);
    const nonFormat = (validate.errors ?? []).filter((e) => e.keyword !== 'format');
    expect(nonFormat).toEqual([]);
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
    for (const [name, mutate] of cases) {
      const copy = structuredClone(base);
      mutate(copy);
      expect(validate(copy), name).toBe(false);
    }
  });
});
