/** The result of one conformance run: what every report writer reads. */

import type { Clause } from '../contract/clauses.ts';

export type Level = 'MUST' | 'SHOULD' | 'OBSERVE';

/** pass/fail/warn/skip judge the server; observe records an open choice; error means the engine broke. */
export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'observe' | 'error';

/** In the note of a check skipped where 429s were met, for the reader; `blockedBy` says it to code. */
export const RATE_LIMITED_MARK = 'rate limited (429)';

export type BlockedBy = 'rate-limit' | 'unknown-category' | 'budget';

/** The note of a clause --only/--skip left out of the run. */
export const DESELECTED_NOTE = 'deselected (--only/--skip)';

export interface RecordedRequest {
  method: string;
  url: string;
  /** Authorization is always masked as `Bearer $API_KEY`. */
  headers: Record<string, string>;
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** At most a few KB of the body, decoded as UTF-8. */
  bodyExcerpt: string;
  bodyTruncated: boolean;
}

export interface Evidence {
  request: RecordedRequest;
  /** Absent when the transport failed; see transportError. */
  response?: RecordedResponse;
  transportError?: string;
  /** A copy-paste reproduction that reads the key from $API_KEY. */
  curl: string;
}

/** Failures (and warnings) listed per clause before the rest are only counted (CheckResult.moreFailures, moreWarnings). */
export const MAX_FAILURES_PER_CLAUSE = 10;

/** One operation a check failed on: Expected beside Actual, the exchange, and how to replay it. */
export interface FailureEvidence {
  /** The operationId the request was sent to (its method and path when it had none). */
  operation?: string;
  /** One line each, side by side in every report. */
  expected?: string;
  actual?: string;
  evidence?: Evidence;
  /** The shrunk input fast-check reported, as JSON text. */
  counterexample?: string;
  /** fast-check replay data: run with --seed seed (and path) to reproduce. */
  seed?: number;
  path?: string;
}

/** The judgement of one named check; its own failure fields are those of its first failure. */
export interface CheckResult extends Omit<FailureEvidence, 'operation'> {
  check: string;
  clause: string;
  outcome: Outcome;
  /** Why it was skipped, or what was observed. */
  note?: string;
  /**
   * Skipped for a cause on the target's side, so a gate cannot vouch for it: its 429s, or its
   * refusal of every categoryId tried when none was given (--category-ids).
   */
  blockedBy?: BlockedBy;
  /**
   * With outcome fail: one entry per operation the check failed on, in the order met; the first is
   * also in expected, actual, evidence, counterexample, seed and path above.
   */
  failures?: FailureEvidence[];
  /** Operations it also failed on, left out of failures (at most MAX_FAILURES_PER_CLAUSE per clause). */
  moreFailures?: number;
  /**
   * With outcome warn (a SHOULD clause not met): one entry per operation the check warned on, in the
   * order met, as failures are for a fail; the first is also in expected, actual and evidence above.
   */
  warnings?: FailureEvidence[];
  /** Operations it also warned on, left out of warnings (at most MAX_FAILURES_PER_CLAUSE per clause). */
  moreWarnings?: number;
  /** How many exchanges this check judged. */
  judged: number;
}

/** A failure a --baseline entry accepts: still failing and shown, but not new. */
export interface KnownFailure {
  reason: string;
  /** YYYY-MM-DD: the last day the entry covers it. */
  expires?: string;
}

/** A catalogue clause (spec/clauses.yaml) with what this run found. */
export interface ClauseResult extends Omit<Clause, 'basis'> {
  outcome: Outcome;
  /** Set when the clause fails and an unexpired --baseline entry accepts it. */
  known?: KnownFailure;
  checks: CheckResult[];
}

export interface Capability {
  id: string;
  title: string;
  /** What the server was seen to do, e.g. "present", "absent", "clamps", "400". */
  value: string;
  detail?: string;
}

export interface RunSummary {
  pass: number;
  fail: number;
  warn: number;
  skip: number;
  observe: number;
  error: number;
}

export interface RunReport {
  tool: { name: string; version: string };
  spec: { title: string; version: string };
  target: {
    baseUrl: string;
    messagesBaseUrl: string;
    env: 'production' | 'staging' | 'local';
    embedded: boolean;
  };
  seed: number;
  runs: number;
  /** ISO 8601 */
  startedAt: string;
  durationMs: number;
  /** The clock the suite judged dates by, ISO 8601. */
  now: string;
  /** Whether --now (or NOW) set `now`; else it is the time of the run (unset in reports older than this field). */
  nowGiven?: boolean;
  failOn: 'must' | 'should';
  /** The command that runs this run again (the target and the key from the same settings); unset: seed and runs only. */
  replay?: string;
  /** Requests the properties kept in flight, and the preflight's round trip (ms) that chose it. */
  pipeline?: { depth: number; roundTripMs?: number };
  summary: RunSummary;
  /** Grouped and ordered by section. */
  clauses: ClauseResult[];
  capabilities: Capability[];
  /** Problems of the engine or the transport that are not conformance verdicts. */
  engineErrors: string[];
  verdict: 'pass' | 'fail';
  exitCode: number;
}
