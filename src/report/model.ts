/** The result of one conformance run: what every report writer reads. */

import type { Clause, Level } from '../contract/clauses.ts';

export type { Level };

/**
 * pass/fail/warn/skip judge the server; partial: nothing failed, but the evidence fell short of what
 * the clause needs (an operation it covers not judged, or less than its minimum; see `shortfalls`);
 * observe records an open choice; error means the engine broke.
 */
export type Outcome = 'pass' | 'fail' | 'warn' | 'partial' | 'skip' | 'observe' | 'error';

/** In the note of a check skipped where 429s were met, for the reader; `blockedBy` says it to code. */
export const RATE_LIMITED_MARK = 'rate limited (429, or 503 with Retry-After)';

/**
 * no-answer: requests of an operation went unanswered, so the later ones were not sent (src/http/health.ts);
 * body-cap: answers were longer than --max-body, the suite's own cap, so only their status was judged;
 * json-bound: JSON answers went past a bound of the suite's own reading (src/json/bounds.ts), so only their status was judged;
 * header-cap: answers' headers were longer than the suite reads (src/http/transport-failure.ts MAX_HEADER_BYTES), so nothing of them was judged;
 * not-listed: a filtered listing showed none of the animals of its status the run knew the store held, so it gave the filter nothing to judge.
 */
export type BlockedBy = 'rate-limit' | 'unknown-category' | 'budget' | 'no-answer' | 'body-cap' | 'json-bound' | 'header-cap' | 'not-listed';

/** Evidence a clause needed and did not get: on an operation, or short of its minimum. */
export interface Shortfall {
  /** The operation not judged (absent: the minimum is not about one operation). */
  operation?: string;
  reason: string;
  /** The target's doing: a gate cannot vouch for the clause (exit 3 for a MUST). */
  blockedBy?: BlockedBy;
  /** The user's choice (writes off, no message host, the removal clock): said, never gating. */
  choice?: boolean;
}

/** How a clause's shortfall begins where --max-duration cut short, or kept from starting, a scenario that judges it (CheckRecord.cutShort). */
export const CUT_SHORT_MARK = 'the run budget (--max-duration) ran out';

/** The note of a clause --only/--skip left out of the run. */
export const DESELECTED_NOTE = 'deselected (--only/--skip)';

export interface RecordedRequest {
  method: string;
  url: string;
  /** Authorization is always masked as `Bearer $API_KEY`. */
  headers: Record<string, string>;
  body?: string;
  /** The body's bytes in hex, only where they are not UTF-8 (`body` writes those bytes `\xHH`). */
  bodyHex?: string;
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
  /** With --shard: the shard (`i/n`) whose run met it; --shard i/n with the seed reproduces it on one machine. */
  shard?: string;
  /** Met by a sequence of calls (a stateful run): the shortest sequence found, step by step; its last step failed. */
  story?: StoryEvidence;
}

/** A failing sequence of calls, shrunk: what each step sent and got, and how to replay it. */
export interface StoryEvidence {
  steps: { call: string; requests: { request: string; answer: string }[] }[];
  /** A curl line per request, in order, the key read from $API_KEY (the ids are those this run was given). */
  curl: string[];
  /** The steps as data: what a regression test (reports/regressions/) replays through the suite. */
  calls: unknown[];
  /** It did not fail again twice in a row when run once more: what earlier sequences left on the shared store may be part of it. */
  unconfirmed?: boolean;
  /** Unconfirmed because --max-duration ran out before it was run again. */
  outOfTime?: boolean;
  /** Its curl lines as a shell script, from the reports folder (`regressions/<clause>-<seed>.sh`): what reproduces it, every step in order. */
  script?: string;
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
  /** The same count per operation. */
  judgedByOperation?: Record<string, number>;
}

/** A failure a --baseline entry accepts: still failing and shown, but not new. */
export interface KnownFailure {
  reason: string;
  /** YYYY-MM-DD: the last day the entry covers it. */
  expires?: string;
}

