import { describe, expect, it } from 'vitest';
import { compareReports, renderComparison } from '../../src/report/compare.ts';
import type { Outcome, RunReport } from '../../src/report/model.ts';
import { makeReport } from './fixture.ts';

function withOutcomes(base: RunReport, outcomes: Record<string, Outcome | null>): RunReport {
  const r = structuredClone(base);
  r.clauses = r.clauses
    .filter((c) => outcomes[c.id] !== null)
    .map((c) => (outcomes[c.id] ? { ...c, outcome: outcomes[c.id]! } : c));
  return r;
}

describe('compareReports', () => {
  const base = makeReport();
  // base outcomes: 2.1 pass, 4.1-list-200 pass, 4.1-limit-max fail, 4.1-status-filter pass, 4.1-pagination observe,
  // 4.2-create-201 pass, 4.2-create-400 fail, 4.3 warn, 4.4 skip, 4.5 skip, 5 error, 7 pass, 8 pass
  const oldR = base;
  const newR = withOutcomes(base, {
    '2.1-pet-shape': 'fail', // pass -> fail: newly failing
    '4.1-limit-max': 'pass', // fail -> pass: newly passing
    '4.2-create-400': 'error', // fail -> error: still failing
    '4.3-deprecation-signalled': 'pass', // warn -> pass: newly passing
    '4.1-status-filter': 'warn', // pass -> warn: newly warning
    '5-missing-key-401': 'warn', // error -> warn: newly warning (no longer failing)
    '4.4-store-orders': 'pass', // skip -> pass: other change
    '8-limit-default': null, // removed
  });
  newR.clauses.push({ ...newR.clauses[0]!, id: '9-version-prefix', section: '9', outcome: 'fail' });
  newR.clauses.push({ ...newR.clauses[0]!, id: '6-no-events', section: '6', outcome: 'pass' });
  const result = compareReports(oldR, newR);
  const ids = (list: { clause: string }[]): string[] => list.map((c) => c.clause);

  it('sorts every clause into exactly one list', () => {
    expect(ids(result.newlyFailing)).toEqual(['2.1-pet-shape', '9-version-prefix']);
    expect(result.newlyFailing[1]!.before).toBeNull();
    expect(ids(result.stillFailing)).toEqual(['4.2-create-400']);
    expect(ids(result.newlyPassing)).toEqual(['4.1-limit-max', '4.3-deprecation-signalled']);
    expect(ids(result.newlyWarning)).toEqual(['4.1-status-filter', '5-missing-key-401']);
    expect(ids(result.otherChanges)).toEqual(['4.4-store-orders']);
    expect(ids(result.added)).toEqual(['6-no-events']);
    expect(ids(result.removed)).toEqual(['8-limit-default']);
    expect(ids(result.unchanged)).toEqual(['4.1-list-200', '4.1-pagination', '4.2-create-201', '4.5-message-queued', '7-error-shape']);
    expect(result.exitCode).toBe(1);
    const all = [result.newlyFailing, result.stillFailing, result.newlyPassing, result.newlyWarning, result.noLongerChecked, result.otherChanges, result.added, result.removed, result.unchanged].flat();
    expect(all.length).toBe(Object.keys(result.byClause).length);
    expect(new Set(ids(all)).size).toBe(all.length);
    expect(result.byClause['4.2-create-400']).toMatchObject({ before: 'fail', after: 'error', beforeCategory: 'failing', afterCategory: 'failing' });
  });

  it('reports no regression for identical runs', () => {
    const same = compareReports(base, makeReport());
    expect(same.newlyFailing).toEqual([]);
    expect(same.exitCode).toBe(0);
    expect(same.stillFailing.map((c) => c.clause)).toEqual(['4.1-limit-max', '4.2-create-400', '5-missing-key-401']);
    expect(same.unchanged.length).toBe(base.clauses.length - 3);
    expect(renderComparison(same)).toContain('## Comparison: no new failures');
  });

  it('renders the changes', () => {
    const text = renderComparison(result);
    expect(text).toContain('## Comparison: 2 newly failing clauses');
    expect(text).toContain('### Newly failing (2)');
    expect(text).toContain('- 2.1-pet-shape (§2.1, MUST) A returned Pet has id, name and categoryId: pass → fail');
    expect(text).toContain('- 9-version-prefix (§9, MUST) A returned Pet has id, name and categoryId: absent → fail');
    expect(text).toContain('### Newly warning (2)');
    expect(text).toContain('- 5-missing-key-401 (§5, MUST) A missing key yields 401 with an Error body: error → warn');
    expect(text).toContain('### Newly passing (2)');
    expect(text).toContain('### Removed clauses (1)');
    expect(text).toContain('Unchanged: 5 clauses.');
  });

  it('flags a spec version change', () => {
    const r = compareReports(base, makeReport({ spec: { title: 'Animal Store Service Specification', version: '1.1.0' } }));
    expect(r.specChanged).toBe(true);
    expect(renderComparison(r)).toContain('the spec version changed (1.0.0 → 1.1.0)');
  });
});

