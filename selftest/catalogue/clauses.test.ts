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
/** The suite's sources: its sections and the support modules that judge for them (tests/support/sequence/ for the sequences). */
const tests = readdirSync(join(ROOT, 'tests'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => readFileSync(join(ROOT, 'tests', name), 'utf8'))
  .join('\n');

/** Each numbered section's own text: from its heading to the next heading, of any level. */
function sectionTexts(markdown: string): Map<string, string> {
  const headings = [...markdown.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? .*$/gm)];
  return new Map(headings.map((h, i) => [h[1]!, markdown.slice(h.index + h[0].length, headings[i + 1]?.index ?? markdown.length)]));
}

describe('the clause catalogue (spec/clauses.yaml) and the check registry', () => {
  it.runIf(existsSync(SHARED_SPEC))('rests on the current service spec (spec/service-spec.md equals ../shared/service-spec.md)', () => {
    expect(SERVICE_SPEC).toBe(readFileSync(SHARED_SPEC, 'utf8'));
  });

  it('has one check for every clause, under the clause id, and none for a clause it lacks', () => {
    expect(Object.keys(CHECKS).sort()).toEqual(clauses.map((clause) => clause.id).sort());
  });

  it('has every check carry its canned cases (run, against the level of its clause, by selftest/checks/canned)', () => {
    const without = Object.entries(CHECKS).filter(([, check]) => !(check.cases.pass ?? check.cases.observe)?.length).map(([name]) => name);
    expect(without).toEqual([]);
  });

  it('has every check judged by some test in tests/ (or applied to every exchange)', () => {
    const unused = Object.keys(CHECKS).filter((name) => !(COMMON_CHECKS as readonly string[]).includes(name) && !tests.includes(`'${name}'`));
    expect(unused).toEqual([]);
  });

  it('quotes every clause sentence verbatim from the section it names, and from no other (an RFC quote from none)', () => {
    const sections = sectionTexts(SERVICE_SPEC);
    const misplaced = clauses.flatMap((clause) => {
      const own = sections.get(clause.section);
      if (own === undefined) return [`${clause.id}: the spec has no section ${clause.section}`];
      const elsewhere = [...sections].filter(([section, text]) => section !== clause.section && text.includes(clause.sentence)).map(([section]) => `§${section}`);
      if (elsewhere.length) return [`${clause.id} (§${clause.section}): "${clause.sentence}" stands in ${elsewhere.join(', ')}`];
      if (!own.includes(clause.sentence) && !clause.basis) return [`${clause.id}: "${clause.sentence}" is not in §${clause.section}`];
      return [];
    });
    expect(misplaced).toEqual([]);
  });

  it('uses stable slugs, never positions', () => {
    for (const clause of clauses) expect(clause.id).not.toMatch(/(^|\.)\d+(\.|$)/);
  });
});
