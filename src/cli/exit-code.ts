import { MAX_HEADER_BYTES } from '../http/transport-failure.ts';
import { JSON_BOUNDS } from '../json/bounds.ts';
import type { BlockedBy, ClauseResult, RunReport } from '../report/model.ts';

const n = (count: number) => count.toLocaleString('en-US');
const JSON_BOUNDS_SHOWN = `${n(JSON_BOUNDS.maxDepth)} levels of nesting, ${n(JSON_BOUNDS.maxMembers)} members in an object, ${n(JSON_BOUNDS.maxElements)} elements in an array, ${n(JSON_BOUNDS.maxDigits)} digits in a number`;

/** MUST clauses left unjudged, in whole or in part, for a cause on the target's side: a gate must not pass such a target. */
export interface Unvouched {
  rateLimited: number;
  unknownCategory: number;
  outOfTime: number;
  noAnswer: number;
  bodyCap: number;
  jsonBound: number;
  headerCap: number;
  notListed: number;
}

export function unvouchedClauses(clauses: ClauseResult[]): Unvouched {
  const blocked = (cause: BlockedBy) =>
    clauses.filter(
      (c) => c.level === 'MUST' && ((c.outcome === 'skip' && c.checks.some((k) => k.blockedBy === cause)) || (c.outcome === 'partial' && c.shortfalls?.some((s) => s.blockedBy === cause))),
    ).length;
  return { rateLimited: blocked('rate-limit'), unknownCategory: blocked('unknown-category'), outOfTime: blocked('budget'), noAnswer: blocked('no-answer'), bodyCap: blocked('body-cap'), jsonBound: blocked('json-bound'), headerCap: blocked('header-cap'), notListed: blocked('not-listed') };
}

export function anyUnvouched(unvouched: Unvouched): boolean {
  return Boolean(unvouched.rateLimited || unvouched.unknownCategory || unvouched.outOfTime || unvouched.noAnswer || unvouched.bodyCap || unvouched.jsonBound || unvouched.headerCap || unvouched.notListed);
}

/** A run's exit code (--help lists them): 4 the engine broke, 1 a clause failed the gate, 3 a MUST clause went unjudged through the target's doing, else 0. */
export function runExitCode(engineErrors: number, gateFailures: number, unvouched: Unvouched): number {
  return engineErrors ? 4 : gateFailures > 0 ? 1 : anyUnvouched(unvouched) ? 3 : 0;
}

/**
 * Sets a report's exit code and verdict from the failures that fail the gate (all of them, or with a
 * baseline the new ones): a gate must not pass a target it could not judge for a cause on the
 * target's side either. Returns those unjudged clauses.
 */
export function settleVerdict(report: Pick<RunReport, 'clauses' | 'engineErrors' | 'exitCode' | 'verdict'>, gateFailures: number): Unvouched {
  const unvouched = unvouchedClauses(report.clauses);
  report.exitCode = runExitCode(report.engineErrors.length, gateFailures, unvouched);
  // Only a run that exits 0 ships: not one the engine broke under, nor one that could not judge.
  report.verdict = report.exitCode === 0 ? 'pass' : 'fail';
  return unvouched;
}

/** The lines on stderr that say why a run exits 3, one per cause. */
export function unvouchedLines(unvouched: Unvouched, maxDurationMs: number, maxBodyBytes: number): string[] {
  const { rateLimited, outOfTime, noAnswer, unknownCategory, bodyCap, jsonBound, headerCap, notListed } = unvouched;
  const clauses = (n: number) => `${n} MUST clause${n === 1 ? ' was' : 's were'}`;
  const lines: string[] = [];
  if (rateLimited) {
    lines.push(`animal-store-conformance: rate limited: ${clauses(rateLimited)} skipped, or judged only in part, where the target answered 429 (or 503 with Retry-After), so the run cannot vouch for them (exit 3); lower --max-rps or raise the target's limit\n`);
  }
  if (outOfTime) {
    lines.push(`animal-store-conformance: out of time: ${clauses(outOfTime)} skipped, or judged only in part, because --max-duration (${maxDurationMs} ms) ran out before their requests were sent (none is sent past it), so the run cannot vouch for them (exit 3); raise --max-duration or lower --runs\n`);
  }
  if (noAnswer) {
    lines.push(`animal-store-conformance: no answer: ${clauses(noAnswer)} left unjudged, in whole or in part, because requests of an operation went unanswered and its later ones were not sent (exit 3); see the shortfalls in summary.md or report.json\n`);
  }
  if (bodyCap) {
    lines.push(`animal-store-conformance: body past --max-body: ${clauses(bodyCap)} left unjudged, in whole or in part, because answers were longer than --max-body (${maxBodyBytes} bytes), the suite's own cap, and were judged on their status alone (exit 3); raise --max-body to judge them\n`);
  }
  if (jsonBound) {
    lines.push(`animal-store-conformance: JSON past the suite's bounds: ${clauses(jsonBound)} left unjudged, in whole or in part, because JSON answers went past a bound of the suite's own reading (${JSON_BOUNDS_SHOWN}) and were judged on their status alone (exit 3); the spec fixes no such bound: see the shortfalls in summary.md or report.json\n`);
  }
  if (headerCap) {
    lines.push(`animal-store-conformance: headers past the suite's cap: ${clauses(headerCap)} left unjudged, in whole or in part, because answers carried headers longer than ${MAX_HEADER_BYTES / 1024} KiB, the suite's own cap, and so were not read (exit 3); the spec fixes no such bound: see the shortfalls in summary.md or report.json\n`);
  }
  if (notListed) {
    lines.push(`animal-store-conformance: nothing listed: ${clauses(notListed)} left unjudged, in whole or in part, because a listing filtered by a status showed none of the animals of that status the run had created and a GET still showed holding it, so the filter had nothing to be judged on (exit 3); see the shortfalls in summary.md or report.json\n`);
  }
  if (unknownCategory) {
    lines.push(`animal-store-conformance: no categoryId accepted: ${clauses(unknownCategory)} skipped because the target refused every categoryId tried, so the run cannot vouch for them (exit 3); name categoryIds it accepts with --category-ids\n`);
  }
  return lines;
}
