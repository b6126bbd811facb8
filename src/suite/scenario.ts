import fc from 'fast-check';
import { test } from 'vitest';
import { earliestRemovalText, mayBeRemoved } from '../checks/deprecation.ts';
import { CHECKS, COMMON_CHECKS, getCheck, type CheckName, type ContextOf } from '../checks/registry.ts';
import type { Authorization, OutgoingRequest } from '../http/client.ts';
import { isNoEvidence, type Exchange } from '../http/exchange.ts';
import { stringifyJson } from '../json/lossless.ts';
import { addFailure, addWarning } from '../report/failures.ts';
import { RATE_LIMITED_MARK, type BlockedBy, type CheckResult, type FailureEvidence, type Outcome } from '../report/model.ts';
import { failureOf, operationOf } from './evidence.ts';
import { ConformanceFailures } from './failure.ts';
import { onReadWaiting, waitingReads } from './read-lag.ts';
import { isSelected } from './selection.ts';
import { workerContext, type ClauseGate, type WorkerContext } from './worker.ts';

/** A CheckResult while it is being gathered: no outcome until something bore on it. */
export interface CheckRecord extends Omit<CheckResult, 'outcome'> {
  outcome?: Exclude<Outcome, 'error'>;
  observed?: string[];
  /** Answers that would have borne on it but were 429 (rate limited): they judge nothing. */
  answers429?: number;
  /** Per operation, the exchanges it judged (a verdict other than n/a). */
  byOperation?: Record<string, number>;
  /** Values of the clause's `minimum.each` its verdicts covered (e.g. the status values a filter was judged on). */
  covered?: string[];
  /** Per operation, why requests that would have borne on it judged nothing (not sent, or cut short). */
  unjudged?: Record<string, { reason: string; count: number }>;
}

/** A 429 often comes from a gateway in front of the service: it is judged only as a rate limit (§8). */
const JUDGED_WHEN_RATE_LIMITED: ReadonlySet<CheckName> = new Set(['rate-limit-seen']);

/** What a scenario hands the run's collector through vitest's task.meta. */
export interface ScenarioMeta {
  scenario: string;
  /** The checks the scenario declared, still selected. */
  declared: string[];
  checks: CheckRecord[];
  requests: number;
  rateLimited: number;
  retryAfter: string[];
  /** 503s with Retry-After the client met (see ClientStats.unavailable). */
  unavailable: number;
  engineError?: string;
  /** With --dry-run: what the scenario would judge, and why it would be skipped (nothing is sent). */
  plan?: ScenarioPlan;
}

export interface ScenarioPlan {
  /**
   * Its selected checks, the common ones included (they judge every exchange a scenario makes), each
   * with why it would be skipped, if it would.
   */
  checks: { check: string; clause: string; skipReason?: string }[];
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: ScenarioMeta;
  }
}

export interface ScenarioOptions {
  /** The checks this scenario judges, besides the common ones applied to every exchange. */
  checks: readonly CheckName[];
  /** Creates pets or sends messages: skipped where writes are not allowed. */
  writes?: boolean;
  /** Talks to the message operation: skipped when its base URL is not configured. */
  messages?: boolean;
  /** Its stimulus is this deprecated operation: skipped once the clock is past its removal date. */
  deprecated?: string;
  /**
   * Checks that apply on one side of a deprecated operation's removal date only (§9): `before`
   * ones are skipped once the clock is past it, `after` ones until then; the dry run reads the same.
   */
  removal?: { operationId: string; before?: readonly CheckName[]; after?: readonly CheckName[] };
}

export type Judgements = { [N in CheckName]?: ContextOf<N> };

/**
 * A property body in two steps: `send` makes the requests for one input (one at a time) and
 * `judge` judges what came back without sending anything, so the next inputs' requests can be on
 * the wire meanwhile. Inputs must not depend on each other's answers.
 */
export interface Probe<T, R> {
  send: (value: T) => Promise<R>;
  judge: (value: T, result: R) => void;
}

export interface SendOptions {
  path?: Record<string, string>;
  /** Raw query string, sent as written (so invalid values stay invalid). */
  query?: string;
  body?: string;
  /** null: send no Content-Type. Default application/json when there is a body. */
  contentType?: string | null;
  /** null: send no Authorization. Default: the valid key. */
  authorization?: Authorization | null;
  /** Absolute URL instead of the operation's (e.g. a Location header). */
  url?: string;
  /** Instead of the operation's method (e.g. HEAD). */
  method?: string;
}

