/**
 * Fault isolation per operation: what the client has learnt of each operation on each origin (method
 * and route template), so that one that hangs or breaks costs a bounded time and never stops the
 * requests of the others.
 *
 * An operation that let a request go the whole timeout unanswered is "hung": its later requests get a
 * shortened wait. One that answers within it is judged as usual; one that does not is no evidence,
 * since the server was never given the full timeout. Once the later waits that ended unanswered add
 * up to another timeout, nothing more is sent to the operation. While an origin has answered nothing since one of
 * its operations hung, every request to it gets the shortened wait, and the same sum bounds the
 * origin. Other transport failures (resets, refusals) open a breaker after `breakAfter` in a row,
 * probed again every BREAKER_PROBE_MS.
 */

/** While an operation's breaker is open, one request is let through this often to see if it is back. */
export const BREAKER_PROBE_MS = 5_000;

/** The least a shortened wait lasts, and how many times the operation's slowest answer it allows. */
const SHORT_WAIT_MIN_MS = 1_000;
const SHORT_WAIT_FACTOR = 4;

interface OperationState {
  label: string;
  failuresInARow: number;
  lastFailure?: string;
  openedAt?: number;
  slowestAnswerMs: number;
  /** The full timeout an unanswered request was given, once one was. */
  hungAfterMs?: number;
  /** Shortened waits that ended unanswered, added up. */
  shortWaitsMs: number;
  shortWaits: number;
  /** Why nothing more is sent, once nothing is. */
  givenUp?: string;
}

interface OriginState {
  /** Set when one of its operations hung, cleared by any answer from the origin. */
  silentSince?: number;
  silentShortWaitsMs: number;
  givenUp?: string;
}

export interface SendPlan {
  /** The wait this request gets: the full timeout, or a shortened one. */
  timeoutMs: number;
  shortened: boolean;
}

export type Refusal = { refused: string };

export type Outcome = { answered: true; durationMs: number } | { answered: false; timedOut: boolean; kind: string };

/** The wait of a request to an operation that hung, or to an origin fallen silent: a few times its slowest answer, at most `capMs`. */
function shortWaitWithin(state: OperationState, capMs: number): SendPlan {
  const shortWait = Math.min(capMs, Math.max(SHORT_WAIT_MIN_MS, Math.ceil(state.slowestAnswerMs * SHORT_WAIT_FACTOR)));
  return { timeoutMs: shortWait, shortened: shortWait < capMs };
}

export class OperationHealth {
  private readonly operations = new Map<string, OperationState>();
  private readonly origins = new Map<string, OriginState>();

  constructor(
    private readonly timeoutMs: number,
    private readonly breakAfter: number,
  ) {}

  private operation(origin: string, label: string): OperationState {
    const key = `${origin} ${label}`;
    let state = this.operations.get(key);
    if (!state) {
      state = { label, failuresInARow: 0, slowestAnswerMs: 0, shortWaitsMs: 0, shortWaits: 0 };
      this.operations.set(key, state);
    }
    return state;
  }

  private origin(origin: string): OriginState {
    let state = this.origins.get(origin);
    if (!state) {
      state = { silentShortWaitsMs: 0 };
      this.origins.set(origin, state);
    }
    return state;
  }

  /** How to send the next request of an operation (`label`: its method and route), or why it is not sent. */
  plan(origin: string, label: string, now = Date.now()): SendPlan | Refusal {
    const site = this.origin(origin);
    const state = this.operation(origin, label);
    if (site.givenUp) return { refused: site.givenUp };
    if (state.givenUp) return { refused: state.givenUp };
    if (this.breakAfter > 0 && state.openedAt !== undefined) {
      if (now - state.openedAt < BREAKER_PROBE_MS) {
        return { refused: `${label} failed ${state.failuresInARow} requests in a row (${state.lastFailure ?? 'no answer'}), so it is tried again only every ${BREAKER_PROBE_MS / 1000} s` };
      }
      // One probe; a failure keeps the breaker open for another period.
      state.openedAt = now;
    }
    if (state.hungAfterMs === undefined && site.silentSince === undefined) return { timeoutMs: this.timeoutMs, shortened: false };
    return shortWaitWithin(state, this.timeoutMs);
  }

  /**
   * The plan of a request that waited for its slot after it was made, brought up to date just before
   * it goes out: refused if its operation or origin was given up meanwhile, its wait shortened if
   * one hung or fell silent (a run against a server that stops answering would otherwise give every
   * request queued by then the full timeout). A breaker probe it was given stays its own.
   */
  recheck(origin: string, label: string, plan: SendPlan): SendPlan | Refusal {
    const site = this.origin(origin);
    const state = this.operation(origin, label);
    if (site.givenUp) return { refused: site.givenUp };
    if (state.givenUp) return { refused: state.givenUp };
    if (plan.shortened || (state.hungAfterMs === undefined && site.silentSince === undefined)) return plan;
    return shortWaitWithin(state, plan.timeoutMs);
  }

  /** What came of one request sent as `plan` said. */
  record(origin: string, label: string, plan: SendPlan, outcome: Outcome, now = Date.now()): void {
    const site = this.origin(origin);
    const state = this.operation(origin, label);
    if (outcome.answered) {
      site.silentSince = undefined;
      site.silentShortWaitsMs = 0;
      state.failuresInARow = 0;
      state.openedAt = undefined;
      state.slowestAnswerMs = Math.max(state.slowestAnswerMs, outcome.durationMs);
      return;
    }
    state.lastFailure = outcome.kind;
    if (outcome.timedOut && state.hungAfterMs === undefined && !plan.shortened) {
      state.hungAfterMs = plan.timeoutMs;
      site.silentSince ??= now;
      return;
    }
    if (outcome.timedOut && state.hungAfterMs !== undefined) {
      state.shortWaits++;
      state.shortWaitsMs += plan.timeoutMs;
      if (state.shortWaitsMs >= this.timeoutMs) {
        const later = `${state.shortWaits} later ${state.shortWaits === 1 ? 'request' : 'requests'} (waited ${plan.timeoutMs} ms each)`;
        state.givenUp = `${label} gave no answer within ${state.hungAfterMs} ms, nor to ${later}, so no more of its requests are sent`;
      }
      return;
    }
    if (outcome.timedOut) {
      // Waited on short only because its origin fell silent: the origin's budget, not the operation's.
      site.silentShortWaitsMs += plan.timeoutMs;
      if (site.silentShortWaitsMs >= this.timeoutMs) site.givenUp = `${origin} has answered nothing since a request went ${this.timeoutMs} ms unanswered, nor within later waits adding up to ${site.silentShortWaitsMs} ms, so no more requests are sent to it`;
      return;
    }
    state.failuresInARow++;
    if (this.breakAfter > 0 && state.failuresInARow >= this.breakAfter) state.openedAt ??= now;
  }

  /** The Actual of a request that got no answer within a shortened wait. */
  shortWaitReason(origin: string, label: string, plan: SendPlan): string {
    const state = this.operation(origin, label);
    const why = state.hungAfterMs !== undefined ? `${label} had already let a request go ${state.hungAfterMs} ms unanswered` : `${origin} has answered nothing since a request went ${this.timeoutMs} ms unanswered`;
    return `no answer within ${plan.timeoutMs} ms, a shortened wait (${why}); not judged, since the server was not given the full ${this.timeoutMs} ms`;
  }
}
