/** Which clauses a report holds: counted by outcome, grouped by section, and those a reader must be told about. */
import { compareSections } from '../contract/clauses.ts';
import { DESELECTED_NOTE, type CheckResult, type ClauseResult, type Outcome, type RunReport } from './model.ts';
import { sectionLabel, sectionTitle } from './sections.ts';

/** The column order of every count table. */
export const OUTCOMES: readonly Outcome[] = ['pass', 'fail', 'warn', 'partial', 'skip', 'observe', 'error'];

export type OutcomeCounts = Record<Outcome, number>;

export interface SectionGroup {
  section: string;
  /** Heading text without the number ('' when the spec has no heading of that number). */
  title: string;
  /** `§4.1 List animals: GET /pets` */
  label: string;
  clauses: ClauseResult[];
  counts: OutcomeCounts;
}

export function zeroCounts(): OutcomeCounts {
  return { pass: 0, fail: 0, warn: 0, partial: 0, skip: 0, observe: 0, error: 0 };
}

export function countOutcomes(items: readonly { outcome: Outcome }[]): OutcomeCounts {
  const counts = zeroCounts();
  for (const item of items) counts[item.outcome] += 1;
  return counts;
}

export function totalOf(counts: OutcomeCounts): number {
  return OUTCOMES.reduce((sum, o) => sum + counts[o], 0);
}

/** Whether --only/--skip left the clause out of the run. */
export function isDeselected(clause: ClauseResult): boolean {
  return clause.outcome === 'skip' && clause.checks.every((check) => check.note === DESELECTED_NOTE);
}

/** fail and error are failing outcomes (they break the build); warn is a warning. */
export function isFailing(outcome: Outcome): boolean {
  return outcome === 'fail' || outcome === 'error';
}

/** Whether a clause with this outcome fails the run's gate: a failure, or a warning under --fail-on should. */
export function failsGate(outcome: Outcome, failOn: RunReport['failOn']): boolean {
  return isFailing(outcome) || (outcome === 'warn' && failOn === 'should');
}

/** The clauses grouped by section, sections in natural order, clauses in report order. */
export function groupBySection(report: RunReport): SectionGroup[] {
  const bySection = new Map<string, ClauseResult[]>();
  for (const clause of report.clauses) {
    const list = bySection.get(clause.section);
    if (list) list.push(clause);
    else bySection.set(clause.section, [clause]);
  }
  return [...bySection.keys()].sort(compareSections).map((section) => {
    const clauses = bySection.get(section) ?? [];
    return {
      section,
      title: sectionTitle(section),
      label: sectionLabel(section),
      clauses,
      counts: countOutcomes(clauses),
    };
  });
}

/** MUST clauses the run skipped (deselected ones included): no verdict of the run vouches for them. */
export function uncheckedMust(report: RunReport): ClauseResult[] {
  return report.clauses.filter((clause) => clause.level === 'MUST' && clause.outcome === 'skip');
}

/** MUST clauses judged only in part: nothing failed, but the evidence fell short (ClauseResult.shortfalls). */
export function partialMust(report: RunReport): ClauseResult[] {
  return report.clauses.filter((clause) => clause.level === 'MUST' && clause.outcome === 'partial');
}

/** Why a clause was skipped (or what was observed): the first note, else the first recorded Actual. */
export function skipReason(clause: ClauseResult): string | undefined {
  const checks = notableChecks(clause);
  return checks.find((c) => c.note !== undefined)?.note ?? checks.find((c) => c.actual !== undefined)?.actual;
}

/** The checks of a clause that carry the clause's story for a non-passing outcome. */
export function notableChecks(clause: ClauseResult): CheckResult[] {
  if (clause.outcome === 'pass') return [];
  const same = clause.checks.filter((c) => c.outcome === clause.outcome);
  if (same.length > 0) return same;
  return clause.checks.filter((c) => c.outcome !== 'pass');
}