/** A catalogue clause (spec/clauses.yaml) with what this run found. */
export interface ClauseResult extends Omit<Clause, 'profile'> {
  outcome: Outcome;
  /** Set when the clause fails and an unexpired --baseline entry accepts it. */
  known?: KnownFailure;
  /** Exchanges judged per operation, all its checks together. */
  judgedByOperation?: Record<string, number>;
  /** What the evidence did not reach; a clause that would pass with any is `partial`. */
  shortfalls?: Shortfall[];
  /** What its shortfalls were worked out from besides judgedByOperation, so `merge` can work them out again for shards together. */
  coverage?: ClauseCoverage;
  checks: CheckResult[];
}

/** A clause's evidence beyond its judged counts (src/run/coverage.ts), where there is any. */
export interface ClauseCoverage {
  /** Values of its minimum.each judged. */
  covered?: string[];
  /** Per operation, requests that judged nothing (not sent, or cut short), and why. */
  unjudged?: Record<string, { reason: string; count: number }>;
  /** The first skip the target is to blame for. */
  blocked?: { reason: string; blockedBy: BlockedBy };
  /** Per operation, answers handed back rate limited (429, or 503 with Retry-After) in the scenarios that judged it: an operation it did not reach is put down to them. */
  rateLimitedOn?: Record<string, number>;
}

/** Several failing clauses that likely share one cause: one line for the reader, the clauses it explains. */
export interface LikelyCause {
  summary: string;
  clauses: string[];
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
  partial: number;
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
  /** Each scenario that ran: its title, when it began (ms after the run's start), how long it took, and the requests it sent. */
  scenarios?: ScenarioTiming[];
  /** The clock the suite judged dates by, ISO 8601. */
  now: string;
  /** Whether --now (or NOW) set `now`; else it is the time of the run (unset in reports older than this field). */
  nowGiven?: boolean;
  failOn: 'must' | 'should';
  /** The command that runs this run again (the target and the key from the same settings); unset: seed and runs only. */
  replay?: string;
  /**
   * Requests the properties kept in flight, the preflight's round trip (ms) that chose it, rounded to
   * a tenth, and whether the scenarios ran one after another or side by side (unset in older reports).
   */
  pipeline?: { depth: number; roundTripMs?: number; schedule?: 'sequential' | 'concurrent' };
  summary: RunSummary;
  /** Grouped and ordered by section. */
  clauses: ClauseResult[];
  capabilities: Capability[];
  /** Failing clauses grouped by the cause they likely share (two or more clauses each). */
  causes?: LikelyCause[];
  /** Problems of the engine or the transport that are not conformance verdicts. */
  engineErrors: string[];
  verdict: 'pass' | 'fail';
  exitCode: number;
  /** Requests sent, and the 429s and 503s met: what `merge` adds up for the capabilities. */
  traffic?: Traffic;
  /** Set on the report of one shard (--shard i/n). */
  shard?: { index: number; count: number };
  /** Set on a report `merge` made of shards: each shard's run. */
  merged?: { shards: MergedShard[] };
}

export interface Traffic {
  requests: number;
  rateLimited: number;
  unavailable: number;
  /** 429s that carried Retry-After. */
  retryAfter: number;
  /** Requests sent once more after their connection was closed before their answer came (docs/readings.md). */
  resent?: number;
  /** Answers the target sent on a kept-alive connection to no request (HTTP/1.1 answers each request once, in the order the requests came: RFC 9112 §9.3.2). */
  unrequestedAnswers?: number;
  /** 503s without Retry-After after calm answers, sent again with fewer in flight or after a wait (src/http/origin-caps.ts, origin-pace.ts). */
  overloaded?: number;
  /** The lowest rate, requests a second, the suite held an origin to after 503s that waiting cured (src/http/origin-pace.ts). */
  pacedRps?: number;
  /** The fewest connections at a time a host served: a new connection was left unread until an idle one of the suite's was let go (src/http/client.ts stallWatch). */
  servedConnections?: number;
}

export interface MergedShard {
  index: number;
  count: number;
  startedAt: string;
  durationMs: number;
  requests: number;
  /** The command that runs this shard alone, on one machine. */
  replay: string;
}

export interface ScenarioTiming {
  title: string;
  atMs: number;
  ms: number;
  requests: number;
}
