/** The failures of a check, one per operation: how they are added, capped and read back. */
import { MAX_FAILURES_PER_CLAUSE, type CheckResult, type FailureEvidence } from './model.ts';

const FIELDS = ['expected', 'actual', 'evidence', 'counterexample', 'seed', 'path'] as const;

type FailureHolder = Pick<CheckResult, 'failures' | 'moreFailures' | (typeof FIELDS)[number]>;

function defined(entry: FailureEvidence): FailureEvidence {
  const out: FailureEvidence = {};
  if (entry.operation !== undefined) out.operation = entry.operation;
  for (const key of FIELDS) if (entry[key] !== undefined) (out as Record<string, unknown>)[key] = entry[key];
  return out;
}

function mirrorFirst(check: FailureHolder): void {
  const first = check.failures?.[0];
  if (!first) return;
  for (const key of FIELDS) {
    if (first[key] === undefined) delete check[key];
    else (check as Record<string, unknown>)[key] = first[key];
  }
}

/**
 * Adds the failure on one operation to a check. One on an operation already listed replaces it when
 * `replace` (a later failure of the same scenario), unless only the listed one has a shrunk
 * counterexample, and is dropped otherwise; one past `max` entries is only counted in moreFailures.
 * The first entry is mirrored in the check's own fields.
 */
export function addFailure(check: FailureHolder, entry: FailureEvidence, options: { replace: boolean; max?: number }): void {
  const list = (check.failures ??= []);
  const at = list.findIndex((f) => f.operation === entry.operation);
  if (at >= 0) {
    const keepsCounterexample = entry.counterexample !== undefined || list[at]!.counterexample === undefined;
    if (options.replace && keepsCounterexample) list[at] = defined(entry);
  } else if (list.length < (options.max ?? MAX_FAILURES_PER_CLAUSE)) {
    list.push(defined(entry));
  } else {
    check.moreFailures = (check.moreFailures ?? 0) + 1;
  }
  mirrorFirst(check);
}

/**
 * Keeps at most `max` failures across a clause's checks, in order, and counts the rest; a failing
 * check keeps its first whatever the others hold, so its own fields and its list agree.
 */
export function capClauseFailures(checks: CheckResult[], max = MAX_FAILURES_PER_CLAUSE): void {
  let room = max;
  for (const check of checks) {
    const list = check.failures;
    if (!list?.length) continue;
    const keep = Math.max(1, Math.min(list.length, room));
    if (keep < list.length) {
      check.moreFailures = (check.moreFailures ?? 0) + list.length - keep;
      check.failures = list.slice(0, keep);
    }
    room = Math.max(0, room - keep);
  }
}

/** The failures a writer shows for a check: its list, else the one its own fields tell. */
export function failuresOf(check: CheckResult): FailureEvidence[] {
  if (check.failures?.length) return check.failures;
  return [defined(check)];
}

/** The operations the failures name, in order. */
export function operationsOf(failures: readonly FailureEvidence[]): string[] {
  return failures.map((f) => f.operation).filter((o): o is string => o !== undefined);
}

/** The operations a clause's failing checks failed on, in the order met, each once. */
export function failedOperations(checks: readonly CheckResult[]): string[] {
  return [...new Set(checks.filter((c) => c.outcome === 'fail').flatMap((c) => operationsOf(c.failures ?? [])))];
}
