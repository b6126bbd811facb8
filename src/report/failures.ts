/**
 * The failures of a check, one per operation, and likewise the warnings of a check of a SHOULD
 * clause: how they are added, capped and read back. Failures are kept in `failures` and
 * `moreFailures`, warnings in `warnings` and `moreWarnings`; both the same way.
 */
import { MAX_FAILURES_PER_CLAUSE, type CheckResult, type FailureEvidence } from './model.ts';

/** A failure's own fields, which a check also carries for its first failure. */
export const FAILURE_FIELDS = ['expected', 'actual', 'evidence', 'counterexample', 'seed', 'path', 'shard', 'story'] as const;
const FIELDS = FAILURE_FIELDS;

/** Where a check keeps its list: failures (outcome fail) or warnings (outcome warn). */
export type ProblemKind = 'failures' | 'warnings';

const MORE = { failures: 'moreFailures', warnings: 'moreWarnings' } as const;

type FailureHolder = Pick<CheckResult, 'failures' | 'moreFailures' | 'warnings' | 'moreWarnings' | (typeof FIELDS)[number]>;

function defined(entry: FailureEvidence): FailureEvidence {
  const out: FailureEvidence = {};
  if (entry.operation !== undefined) out.operation = entry.operation;
  for (const key of FIELDS) if (entry[key] !== undefined) (out as Record<string, unknown>)[key] = entry[key];
  return out;
}

function mirrorFirst(check: FailureHolder, kind: ProblemKind): void {
  const first = check[kind]?.[0];
  if (!first) return;
  for (const key of FIELDS) {
    if (first[key] === undefined) delete check[key];
    else (check as Record<string, unknown>)[key] = first[key];
  }
}

function add(check: FailureHolder, kind: ProblemKind, entry: FailureEvidence, options: { replace: boolean; max?: number }): void {
  const list = (check[kind] ??= []);
  const at = list.findIndex((f) => f.operation === entry.operation);
  if (at >= 0) {
    const keepsCounterexample = entry.counterexample !== undefined || list[at]!.counterexample === undefined;
    if (options.replace && keepsCounterexample) list[at] = defined(entry);
  } else if (list.length < (options.max ?? MAX_FAILURES_PER_CLAUSE)) {
    list.push(defined(entry));
  } else {
    check[MORE[kind]] = (check[MORE[kind]] ?? 0) + 1;
  }
  mirrorFirst(check, kind);
}

/**
 * Adds the failure on one operation to a check. One on an operation already listed replaces it when
 * `replace` (a later failure of the same scenario), unless only the listed one has a shrunk
 * counterexample, and is dropped otherwise; one past `max` entries is only counted in moreFailures.
 * The first entry is mirrored in the check's own fields.
 */
export function addFailure(check: FailureHolder, entry: FailureEvidence, options: { replace: boolean; max?: number }): void {
  add(check, 'failures', entry, options);
}

/** Adds the warning on one operation to a check, as addFailure does a failure (warnings, moreWarnings). */
export function addWarning(check: FailureHolder, entry: FailureEvidence, options: { replace: boolean; max?: number }): void {
  add(check, 'warnings', entry, options);
}

/**
 * Keeps at most `max` failures across a clause's checks, in order, and counts the rest; a failing
 * check keeps its first whatever the others hold, so its own fields and its list agree. Warnings
 * are capped the same way.
 */
export function capClauseFailures(checks: CheckResult[], max = MAX_FAILURES_PER_CLAUSE): void {
  for (const kind of ['failures', 'warnings'] as const) {
    let room = max;
    for (const check of checks) {
      const list = check[kind];
      if (!list?.length) continue;
      const keep = Math.max(1, Math.min(list.length, room));
      if (keep < list.length) {
        check[MORE[kind]] = (check[MORE[kind]] ?? 0) + list.length - keep;
        check[kind] = list.slice(0, keep);
      }
      room = Math.max(0, room - keep);
    }
  }
}

/** Which list a writer shows for a check: its warnings when it warned, else its failures. */
export function problemKind(check: Pick<CheckResult, 'outcome'>): ProblemKind {
  return check.outcome === 'warn' ? 'warnings' : 'failures';
}

/**
 * The failures a writer shows for a check (its warnings, when it warned): its list, else the one its
 * own fields tell.
 */
export function failuresOf(check: CheckResult): FailureEvidence[] {
  const list = check[problemKind(check)];
  if (list?.length) return list;
  return [defined(check)];
}

/** How many operations the check also failed (or warned) on, left out of its list. */
export function moreFailuresOf(check: CheckResult): number {
  return check[MORE[problemKind(check)]] ?? 0;
}

/** The operations the failures name, in order. */
export function operationsOf(failures: readonly FailureEvidence[]): string[] {
  return failures.map((f) => f.operation).filter((o): o is string => o !== undefined);
}

/** The operations a clause's failing checks failed on (`warnings`: its warning checks warned on), in the order met, each once. */
export function problemOperations(checks: readonly CheckResult[], kind: ProblemKind): string[] {
  const outcome = kind === 'warnings' ? 'warn' : 'fail';
  return [...new Set(checks.filter((c) => c.outcome === outcome).flatMap((c) => operationsOf(c[kind] ?? [])))];
}