/** Per route template, a pattern its paths match (a base URL's prefix before it). */
const ROUTE_PATTERNS = new Map<string, RegExp>();

/** `GET /v1/pets/{petId}` for the operation's template, else the method and the path as sent (an alias probe). */
function routeOf(method: string, template: string, url: string): string {
  let path = template;
  try {
    path = new URL(url).pathname;
  } catch {
    return `${method} ${template}`;
  }
  let pattern = ROUTE_PATTERNS.get(template);
  if (!pattern) {
    pattern = new RegExp(`${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`);
    ROUTE_PATTERNS.set(template, pattern);
  }
  return `${method} ${pattern.test(path) ? template : path}`;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const PROPERTY_BUDGET_MS = 30_000;

/** Inputs a pipelined property keeps started beyond its depth while their reads wait out a lag. */
const MAX_INPUTS_WAITING = 64;

export class Scenario {
  private failures = 0;
  /** By check, the operations it warned on so far: each is listed (or counted past the cap) once. */
  private readonly warnedOn = new Map<string, Set<string>>();
  /** Why the declared checks no exchange bore on are skipped, when the scenario knows better than "none did". */
  private unjudgedBecause?: { reason: string; blockedBy?: BlockedBy };
  /** 429s given up on before this scenario: the ones after it may explain a skip. */
  private readonly gaveUp429AtStart: number;
  /** The first request of this scenario not sent, or cut short: why a check it left unjudged was. */
  firstUnanswered?: string;

  constructor(
    readonly ctx: WorkerContext,
    readonly title: string,
    private readonly records: Map<string, CheckRecord>,
    /** Checks this scenario does not judge with this clock (ScenarioOptions.removal). */
    private readonly excluded: ReadonlyMap<CheckName, string> = new Map(),
    /** The checks the scenario declares, selected: where a request that got no answer is reported. */
    private readonly declared: readonly CheckName[] = [],
  ) {
    this.gaveUp429AtStart = ctx.client.stats.gaveUp429;
  }

  get config() {
    return this.ctx.config;
  }

  get contract() {
    return this.ctx.contract;
  }

  get now(): Date {
    return this.ctx.env.now;
  }

  /** Whether the clock (--now) has reached the first moment a deprecated operation may be removed (its removal day at UTC+14). */
  isRemoved(operationId: string): boolean {
    const removal = removalOf(this.ctx, operationId);
    return removal !== undefined && mayBeRemoved(this.now, removal);
  }

  get hasFailed(): boolean {
    return this.failures > 0;
  }

  validAuthorization(): Authorization {
    return { value: `Bearer ${this.config.apiKey}`, shown: 'Bearer $API_KEY' };
  }

  url(operationId: string, path: Record<string, string> = {}, query?: string): string {
    const op = this.contract.operations[operationId];
    if (!op) throw new Error(`no operation ${operationId}`);
    const base = op.server === 'messages' ? this.config.messagesBaseUrl : `${this.config.baseUrl}/v1`;
    if (!base) throw new Error(`no base URL configured for ${operationId}`);
    const filled = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ''));
    return `${base}${filled}${query ? `?${query}` : ''}`;
  }

  async send(operationId: string, options: SendOptions = {}): Promise<Exchange> {
    const op = this.contract.operations[operationId];
    if (!op) throw new Error(`no operation ${operationId}`);
    // identity: with no Accept-Encoding a server may pick any coding, and the bodies are judged as sent.
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Encoding': 'identity' };
    const contentType = options.contentType === undefined ? (options.body === undefined ? null : 'application/json') : options.contentType;
    if (contentType !== null) headers['Content-Type'] = contentType;
    const request: OutgoingRequest = {
      method: options.method ?? op.method,
      url: options.url ?? this.url(operationId, options.path, options.query),
      headers,
    };
    const authorization = options.authorization === undefined ? this.validAuthorization() : options.authorization;
    if (authorization) request.authorization = authorization;
    if (options.body !== undefined) request.body = options.body;
    const base = op.server === 'messages' ? '' : '/v1';
    request.operation = routeOf(request.method, `${base}${op.path}`, request.url);
    const exchange = await this.ctx.client.send(request);
    exchange.operationId = operationId;
    if (isNoEvidence(exchange)) this.firstUnanswered ??= `${request.operation}: ${exchange.failure!.kind}: ${exchange.failure!.message}`;
    return exchange;
  }

  /**
   * A request that got no answer fails one MUST check: the first of the judgement's own, else the
   * first the scenario declares, else a common one (errors.no-5xx only when nothing else is judged).
   */
  private judgeTransportFailure(exchange: Exchange, failure: NonNullable<Exchange['failure']>, names: readonly CheckName[]): void {
    const judgedMust = (name: CheckName) => {
      const { selected, level } = clauseGate(this.ctx, getCheck(name).clause);
      return selected && level === 'MUST' && !this.excluded.has(name);
    };
    const own = (name: CheckName) => !(COMMON_CHECKS as readonly CheckName[]).includes(name);
    const name = names.filter(own).find(judgedMust) ?? this.declared.filter(own).find(judgedMust) ?? names.find(judgedMust);
    if (!name) return;
    this.countJudged(this.record(name), exchange);
    const elapsed = failure.kind === 'timeout' ? ` (given up after ${Math.round(exchange.durationMs)} ms)` : '';
    throw new ConformanceFailures([{ check: name, clause: getCheck(name).clause, expected: 'an HTTP response', actual: `${failure.kind}: ${failure.message}${elapsed}` }], exchange);
  }

  private countJudged(record: CheckRecord, exchange: Exchange, covers?: string): void {
    record.judged++;
    const operation = operationOf(exchange);
    record.byOperation ??= {};
    record.byOperation[operation] = (record.byOperation[operation] ?? 0) + 1;
    if (covers !== undefined && !(record.covered ??= []).includes(covers)) record.covered.push(covers);
  }

  /** A request not sent, or cut short: each check it would have gone to keeps why, per operation. */
  private noteUnjudged(exchange: Exchange, names: readonly CheckName[]): void {
    const operation = operationOf(exchange);
    for (const name of names) {
      const { selected } = clauseGate(this.ctx, getCheck(name).clause);
      if (!selected || this.excluded.has(name)) continue;
      const record = this.record(name);
      record.unjudged ??= {};
      const entry = (record.unjudged[operation] ??= { reason: `${exchange.failure!.kind}: ${exchange.failure!.message}`, count: 0 });
      entry.count++;
    }
  }

  private record(name: string): CheckRecord {
    let record = this.records.get(name);
    if (!record) {
      record = { check: name, clause: getCheck(name).clause, judged: 0 };
      this.records.set(name, record);
    }
    return record;
  }

  /**
   * Judges one exchange with the named checks, then the common ones. SHOULD failures become
   * warnings and observations are collected; MUST failures are thrown together.
   */
  judge(exchange: Exchange, judgements: Judgements, options: { common?: boolean } = {}): void {
    const names = Object.keys(judgements) as CheckName[];
    if (options.common !== false) for (const name of COMMON_CHECKS) if (!(name in judgements)) names.push(name);
    if (isNoEvidence(exchange)) {
      this.noteUnjudged(exchange, names);
      return;
    }
    if (exchange.failure) {
      this.judgeTransportFailure(exchange, exchange.failure, names);
      return;
    }
    const failures: { check: string; clause: string; expected: string; actual: string }[] = [];
    // Rate limits are not shown (§8): a 429 that outlasted the retries says nothing about the rest.
    const rateLimited = exchange.response?.status === 429;
    for (const name of names) {
      const check = getCheck(name);
      const { selected, level } = clauseGate(this.ctx, check.clause);
      if (!selected || this.excluded.has(name)) continue;
      const record = this.record(name);
      if (rateLimited && !JUDGED_WHEN_RATE_LIMITED.has(name)) {
        record.answers429 = (record.answers429 ?? 0) + 1;
        continue;
      }
      const judgement = (judgements as Record<string, object | undefined>)[name];
      const verdict = check.judge(exchange, judgement ? { ...judgement, env: this.ctx.env } : this.ctx.envOnly);
      if (verdict.outcome === 'n/a') continue;
      const each = this.ctx.clauses.get(check.clause)?.minimum?.each;
      const covers = each && judgement ? (judgement as Record<string, unknown>)[each.field] : undefined;
      this.countJudged(record, exchange, covers === undefined ? undefined : String(covers));
      if (verdict.outcome === 'pass') {
        record.outcome ??= 'pass';
      } else if (verdict.outcome === 'observe') {
        record.outcome = 'observe';
        record.observed ??= [];
        const value = verdict.detail ? `${verdict.value} (${verdict.detail})` : verdict.value;
        if (!record.observed.includes(value) && record.observed.length < 20) record.observed.push(value);
      } else if (level === 'MUST') {
        failures.push({ check: name, clause: check.clause, expected: verdict.expected, actual: verdict.actual });
      } else if (record.outcome !== 'fail') {
        // Every operation it warned on is kept, as a failure is: the first warning on each.
        record.outcome = 'warn';
        const operation = operationOf(exchange);
        const warned = this.warnedOn.get(name) ?? new Set<string>();
        if (!warned.has(operation)) {
          this.warnedOn.set(name, warned.add(operation));
          addWarning(record, failureOf(exchange, verdict), { replace: false });
        }
      }
    }
    if (failures.length) throw new ConformanceFailures(failures, exchange);
  }

  /**
   * Records each failure under its check, one per operation (a later one on the same operation
   * replaces it, unless only the earlier one has a shrunk counterexample). @internal also used by
   * scenario() for failures thrown out of the body.
   */
  recordFailures(error: ConformanceFailures, replay: Pick<FailureEvidence, 'counterexample' | 'seed' | 'path'> = {}): void {
    this.failures++;
    for (const f of error.failures) {
      const record = this.record(f.check);
      record.outcome = 'fail';
      addFailure(record, { ...failureOf(error.exchange, f), ...replay }, { replace: true });
    }
  }

  /**
   * Runs a fast-check property whose body sends and judges. A MUST failure is shrunk, recorded with
   * its counterexample, seed and path, and the scenario goes on; returns whether it held. Given a
   * Probe instead of a body, the inputs are pipelined (see runPipelined).
   */
  async property<T, R>(
    label: string,
    arbitrary: fc.Arbitrary<T>,
    body: ((value: T) => Promise<void>) | Probe<T, R>,
    options: { runs?: number; examples?: T[] } = {},
  ): Promise<boolean> {
    const remaining = this.config.deadline - Date.now();
    if (remaining <= 0) throw new BudgetExhausted();
    const sequential = typeof body === 'function' ? body : async (value: T) => body.judge(value, await body.send(value));
    const examples = options.examples ?? [];
    const runs = options.runs ?? this.config.runs;
    const seed = this.seedOf(label);
    const timeLimit = Math.min(PROPERTY_BUDGET_MS, remaining);
    // Edge values first, outside fast-check: its `examples` would map each value back through the
    // arbitrary (a reverse table of all of Unicode for a string), costing about a second per worker.
    // Given a Probe, they lead the same pipeline as the sampled inputs, still one at a time and
    // whatever the time limit, but reads waiting out a lag wait side by side.
    if (typeof body !== 'function') {
      const failure = await this.runPipelined([...examples, ...fc.sample(arbitrary, { seed, numRuns: runs })], body, Date.now() + timeLimit, examples.length);
      if (!failure) return true;
      if (failure.index >= examples.length) {
        // The same seed gives fast-check the same inputs: run one by one, it meets the failure again and shrinks it.
        const replayLimit = Math.min(PROPERTY_BUDGET_MS, this.config.deadline - Date.now());
        if (replayLimit > 0 && !(await this.checkProperty(arbitrary, sequential, runs, seed, replayLimit))) return false;
      }
      this.recordFailures(failure.error, { counterexample: stringifyJson(failure.value), seed: this.config.seed });
      return false;
    }
    for (const example of examples) {
      try {
        await sequential(example);
      } catch (error) {
        if (!(error instanceof ConformanceFailures)) throw error;
        this.recordFailures(error, { counterexample: stringifyJson(example), seed: this.config.seed });
        return false;
      }
    }
    return runs === 0 || this.checkProperty(arbitrary, sequential, runs, seed, timeLimit);
  }

  /** A property's own seed, derived from the run's: `--seed` regenerates every property's inputs. */
  private seedOf(label: string): number {
    return fnv1a(`${this.config.seed}:${this.title}:${label}`) | 0;
  }

  private async checkProperty<T>(arbitrary: fc.Arbitrary<T>, body: (value: T) => Promise<void>, runs: number, seed: number, timeLimit: number): Promise<boolean> {
    const details = await fc.check(fc.asyncProperty(arbitrary, body), {
      numRuns: runs,
      seed,
      interruptAfterTimeLimit: timeLimit,
      markInterruptAsFailure: false,
    });
    if (!details.failed) return true;
    const error = details.errorInstance;
    if (!(error instanceof ConformanceFailures)) throw error;
    this.recordFailures(error, {
      counterexample: details.counterexample ? stringifyJson(details.counterexample[0]) : undefined,
      // The run's seed: `--seed` with it regenerates this property's inputs (its own seed derives from it).
      seed: this.config.seed,
      path: details.counterexamplePath ?? undefined,
    });
    return false;
  }

  /**
   * Keeps pipelineDepth inputs' requests on the wire (never more than --concurrency) and judges each
   * answer, in input order, while the next ones are out: the judging no longer waits for the
   * network, nor the network for the judging. The first `examples` values (edge values) go one at a
   * time, as they did before they joined the pipeline, and whatever `stopAt` says. An input whose
   * read waits out a lag (src/suite/read-lag.ts) holds no request on the wire meanwhile, so the next
   * inputs go out, up to MAX_INPUTS_WAITING of them ahead. Returns the first MUST failure, its input
   * and the input's index; every request sent is awaited before it returns.
   */
  private async runPipelined<T, R>(values: T[], probe: Probe<T, R>, stopAt: number, examples = 0): Promise<{ error: ConformanceFailures; value: T; index: number } | undefined> {
    const depth = this.config.pipelineDepth;
    const inFlight: Promise<R>[] = [];
    let sent = 0;
    let answered = 0;
    const launch = () => {
      const pending = probe.send(values[sent++]!);
      // Awaited in turn; until then a rejection must not count as unhandled.
      pending.catch(() => undefined);
      inFlight.push(pending);
    };
    const more = () => sent < values.length && (sent < examples || Date.now() < stopAt);
    const room = () => inFlight.length - waitingReads(this.ctx) < (answered < examples ? 1 : depth) && inFlight.length < depth + MAX_INPUTS_WAITING;
    const fill = () => {
      while (room() && more()) launch();
    };
    const stopListening = onReadWaiting(this.ctx, fill);
    try {
      fill();
      for (let i = 0; inFlight.length; i++) {
        let result: R;
        try {
          result = await inFlight.shift()!;
        } catch (error) {
          await Promise.allSettled(inFlight);
          throw error;
        }
        answered++;
        fill();
        // undici writes a request on a reused connection in the next check phase: let it go out first.
        if (inFlight.length) await new Promise<void>((resolve) => setImmediate(resolve));
        try {
          probe.judge(values[i]!, result);
        } catch (error) {
          await Promise.allSettled(inFlight);
          if (error instanceof ConformanceFailures) return { error, value: values[i]!, index: i };
          throw error;
        }
      }
      return undefined;
    } finally {
      stopListening();
    }
  }

  /**
   * One small property per case (e.g. per rule an invalid input can break), so every case is
   * visited whatever the random draw (`runs` draws of each; by default a fifth of --runs); returns whether all held.
   */
  async everyCase<T, R>(label: string, cases: readonly fc.Arbitrary<T>[], body: ((value: T) => Promise<void>) | Probe<T, R>, options: { runs?: number } = {}): Promise<boolean> {
    const runs = options.runs ?? Math.max(1, Math.ceil(this.config.runs / 5));
    let held = true;
    for (const [index, arbitrary] of cases.entries()) {
      const name = `${label} #${index}`;
      // A case of few values (an fc.constant) would send the same request again and again: each once.
      const drawn = fc.sample(arbitrary, { seed: this.seedOf(name), numRuns: runs });
      const distinct = [...new Map(drawn.map((value) => [stringifyJson(value), value])).values()];
      const plan = distinct.length < drawn.length ? { runs: 0, examples: distinct } : { runs };
      held = (await this.property(name, arbitrary, body, plan)) && held;
    }
    return held;
  }

  /** Judges outside a property; a MUST failure is recorded and the scenario goes on. Returns whether it held. */
  check(exchange: Exchange, judgements: Judgements, options?: { common?: boolean }): boolean {
    try {
      this.judge(exchange, judgements, options);
      return true;
    } catch (error) {
      if (!(error instanceof ConformanceFailures)) throw error;
      this.recordFailures(error);
      return false;
    }
  }

  /**
   * Says why the scenario could not send what its declared checks judge (e.g. no categoryId known
   * to be accepted): the reason every one that nothing bore on is skipped with.
   */
  leaveUnjudged(reason: string, blockedBy?: BlockedBy): void {
    this.unjudgedBecause ??= { reason, blockedBy };
  }

  /** What leaveUnjudged was first told, if anything. */
  get unjudged(): { reason: string; blockedBy?: BlockedBy } | undefined {
    return this.unjudgedBecause;
  }

  /** Records why a declared check could not be judged here (e.g. too few animals to page). */
  skipCheck(name: CheckName, reason: string, blockedBy?: BlockedBy): void {
    const record = this.record(name);
    if (record.outcome === undefined) {
      record.outcome = 'skip';
      const limited = this.ctx.client.stats.gaveUp429 - this.gaveUp429AtStart;
      const unjudged = Object.entries(record.unjudged ?? {});
      if (record.answers429) record.note = `every answer that bore on it was ${RATE_LIMITED_MARK}: ${record.answers429}`;
      else if (unjudged.length) record.note = unjudged.map(([operation, { reason, count }]) => `${operation}: ${count} ${count === 1 ? 'request' : 'requests'} judged nothing (${reason})`).join('; ');
      else record.note = limited > 0 ? `${reason}; this scenario was ${RATE_LIMITED_MARK} ${limited} times` : reason;
      if (record.answers429 || limited > 0) record.blockedBy = 'rate-limit';
      else if (unjudged.length) record.blockedBy = 'no-answer';
      else if (blockedBy) record.blockedBy = blockedBy;
    }
  }
}

