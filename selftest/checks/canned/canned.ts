/**
 * Every check judged on its canned cases (`cases` in its definition, src/checks/<family>.ts): at
 * least one exchange it must pass and one it must fail (MUST and SHOULD clauses), or one it must
 * leave n/a and one it must observe with the right value (OBSERVE clauses). A check without cases
 * does not compile; cases that do not fit the level of its clause fail here.
 */
import { beforeAll, expect, it } from 'vitest';
import { getCheck, type CheckName } from '../../../src/checks/registry.ts';
import type { Case, Cases, JudgeEnv, Verdict } from '../../../src/checks/types.ts';
import { loadClauses } from '../../../src/contract/clauses.ts';
import type { Exchange } from '../../../src/http/exchange.ts';
import { exchange, failed, makeEnv, raw, truncated } from '../helpers.ts';

type Kind = 'pass' | 'fail' | 'na' | 'observe';
const KINDS: readonly Kind[] = ['pass', 'fail', 'na', 'observe'];

const levels = new Map(loadClauses().map((clause) => [clause.id, clause.level]));

let env: JudgeEnv;
beforeAll(async () => {
  env = await makeEnv();
});

/** The env the checks judge with in these tests (set once the tests start). */
export function judgeEnv(): JudgeEnv {
  return env;
}

function judge(name: string, cases: Cases<unknown>, c: Case<unknown>): Verdict {
  const ctx = (c.ctx ?? cases.ctx) as Record<string, unknown>;
  // A case may add to the env (the animals the worker created), never take from it.
  const added = (ctx.env ?? {}) as Partial<JudgeEnv>;
  return getCheck(name).judge(c.ex, { ...ctx, env: { ...env, ...added, ...(c.now ? { now: c.now } : {}) } });
}

function expectVerdict(kind: Kind, c: Case<unknown>, verdict: Verdict): void {
  switch (kind) {
    case 'pass':
      expect(verdict).toEqual({ outcome: 'pass' });
      break;
    case 'na':
      expect(verdict).toEqual({ outcome: 'n/a' });
      break;
    case 'fail':
      expect(verdict.outcome).toBe('fail');
      if (verdict.outcome !== 'fail') return;
      expect(verdict.expected.trim()).not.toBe('');
      expect(verdict.actual.trim()).not.toBe('');
      if (c.actual) expect(verdict.actual).toMatch(c.actual);
      if (c.expected) expect(verdict.expected).toMatch(c.expected);
      break;
    case 'observe':
      expect(verdict.outcome).toBe('observe');
      if (verdict.outcome !== 'observe') return;
      expect(verdict.value).toBe(c.value);
      if (c.detail !== undefined) expect(verdict.detail).toBe(c.detail);
      break;
  }
}

const HOSTILE: [string, () => Exchange][] = [
  ['a transport failure', () => failed('reset', 'socket hang up')],
  ['a truncated body', () => truncated(200, '[{"id":1')],
  ['invalid UTF-8', () => exchange(200, raw(Buffer.from([0x5b, 0xff, 0xfe, 0x5d])))],
  ['a body that is no JSON', () => exchange(201, raw('<html>oops</html>'), { 'content-type': 'text/html' })],
  ['JSON null', () => exchange(202, null)],
  ['a number beyond every double', () => exchange(400, raw('{"code":"x","message":"y","status":1e400}'))],
];

/** The tests of one family: each check's cases, with the kinds its level calls for. */
export function cannedTests(family: Readonly<Record<string, { cases: object }>>): void {
  const entries = Object.entries(family).map(([name, check]) => [name as CheckName, check.cases as Cases<unknown>] as const);

  it.each(entries)('%s: a clause of clauses.yaml, with the cases its level calls for', (name, cases) => {
    const level = levels.get(name);
    expect(level, `${name} in spec/clauses.yaml`).toBeDefined();
    if (level === 'OBSERVE') {
      expect(cases.na?.length ?? 0, 'an exchange it does not bear on').toBeGreaterThan(0);
      expect(cases.observe?.length ?? 0, 'an exchange it records').toBeGreaterThan(0);
      expect(cases.pass ?? [], 'an observation never passes').toEqual([]);
      expect(cases.fail ?? [], 'an observation never fails').toEqual([]);
      for (const c of cases.observe ?? []) expect(c.value, `${c.why}: the value to record`).toBeTypeOf('string');
    } else {
      expect(level === 'MUST' || level === 'SHOULD').toBe(true);
      expect(cases.pass?.length ?? 0, 'an exchange it must pass').toBeGreaterThan(0);
      expect(cases.fail?.length ?? 0, 'an exchange it must fail').toBeGreaterThan(0);
      expect(cases.observe ?? []).toEqual([]);
    }
  });

  const rows = entries.flatMap(([name, cases]) => KINDS.flatMap((kind) => (cases[kind] ?? []).map((c) => ({ name, kind, why: c.why, cases, c }))));
  it.each(rows)('$name $kind: $why', ({ name, kind, cases, c }) => {
    expectVerdict(kind, c, judge(name, cases, c));
  });

  it.each(entries)('%s: judges hostile exchanges without throwing, with a well-formed verdict', (name, cases) => {
    for (const [what, make] of HOSTILE) {
      const verdict = judge(name, cases, { why: what, ex: make() });
      expect(['pass', 'fail', 'n/a', 'observe'], what).toContain(verdict.outcome);
    }
  });
}
