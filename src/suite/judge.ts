import { COMMON_CHECKS, getCheck, type CheckName, type ContextOf } from '../checks/registry.ts';
import { isNoPetRoute } from '../checks/get.ts';
import { judgeSuccessBody, successBodyOf } from '../checks/success-body.ts';
import type { Verdict } from '../checks/types.ts';
import type { Level } from '../contract/clauses.ts';
import { isWaitedOut } from '../http/retry-after.ts';
import { header, isNoEvidence, jsonBody, type Exchange } from '../http/exchange.ts';
import { bodyPastCapReason, headersPastCapReason, pastJsonBoundReason } from './body-cap.ts';
import { isSelected, onlyFocus } from './selection.ts';
import type { ClauseGate, WorkerContext } from './worker.ts';

/** The checks to judge an exchange with, each with the context it needs, keyed by clause id. */
export type Judgements = { [N in CheckName]?: ContextOf<N> };

/** One check's verdict on an exchange, other than n/a. */
export interface Judged {
  name: CheckName;
  level: Level;
  verdict: Exclude<Verdict, { outcome: 'n/a' }>;
  /** The value of the clause's `minimum.each` field this verdict covers (e.g. the status a filter was judged on). */
  covers?: string;
}

/** What judging one exchange concluded; nothing is recorded yet (see Recorder). */
export interface Verdicts {
  verdicts: Judged[];
  /** Checks a request not sent, or cut short, kept from judging: no evidence either way. */
  unjudged: CheckName[];
  /** Why, where the exchange's failure does not say it (an answer whose body the suite's own cap cut). */
  unjudgedBecause?: string;
  /** Checks a 429 kept from judging (rate limits are not shown, §8). */
  rateLimited: CheckName[];
}

export interface JudgeOptions {
  /** Also judge with the checks applied to every exchange (default true). */
  common?: boolean;
  /** Checks not judged with this clock (a scenario's `removal` side). */
  excluded?: ReadonlyMap<CheckName, string>;
  /** The scenario's own checks: the one a request that got no answer fails, when its judgements name none. */
  declared?: readonly CheckName[];
}

/** A 429 (or a 503 with Retry-After) often comes from a gateway in front of the service: it is judged only as a rate limit (§8). */
const JUDGED_WHEN_RATE_LIMITED: ReadonlySet<CheckName> = new Set(['limits.rate-limit']);

/** An answer whose body the suite's own cap (--max-body) cut is judged on its status alone: a 5xx is one, whatever its body. */
const JUDGED_ON_STATUS_ALONE: ReadonlySet<CheckName> = new Set(['errors.no-5xx']);
/** A listing past a JSON bound is judged on the shape of its outermost value too, where that decides (an object, too many items); n/a leaves them unjudged. */
const JUDGED_ON_TOP_LEVEL: ReadonlySet<CheckName> = new Set(['list.200-pets', 'list.limit-respected', 'list.limit-default', 'list.limit-max']);

/** Whether --only/--skip keep a clause, and its level; worked out once per worker. */
export function clauseGate(ctx: WorkerContext, clauseId: string): ClauseGate {
  let gate = ctx.gates.get(clauseId);
  if (!gate) {
    const clause = ctx.clauses.get(clauseId);
    if (!clause) throw new Error(`check names unknown clause ${clauseId}`);
    const focus = onlyFocus(clause, ctx.config.only);
    gate = { selected: isSelected(clause, ctx.config.only, ctx.config.skip), level: clause.level, ...(focus ? { focus } : {}) };
    ctx.gates.set(clauseId, gate);
  }
  return gate;
}

/** Selected, and on an operation --only leaves it to (an exchange of no named operation is judged as before). */
function inGate(gate: ClauseGate, exchange: Exchange): boolean {
  return gate.selected && (!gate.focus || exchange.operationId === undefined || gate.focus.has(exchange.operationId));
}

/**
 * Judges one exchange with the named checks, then the common ones, without recording anything.
 * A request that got no answer yields one MUST failure (see transportVerdict); one not sent or cut
 * short, no verdict at all.
 */
