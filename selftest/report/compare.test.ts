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
  // base outcomes: create.echo pass (§2.1); list.200-pets pass, list.status-filter pass, list.invalid-query-handling observe (§4.1);
  // create.invalid-400 fail, create.location warn (§4.2); get.200-pet pass (§4.3); orders.access skip (§4.4);
  // messages.status-queued skip (§4.5); auth.required error (§5); errors.shape pass (§7); list.limit-max fail, list.limit-default pass (§8)
  const oldR = base;
  const newR = withOutcomes(base, {
    'create.echo': 'fail', // pass -> fail: newly failing
    'list.limit-max': 'pass', // fail -> pass: newly passing
    'create.invalid-400': 'error', // fail -> error: still failing
    'create.location': 'pass', // warn -> pass: newly passing
    'list.status-filter': 'warn', // pass -> warn: newly warning
    'auth.required': 'warn', // error -> warn: newly warning (no longer failing)
    'orders.access': 'pass', // skip -> pass: other change
    'list.limit-default': null, // removed
  });
  newR.clauses.push({ ...newR.clauses[0]!, id: 'versioning.prefix', section: '9', outcome: 'fail' });
  newR.clauses.push({ ...newR.clauses[0]!, id: 'events.none', section: '6', outcome: 'pass' });
  const result = compareReports(oldR, newR);
  const ids = (list: { clause: string }[]): string[] => list.map((c) => c.clause);

  it('sorts every clause into exactly one list', () => {
    expect(ids(result.newlyFailing)).toEqual(['create.echo', 'versioning.prefix']);
    expect(result.newlyFailing[1]!.before).toBeNull();
    expect(ids(result.stillFailing)).toEqual(['create.invalid-400']);
    expect(ids(result.newlyPassing)).toEqual(['create.location', 'list.limit-max']);
    expect(ids(result.newlyWarning)).toEqual(['list.status-filter', 'auth.required']);
    expect(ids(result.otherChanges)).toEqual(['orders.access']);
    expect(ids(result.added)).toEqual(['events.none']);
    expect(ids(result.removed)).toEqual(['list.limit-default']);
    expect(ids(result.unchanged)).toEqual(['list.200-pets', 'list.invalid-query-handling', 'get.200-pet', 'messages.status-queued', 'errors.shape']);
    expect(result.exitCode).toBe(1);
    const all = [result.newlyFailing, result.stillFailing, result.newlyPassing, result.newlyWarning, result.noLongerChecked, result.otherChanges, result.added, result.removed, result.unchanged].flat();
    expect(all.length).toBe(Object.keys(result.byClause).length);
    expect(new Set(ids(all)).size).toBe(all.length);
    expect(result.byClause['create.invalid-400']).toMatchObject({ before: 'fail', after: 'error', beforeCategory: 'failing', afterCategory: 'failing' });
  });

  it('reports no regression for identical runs', () => {
    const same = compareReports(base, makeReport());
    expect(same.newlyFailing).toEqual([]);
    expect(same.exitCode).toBe(0);
    expect(same.stillFailing.map((c) => c.clause)).toEqual(['create.invalid-400', 'auth.required', 'list.limit-max']);
    expect(same.unchanged.length).toBe(base.clauses.length - 3);
    expect(renderComparison(same)).toContain('## Comparison: no new failures');
  });

  it('renders the changes', () => {
    const text = renderComparison(result);
    expect(text).toContain('## Comparison: 2 newly failing clauses');
    expect(text).toContain('### Newly failing (2)');
    expect(text).toContain('- create.echo (§2.1, MUST) The created Pet carries the submitted fields: pass → fail');
    expect(text).toContain('- versioning.prefix (§9, MUST) The created Pet carries the submitted fields: absent → fail');
    expect(text).toContain('### Newly warning (2)');
    expect(text).toContain('- auth.required (§5, MUST) A missing or invalid key gives 401: error → warn');
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
  const skipped = (id: string, note: string) => [{ check: id, clause: id, outcome: 'skip' as const, note, judged: 0 }];
  const later = structuredClone(base);
  for (const [id, note] of [
    ['create.echo', 'MESSAGES_BASE_URL is not configured'], // MUST pass -> skip
    ['create.invalid-400', 'writes are off against production'], // MUST fail -> skip
    ['create.location', 'deselected (--only/--skip)'], // SHOULD warn -> skip
    ['list.invalid-query-handling', 'MESSAGES_BASE_URL is not configured'], // OBSERVE observe -> skip
  ] as const) {
    const clause = later.clauses.find((c) => c.id === id)!;
    clause.outcome = 'skip';
    clause.checks = skipped(id, note);
  }
  const result = compareReports(base, later);

  it('is called out in a group of its own, with the reason, and fails the comparison as a regression does', () => {
    expect(result.noLongerChecked.map((c) => [c.clause, c.before, c.after, c.reason])).toEqual([
      ['create.echo', 'pass', 'skip', 'MESSAGES_BASE_URL is not configured'],
      ['create.invalid-400', 'fail', 'skip', 'writes are off against production'],
    ]);
    expect(result.otherChanges.map((c) => c.clause)).toEqual(['list.invalid-query-handling', 'create.location']);
    expect(result.newlyFailing).toEqual([]);
    expect(result.exitCode).toBe(1);
    const text = renderComparison(result);
    expect(text).toContain('## Comparison: no new failures; 2 MUST clauses no longer checked');
    const group = text.slice(text.indexOf('### No longer checked (2)'), text.indexOf('### Other changes'));
    expect(group).toContain('- create.echo (§2.1, MUST) The created Pet carries the submitted fields: pass → skip (MESSAGES_BASE_URL is not configured)');
    expect(group).toContain('- create.invalid-400 (§4.2, MUST) An invalid NewPet is refused with 400 (its Error body judged by errors.shape): fail → skip (writes are off against production)');
    expect(group).not.toContain('list.invalid-query-handling');
  });

  it('counts a MUST clause judged only in part now as no longer checked, with what it lacked', () => {
    const partial = structuredClone(base);
    const clause = partial.clauses.find((c) => c.id === 'create.echo')!;
    clause.outcome = 'partial';
    clause.shortfalls = [{ operation: 'getPet', reason: 'not sent: it gave no answer', blockedBy: 'no-answer' }];
    const compared = compareReports(base, partial);
    expect(compared.noLongerChecked.map((c) => [c.clause, c.before, c.after, c.reason])).toEqual([['create.echo', 'pass', 'partial', 'getPet: not sent: it gave no answer']]);
    expect(compared.exitCode).toBe(1);
  });

  it('exit code 0 when nothing newly fails and every MUST clause judged before still is', () => {
    expect(compareReports(base, makeReport()).exitCode).toBe(0);
    const observeOnly = structuredClone(base);
    observeOnly.clauses.find((c) => c.id === 'list.invalid-query-handling')!.outcome = 'skip';
    expect(compareReports(base, observeOnly).exitCode).toBe(0);
    // A MUST clause checked again is no failure, and one skipped in both runs is unchanged.
    const unchecked = structuredClone(base);
    unchecked.clauses.find((c) => c.id === 'create.echo')!.outcome = 'skip';
    expect(compareReports(unchecked, base)).toMatchObject({ exitCode: 0, noLongerChecked: [] });
    expect(compareReports(unchecked, unchecked)).toMatchObject({ exitCode: 0, noLongerChecked: [] });
  });
});
