/**
 * Compares two runs clause by clause (matched by clause id). The caller exits with `exitCode`: 1 when
 * a clause newly fails or a MUST clause judged before went unchecked, else 0.
 *
 * Categories: fail and error are `failing`; warn is `warning`; pass is `passing`; skip and observe
 * are `unjudged`; a clause missing from a run is `absent`.
 * Every clause present in either run lands in exactly one list:
 * - newlyFailing: failing now, not failing before (absent included);
 * - stillFailing: failing in both runs;
 * - newlyWarning: warning now, not warning before (a fail that became a warn is listed here);
 * - newlyPassing: passing now, failing or warning before;
 * - noLongerChecked: a MUST clause judged before (pass, fail or error) and skipped, or judged only in
 *   part, now: the new run cannot vouch for it, so this fails the comparison as a new failure does;
 * - added: only in the new run, neither failing nor warning;
 * - removed: only in the old run;
 * - otherChanges: any other change of outcome (pass -> skip, warn -> observe, fail -> skip, …);
 * - unchanged: same outcome in both runs (warn -> warn included).
 */
import type { ClauseResult, Level, Outcome, RunReport } from './model.ts';
import { compareSections } from '../contract/clauses.ts';
import { skipReason } from './grouping.ts';
import { oneLine } from './sanitize.ts';

export type ClauseCategory = 'failing' | 'warning' | 'passing' | 'unjudged' | 'absent';

export interface ClauseChange {
  clause: string;
  section: string;
  title: string;
  level: Level;
  before: Outcome | null;
  after: Outcome | null;
  beforeCategory: ClauseCategory;
  afterCategory: ClauseCategory;
  /** Why the new run skipped or observed it (its first note), when it did. */
  reason?: string;
}

export interface ReportComparison {
  newlyFailing: ClauseChange[];
  stillFailing: ClauseChange[];
  newlyWarning: ClauseChange[];
  newlyPassing: ClauseChange[];
  noLongerChecked: ClauseChange[];
  added: ClauseChange[];
  removed: ClauseChange[];
  otherChanges: ClauseChange[];
  unchanged: ClauseChange[];
  /** Every change above in one map, keyed by clause id. */
  byClause: Record<string, ClauseChange>;
  old: RunIdentity;
  new: RunIdentity;
  /** The spec versions differ: clause ids may not mean the same thing. */
  specChanged: boolean;
  /** 1 when something newly fails or a MUST clause is no longer checked, else 0: what `compare` exits with. */
  exitCode: 0 | 1;
}

export interface RunIdentity {
  target: string;
  specVersion: string;
  toolVersion: string;
  seed: number;
  runs: number;
  startedAt: string;
  verdict: 'pass' | 'fail';
}

export function categoryOf(outcome: Outcome | null): ClauseCategory {
  switch (outcome) {
    case null:
      return 'absent';
    case 'fail':
    case 'error':
      return 'failing';
    case 'warn':
      return 'warning';
    case 'pass':
      return 'passing';
    case 'partial':
    case 'skip':
    case 'observe':
      return 'unjudged';
  }
}

function identity(r: RunReport): RunIdentity {
  return {
    target: r.target.baseUrl,
    specVersion: r.spec.version,
    toolVersion: r.tool.version,
    seed: r.seed,
    runs: r.runs,
    startedAt: r.startedAt,
    verdict: r.verdict,
  };
}

function index(report: RunReport): Map<string, ClauseResult> {
  const map = new Map<string, ClauseResult>();
  for (const c of report.clauses) if (!map.has(c.id)) map.set(c.id, c);
  return map;
}