describe('a MUST clause judged before and skipped now', () => {
  const base = makeReport();
  const skipped = (note: string) => [{ check: 'x', clause: 'x', outcome: 'skip' as const, note, judged: 0 }];
  const later = structuredClone(base);
  for (const [id, note] of [
    ['2.1-pet-shape', 'MESSAGES_BASE_URL is not configured'], // MUST pass -> skip
    ['4.2-create-400', 'writes are off against production'], // MUST fail -> skip
    ['4.3-deprecation-signalled', 'deselected (--only/--skip)'], // SHOULD warn -> skip
    ['4.1-pagination', 'MESSAGES_BASE_URL is not configured'], // OBSERVE observe -> skip
  ] as const) {
    const clause = later.clauses.find((c) => c.id === id)!;
    clause.outcome = 'skip';
    clause.checks = skipped(note);
  }
  const result = compareReports(base, later);

  it('is called out in a group of its own, with the reason, and fails the comparison as a regression does', () => {
    expect(result.noLongerChecked.map((c) => [c.clause, c.before, c.after, c.reason])).toEqual([
      ['2.1-pet-shape', 'pass', 'skip', 'MESSAGES_BASE_URL is not configured'],
      ['4.2-create-400', 'fail', 'skip', 'writes are off against production'],
    ]);
    expect(result.otherChanges.map((c) => c.clause)).toEqual(['4.1-pagination', '4.3-deprecation-signalled']);
    expect(result.newlyFailing).toEqual([]);
    expect(result.exitCode).toBe(1);
    const text = renderComparison(result);
    expect(text).toContain('## Comparison: no new failures; 2 MUST clauses no longer checked');
    const group = text.slice(text.indexOf('### No longer checked (2)'), text.indexOf('### Other changes'));
    expect(group).toContain('- 2.1-pet-shape (§2.1, MUST) A returned Pet has id, name and categoryId: pass → skip (MESSAGES_BASE_URL is not configured)');
    expect(group).toContain('- 4.2-create-400 (§4.2, MUST) Missing required fields yield 400: fail → skip (writes are off against production)');
    expect(group).not.toContain('4.1-pagination');
  });

  it('counts a MUST clause judged only in part now as no longer checked, with what it lacked', () => {
    const partial = structuredClone(base);
    const clause = partial.clauses.find((c) => c.id === '2.1-pet-shape')!;
    clause.outcome = 'partial';
    clause.shortfalls = [{ operation: 'getPet', reason: 'not sent: it gave no answer', blockedBy: 'no-answer' }];
    const compared = compareReports(base, partial);
    expect(compared.noLongerChecked.map((c) => [c.clause, c.before, c.after, c.reason])).toEqual([['2.1-pet-shape', 'pass', 'partial', 'getPet: not sent: it gave no answer']]);
    expect(compared.exitCode).toBe(1);
  });

  it('exit code 0 when nothing newly fails and every MUST clause judged before still is', () => {
    expect(compareReports(base, makeReport()).exitCode).toBe(0);
    const observeOnly = structuredClone(base);
    observeOnly.clauses.find((c) => c.id === '4.1-pagination')!.outcome = 'skip';
    expect(compareReports(base, observeOnly).exitCode).toBe(0);
    // A MUST clause checked again is no failure, and one skipped in both runs is unchanged.
    const unchecked = structuredClone(base);
    unchecked.clauses.find((c) => c.id === '2.1-pet-shape')!.outcome = 'skip';
    expect(compareReports(unchecked, base)).toMatchObject({ exitCode: 0, noLongerChecked: [] });
    expect(compareReports(unchecked, unchecked)).toMatchObject({ exitCode: 0, noLongerChecked: [] });
  });
});