export function judge(ctx: WorkerContext, exchange: Exchange, judgements: Judgements, options: JudgeOptions = {}): Verdicts {
  const excluded = options.excluded ?? new Map<CheckName, string>();
  const names = Object.keys(judgements) as CheckName[];
  // A router's 404 for a petId that is no int64 answers for no operation (isNoPetRoute): only what holds of any answer is judged.
  const anyAnswer = isNoPetRoute(exchange) ? ANY_ANSWER : undefined;
  if (options.common !== false) for (const name of COMMON_CHECKS) if (!(name in judgements) && (!anyAnswer || anyAnswer.has(name))) names.push(name);
  const judged = names.filter((name) => inGate(clauseGate(ctx, name), exchange) && !excluded.has(name));
  const result: Verdicts = { verdicts: [], unjudged: [], rateLimited: [] };
  // Left out by the settings, it was never the target's to answer: nothing is owed to it either.
  if (exchange.failure?.kind === 'left-out') return result;
  if (isNoEvidence(exchange)) {
    result.unjudged = judged;
    return result;
  }
  // Past the suite's own cap on headers: an answer came, but nothing of it was read.
  if (exchange.failure?.kind === 'headers-too-large') {
    result.unjudged = judged;
    result.unjudgedBecause = headersPastCapReason();
    return result;
  }
  if (exchange.failure) {
    const failed = transportVerdict(ctx, exchange, names, options.declared ?? [], excluded);
    if (failed) result.verdicts.push(failed);
    return result;
  }
  const unread = unreadBecause(exchange, ctx.config.maxBodyBytes);
  const cut = unread !== undefined;
  const partly = (name: CheckName) => JUDGED_ON_STATUS_ALONE.has(name) || (!exchange.response?.truncated && JUDGED_ON_TOP_LEVEL.has(name));
  if (cut) {
    result.unjudged = judged.filter((name) => !partly(name));
    result.unjudgedBecause = unread;
  }
  // Rate limits and availability are not shown (§8): a 429, or a 503 that says when to come back (or
  // one held as a limit), that outlasted the retries says nothing about the rest.
  const rateLimited = (isWaitedOut(exchange.response?.status, header(exchange, 'retry-after')) && exchange.unavailableRested !== true) || exchange.heldAsLimit === true;
  for (const name of cut ? judged.filter(partly) : judged) {
    if (rateLimited && !JUDGED_WHEN_RATE_LIMITED.has(name)) {
      result.rateLimited.push(name);
      continue;
    }
    const judgement = (judgements as Record<string, object | undefined>)[name];
    const verdict = getCheck(name).judge(exchange, judgement ? { ...judgement, env: ctx.env } : ctx.envOnly);
    if (verdict.outcome === 'n/a') {
      if (cut && !JUDGED_ON_STATUS_ALONE.has(name)) result.unjudged.push(name);
      continue;
    }
    const each = ctx.clauses.get(name)?.minimum?.each;
    const covers = each && judgement ? (judgement as Record<string, unknown>)[each.field] : undefined;
    result.verdicts.push({ name, level: clauseGate(ctx, name).level, verdict, ...(covers === undefined ? {} : { covers: String(covers) }) });
  }
  // A success answer to a request its operation's success clause did not judge still owes that clause's body.
  // Only a failure counts: a body of the right shape is no evidence for the rest of the clause (that Pet, that status).
  const success = options.common === false || cut || rateLimited ? undefined : successBodyOf(exchange);
  if (success && !(success.clause in judgements) && inGate(clauseGate(ctx, success.clause), exchange) && !excluded.has(success.clause)) {
    const verdict = judgeSuccessBody(exchange, ctx.env, success);
    if (verdict.outcome === 'fail') result.verdicts.push({ name: success.clause, level: clauseGate(ctx, success.clause).level, verdict });
  }
  return result;
}

/** The common checks that hold of an answer of no operation's: no 5xx, one answer per request, no rate limit read into it. */
const ANY_ANSWER: ReadonlySet<CheckName> = new Set(['errors.no-5xx', 'http.one-answer', 'limits.rate-limit']);

const JSON_LABELLED = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * Why the suite could not read an answer whole, if it could not: a body past --max-body, or a JSON
 * body past a bound of its own reading (src/json/bounds.ts; an extra member may nest deep or hold
 * thousands of items, and the spec allows extra members). Either is the suite's limit, not the
 * target's fault. Only a body labelled JSON counts: a page's script may well hold 1,000 commas.
 */
function unreadBecause(exchange: Exchange, maxBodyBytes: number): string | undefined {
  if (exchange.response?.truncated) return bodyPastCapReason(maxBodyBytes);
  if (!JSON_LABELLED.test(header(exchange, 'content-type')?.trim() ?? '')) return undefined;
  const body = jsonBody(exchange);
  return !body.ok && body.pastBound ? pastJsonBoundReason(body.problem) : undefined;
}

/**
 * A request that got no answer fails one MUST check: the first of the judgement's own, else the
 * first the scenario declares, else a common one (errors.no-5xx only when nothing else is judged).
 */
function transportVerdict(ctx: WorkerContext, exchange: Exchange, names: readonly CheckName[], declared: readonly CheckName[], excluded: ReadonlyMap<CheckName, string>): Judged | undefined {
  const failure = exchange.failure!;
  const judgedMust = (name: CheckName) => {
    const gate = clauseGate(ctx, name);
    return inGate(gate, exchange) && gate.level === 'MUST' && !excluded.has(name);
  };
  const own = (name: CheckName) => !(COMMON_CHECKS as readonly CheckName[]).includes(name);
  // A clause the scenario declares is the request's own only where it covers the request's operation.
  const covers = (name: CheckName) => exchange.operationId === undefined || ctx.clauses.get(name)?.operations.includes(exchange.operationId) !== false;
  const ownMust = names.filter(own).find(judgedMust) ?? declared.filter(own).filter(covers).find(judgedMust);
  const name = ownMust ?? names.find(judgedMust);
  if (!name) return undefined;
  // Where the request's own clause is no MUST, the common one it falls to says why it is named.
  const ownLower = ownMust ? undefined : names.filter(own).find((other) => inGate(clauseGate(ctx, other), exchange) && !excluded.has(other));
  const expected = ownLower ? `an HTTP response (the request is ${ownLower}'s, a ${clauseGate(ctx, ownLower).level}: left unanswered, it fails ${name})` : 'an HTTP response';
  const elapsed = failure.kind === 'timeout' ? ` (given up after ${Math.round(exchange.durationMs)} ms)` : '';
  return { name, level: 'MUST', verdict: { outcome: 'fail', expected, actual: `${failure.kind}: ${failure.message}${elapsed}` } };
}