export class BudgetExhausted extends Error {
  override name = 'BudgetExhausted';
  constructor() {
    super('the run budget (--max-duration) ran out before this scenario');
  }
}

/** Whether --only/--skip keep a clause, and its level; worked out once per worker. */
function clauseGate(ctx: WorkerContext, clauseId: string): ClauseGate {
  let gate = ctx.gates.get(clauseId);
  if (!gate) {
    const clause = ctx.clauses.get(clauseId);
    if (!clause) throw new Error(`check names unknown clause ${clauseId}`);
    gate = { selected: isSelected(clause, ctx.config.only, ctx.config.skip), level: clause.level };
    ctx.gates.set(clauseId, gate);
  }
  return gate;
}

function removalOf(ctx: WorkerContext, operationId: string): Date | undefined {
  const removal = ctx.contract.deprecations.find((d) => d.operationId === operationId)?.removal;
  return removal === undefined ? undefined : new Date(removal);
}

function clockAgainst(ctx: WorkerContext, removal: Date, operationId: string, past: boolean): string {
  const day = (iso: string) => iso.slice(0, 10);
  const now = ctx.config.now.endsWith('T00:00:00.000Z') ? day(ctx.config.now) : ctx.config.now;
  const clock = ctx.config.nowGiven ? `--now ${now}` : `${now}, settable with --now`;
  const start = `${earliestRemovalText(removal)}, when that day begins at UTC+14`;
  return past
    ? `the clock (${clock}) is past the start of the ${day(removal.toISOString())} removal of ${operationId} (${start}), which may be gone`
    : `the clock (${clock}) is before the ${day(removal.toISOString())} removal of ${operationId} (${start})`;
}

