import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKS, COMMON_CHECKS } from '../../src/checks/registry.ts';
import { loadClauses } from '../../src/contract/clauses.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// spec/service-spec.md is the repository's copy of ../shared/service-spec.md, so a clone stands alone.
const SHARED_SPEC = join(ROOT, '..', 'shared', 'service-spec.md');
const SERVICE_SPEC = readFileSync(join(ROOT, 'spec', 'service-spec.md'), 'utf8');
const clauses = loadClauses();
const tests = readdirSync(join(ROOT, 'tests'))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => readFileSync(join(ROOT, 'tests', name), 'utf8'))
  .join('\n');

/** Markdown and table punctuation removed, so a quoted row matches its source row. */
const normalise = (text: string) => text.replace(/[`|*]/g, ' ').replace(/\s+/g, ' ').trim();

describe('the clause catalogue (spec/clauses.yaml) and the check registry', () => {
  it.runIf(existsSync(SHARED_SPEC))('rests on the current service spec (spec/service-spec.md equals ../shared/service-spec.md)', () => {
    expect(SERVICE_SPEC).toBe(readFileSync(SHARED_SPEC, 'utf8'));
  });

  it('gives every clause at least one check', () => {
    const checked = new Set(Object.values(CHECKS).map((check) => check.clause));
    expect(clauses.filter((clause) => !checked.has(clause.id)).map((c) => c.id)).toEqual([]);
  });

  it('has every check name a clause that exists', () => {
    const ids = new Set(clauses.map((clause) => clause.id));
    expect(Object.values(CHECKS).filter((check) => !ids.has(check.clause)).map((c) => c.name)).toEqual([]);
  });

  it('registers each check under its own name', () => {
    for (const [name, check] of Object.entries(CHECKS)) expect(check.name).toBe(name);
  });

  it('has every check judged by some test in tests/ (or applied to every exchange)', () => {
    const unused = Object.keys(CHECKS).filter((name) => !(COMMON_CHECKS as readonly string[]).includes(name) && !tests.includes(`'${name}'`));
    expect(unused).toEqual([]);
  });

  it('quotes every clause sentence from the section it names, unless it rests on an RFC', () => {
    const headings = [...SERVICE_SPEC.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]);
    const spec = normalise(SERVICE_SPEC);
    for (const clause of clauses) {
      expect(headings, `${clause.id}: section ${clause.section}`).toContain(clause.section);
      if (clause.basis) continue;
      const sentence = normalise(clause.sentence);
      const found = spec.includes(sentence) || sentence.split(':').slice(-1).every((part) => spec.includes(part.trim()));
      expect(found, `${clause.id}: "${clause.sentence}" is not in service-spec.md`).toBe(true);
    }
  });

  it('uses stable slugs, never positions', () => {
    for (const clause of clauses) expect(clause.id).not.toMatch(/(^|\.)\d+(\.|$)/);
  });
});