export function compareReports(oldReport: RunReport, newReport: RunReport): ReportComparison {
  const before = index(oldReport);
  const after = index(newReport);
  const result: ReportComparison = {
    newlyFailing: [],
    stillFailing: [],
    newlyWarning: [],
    newlyPassing: [],
    noLongerChecked: [],
    added: [],
    removed: [],
    otherChanges: [],
    unchanged: [],
    byClause: {},
    old: identity(oldReport),
    new: identity(newReport),
    specChanged: oldReport.spec.version !== newReport.spec.version,
    exitCode: 0,
  };
  const ids = [...after.keys(), ...[...before.keys()].filter((id) => !after.has(id))];
  const changes: ClauseChange[] = ids.map((id) => {
    const b = before.get(id);
    const a = after.get(id);
    const meta = (a ?? b)!;
    const beforeOutcome = b?.outcome ?? null;
    const afterOutcome = a?.outcome ?? null;
    const reason = a && (a.outcome === 'skip' || a.outcome === 'observe') ? skipReason(a) : a?.outcome === 'partial' ? a.shortfalls?.map((s) => `${s.operation ?? 'minimum'}: ${s.reason}`).join('; ') : undefined;
    return {
      clause: id,
      section: meta.section,
      title: meta.title,
      level: meta.level,
      before: beforeOutcome,
      after: afterOutcome,
      beforeCategory: categoryOf(beforeOutcome),
      afterCategory: categoryOf(afterOutcome),
      ...(reason === undefined ? {} : { reason }),
    };
  });
  changes.sort((x, y) => compareSections(x.section, y.section) || (x.clause < y.clause ? -1 : x.clause > y.clause ? 1 : 0));
  for (const c of changes) {
    result.byClause[c.clause] = c;
    const bc = c.beforeCategory;
    const ac = c.afterCategory;
    if (ac === 'failing') (bc === 'failing' ? result.stillFailing : result.newlyFailing).push(c);
    else if (ac === 'absent') result.removed.push(c);
    else if (ac === 'warning' && bc !== 'warning') result.newlyWarning.push(c);
    else if (ac === 'passing' && (bc === 'failing' || bc === 'warning')) result.newlyPassing.push(c);
    else if (c.level === 'MUST' && (c.after === 'skip' || c.after === 'partial') && (bc === 'passing' || bc === 'failing')) result.noLongerChecked.push(c);
    else if (bc === 'absent') result.added.push(c);
    else if (c.before === c.after) result.unchanged.push(c);
    else result.otherChanges.push(c);
  }
  result.exitCode = result.newlyFailing.length > 0 || result.noLongerChecked.length > 0 ? 1 : 0;
  return result;
}

function line(c: ClauseChange): string {
  return `- ${c.clause} (§${c.section}, ${c.level}) ${oneLine(c.title, 100)}: ${c.before ?? 'absent'} → ${c.after ?? 'absent'}${c.reason !== undefined ? ` (${oneLine(c.reason, 160)})` : ''}`;
}

/** Plain text that reads well in a terminal and as Markdown. */
export function renderComparison(result: ReportComparison): string {
  const out: string[] = [];
  const failing = result.newlyFailing.length;
  const unchecked = result.noLongerChecked.length;
  const headline = [
    failing > 0 ? `${failing} newly failing clause${failing === 1 ? '' : 's'}` : 'no new failures',
    ...(unchecked > 0 ? [`${unchecked} MUST clause${unchecked === 1 ? '' : 's'} no longer checked`] : []),
  ];
  out.push(`## Comparison: ${headline.join('; ')}`);
  out.push('');
  out.push(`Old: ${result.old.target} · spec ${result.old.specVersion} · tool ${result.old.toolVersion} · seed ${result.old.seed} · ${result.old.startedAt} · ${result.old.verdict}`);
  out.push(`New: ${result.new.target} · spec ${result.new.specVersion} · tool ${result.new.toolVersion} · seed ${result.new.seed} · ${result.new.startedAt} · ${result.new.verdict}`);
  if (result.specChanged) out.push(`Note: the spec version changed (${result.old.specVersion} → ${result.new.specVersion}); clause ids may have moved.`);
  out.push('');
  const block = (title: string, list: ClauseChange[], note?: string): void => {
    if (list.length === 0) return;
    out.push(`### ${title} (${list.length})`, '', ...(note ? [note, ''] : []), ...list.map(line), '');
  };
  block('Newly failing', result.newlyFailing);
  block('No longer checked', result.noLongerChecked, 'MUST clauses the old run judged and the new one skipped: the new run cannot vouch for them.');
  block('Newly warning', result.newlyWarning);
  block('Still failing', result.stillFailing);
  block('Newly passing', result.newlyPassing);
  block('Other changes', result.otherChanges);
  block('Added clauses', result.added);
  block('Removed clauses', result.removed);
  out.push(`Unchanged: ${result.unchanged.length} clause${result.unchanged.length === 1 ? '' : 's'}.`);
  out.push('');
  return out.join('\n');
}