/** Why the whole scenario is skipped with these settings: every reason that applies, or undefined. */
function skipReason(ctx: WorkerContext, options: ScenarioOptions): string | undefined {
  const reasons: string[] = [];
  if (options.writes && !ctx.config.writes) reasons.push(ctx.config.writesReason ?? 'writes are not allowed');
  const deprecated = options.deprecated;
  const removal = deprecated ? removalOf(ctx, deprecated) : undefined;
  if (deprecated && removal && mayBeRemoved(ctx.env.now, removal)) reasons.push(clockAgainst(ctx, removal, deprecated, true));
  if (options.messages && !ctx.config.messagesBaseUrl) reasons.push('MESSAGES_BASE_URL is not configured');
  return reasons.length > 0 ? reasons.join('; and ') : undefined;
}

/** The checks ScenarioOptions.removal keeps from being judged with this clock, and why. */
function clockExclusions(ctx: WorkerContext, options: ScenarioOptions): Map<CheckName, string> {
  const excluded = new Map<CheckName, string>();
  const side = options.removal;
  const removal = side ? removalOf(ctx, side.operationId) : undefined;
  if (!side || !removal) return excluded;
  const past = mayBeRemoved(ctx.env.now, removal);
  for (const name of (past ? side.before : side.after) ?? []) excluded.set(name, clockAgainst(ctx, removal, side.operationId, past));
  return excluded;
}

/** One vitest test: a stimulus and the checks that judge what comes back. */
export function scenario(title: string, options: ScenarioOptions, body: (s: Scenario) => Promise<void>): void {
  for (const name of [...options.checks, ...(options.removal?.before ?? []), ...(options.removal?.after ?? [])]) {
    if (!(name in CHECKS)) throw new Error(`scenario "${title}" names unknown check ${name}`);
  }
  test(title, { timeout: 0 }, async ({ task, skip }) => {
    const ctx = await workerContext();
    const records = new Map<string, CheckRecord>();
    const before = { ...ctx.client.stats, retryAfterSeen: ctx.client.stats.retryAfterSeen.length };
    const meta: ScenarioMeta = { scenario: title, declared: [], checks: [], requests: 0, rateLimited: 0, retryAfter: [], unavailable: 0 };
    task.meta.conformance = meta;
    const selected = (name: CheckName) => clauseGate(ctx, getCheck(name).clause).selected;
    const declared = options.checks.filter(selected);
    meta.declared = declared;
    const finish = () => {
      meta.checks = [...records.values()];
      meta.requests = ctx.client.stats.sent - before.sent;
      meta.rateLimited = ctx.client.stats.rateLimited - before.rateLimited;
      meta.unavailable = ctx.client.stats.unavailable - before.unavailable;
      meta.retryAfter = ctx.client.stats.retryAfterSeen.slice(before.retryAfterSeen);
    };
    if (declared.length === 0) {
      finish();
      skip('deselected by --only/--skip');
      return;
    }
    const reason = skipReason(ctx, options);
    const excluded = clockExclusions(ctx, options);
    if (ctx.config.plan) {
      const checks = [...new Set([...declared, ...COMMON_CHECKS.filter(selected)])];
      meta.plan = {
        checks: checks.map((check) => {
          const why = reason ?? excluded.get(check);
          return why === undefined ? { check, clause: getCheck(check).clause } : { check, clause: getCheck(check).clause, skipReason: why };
        }),
      };
      finish();
      skip('dry run: nothing is sent');
      return;
    }
    const budgetLeft = ctx.config.deadline - Date.now();
    if (reason || budgetLeft <= 0) {
      for (const name of declared) {
        const record: CheckRecord = { check: name, clause: getCheck(name).clause, judged: 0, outcome: 'skip', note: reason ?? 'the run budget (--max-duration) ran out' };
        if (!reason) record.blockedBy = 'budget';
        records.set(name, record);
      }
      finish();
      skip(reason ?? 'the run budget ran out');
      return;
    }
    const s = new Scenario(ctx, title, records, excluded, declared);
    try {
      await body(s);
    } catch (error) {
      if (error instanceof ConformanceFailures) {
        s.recordFailures(error);
      } else if (error instanceof BudgetExhausted) {
        for (const name of declared) s.skipCheck(name, error.message, 'budget');
      } else {
        meta.engineError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        finish();
        throw error;
      }
    }
    for (const [name, why] of excluded) if (declared.includes(name)) s.skipCheck(name, why);
    // A check nothing bore on, in a scenario some of whose requests were held back, may be down to those.
    const held = s.firstUnanswered === undefined ? undefined : { reason: `requests of this scenario were not sent or cut short (${s.firstUnanswered})`, blockedBy: 'no-answer' as const };
    for (const name of declared) s.skipCheck(name, s.unjudged?.reason ?? held?.reason ?? 'no exchange in this run bore on this check', s.unjudged?.blockedBy ?? held?.blockedBy);
    for (const [name, record] of records) {
      if (record.outcome !== undefined) continue;
      if (record.answers429 || record.unjudged) s.skipCheck(name as CheckName, '');
      else records.delete(name);
    }
    finish();
    if (s.hasFailed) {
      const failed = meta.checks.filter((r) => r.outcome === 'fail');
      throw new Error(failed.map((r) => `${r.clause} (${r.check})\n  Expected: ${r.expected}\n  Actual:   ${r.actual}`).join('\n'));
    }
  });
}
