import type fc from 'fast-check';
import { test } from 'vitest';
import { CHECKS, type CheckName } from '../checks/registry.ts';
import { isRemoved } from '../contract/removal.ts';
import { NOT_SENT_PAST_BUDGET, type ClientStats } from '../http/client.ts';
import { isWaitedOut } from '../http/retry-after.ts';
import { isNoEvidence, type Exchange } from '../http/exchange.ts';
import { CUT_SHORT_MARK, type BlockedBy } from '../report/model.ts';
import { ConformanceFailures } from './failure.ts';
import { clauseGate, judge, type JudgeOptions, type Judgements } from './judge.ts';
import { clockExclusions, isWrite, planOf, skipReason, stimulusOf, type ScenarioOptions, type ScenarioPlan } from './plan.ts';
import { BUDGET_RAN_OUT_DURING, BudgetExhausted, PropertyRunner, type PropertyBody } from './property.ts';
import { Recorder, type CheckRecord } from './recorder.ts';
import { replaySteps, runSequences, type SequenceBudget, type SequenceOptions, type SequenceStep } from './sequence.ts';
import { runsHere, shardReplay } from './shard.ts';
import { operationUrl, sendOperation, type SendOptions } from './request.ts';
import { SecondAnswers } from './second-answers.ts';
import { workerContext, type WorkerContext } from './worker.ts';

/** One per worker, as its client is. */
const secondAnswers = new SecondAnswers();

export type { CheckRecord, Judgements, ScenarioOptions, ScenarioPlan, SendOptions };
export type { Probe } from './property.ts';
export type { SequenceStep } from './sequence.ts';
export type { Story } from './story.ts';

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
  /** Requests sent once more after their connection was lost under them (see ClientStats.resent). */
  resent?: number;
  /** Answers the target sent to no request (see ClientStats.unrequestedAnswers). */
  unrequestedAnswers?: number;
  /** 503s without Retry-After after calm answers, sent again (see ClientStats.overloaded). */
  overloaded?: number;
  /** The lowest rate the client had held an origin to when the scenario ended (see HttpClient.pacedRps). */
  pacedRps?: number;
  /** The fewest connections at a time an origin served, by the time the scenario ended (see HttpClient.servedConnections). */
  servedConnections?: number;
  engineError?: string;
  /** With --dry-run: what the scenario would judge, and why it would be skipped (nothing is sent). */
  plan?: ScenarioPlan;
  /** When it began (epoch ms) and how long it took: where a run's time goes. */
  startedAt?: number;
  ms?: number;
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: ScenarioMeta;
  }
}

/**
 * A scenario's first requests, and its requests on an operation until one is answered, may wait out
 * 429s from the client's reserve (OutgoingRequest.reserve): a clause a small scenario judges often
 * rests on one of them, where a property's many requests leave plenty of others.
 */
export const RESERVE_FIRST_REQUESTS = 6;

/**
 * What a test in tests/ works with: it sends (send), judges what came back (require inside a
 * property, verify outside one), runs properties, and says why a check could not be judged.
 */
export class Scenario {
  private readonly properties: PropertyRunner;
  /** Why the declared checks no exchange bore on are skipped, when the scenario knows better than "none did". */
  private unjudgedBecause?: { reason: string; blockedBy?: BlockedBy };
  /** What this scenario's own requests met (other scenarios may share the client side by side). */
  readonly stats: Omit<ClientStats, 'waitedMs'> = { sent: 0, rateLimited: 0, gaveUp429: 0, retryAfterSeen: [], unavailable: 0, resent: 0, unrequestedAnswers: 0, answeredAgain: [], overloaded: 0 };
  /** Shared by the scenario's lanes of sequences of calls. */
  private readonly sequenceBudget: SequenceBudget = { failed: false, running: new Set() };
  /** Operations this scenario has an answer on (one not waited out), and its requests so far (RESERVE_FIRST_REQUESTS). */
  private readonly answered = new Set<string>();
  private sends = 0;
  /** Per operation, the answers handed back rate limited (429, or 503 with Retry-After). */
  readonly rateLimitedOn: Record<string, number> = {};
  /** The first request of this scenario not sent, or cut short: why a check it left unjudged was. */
  firstUnanswered?: string;
  /** A request of its own was kept back by --max-duration. */
  private sendCut = false;
  /** The first operation of this scenario left out by the settings (--skip): why, where nothing else bore on a check. */
  firstLeftOut?: string;

  constructor(
    readonly ctx: WorkerContext,
    readonly title: string,
    private readonly recorder: Recorder,
    /** Checks this scenario does not judge with this clock (ScenarioOptions.removal). */
    private readonly excluded: ReadonlyMap<CheckName, string> = new Map(),
    /** The checks the scenario declares, selected: where a request that got no answer is reported. */
    private readonly declared: readonly CheckName[] = [],
    /** ScenarioOptions.critical: its requests go first under the in-flight cap. */
    private readonly critical = false,
    /** Whether it declares writes (ScenarioOptions.writes or writesIfAllowed): the dry run lists only those. */
    private readonly declaresWrites = true,
  ) {
    this.properties = new PropertyRunner(ctx, title, (error, replay) => recorder.recordFailures(error, replay));
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

  /** Why an exchange holds no answer because the settings left its operation out (--skip); undefined for any other. */
  leftOut(exchange: Exchange): string | undefined {
    return exchange.failure?.kind === 'left-out' ? exchange.failure.message : undefined;
  }

  /** Why this operation, a write, is not sent with these settings (writes off, or --skip of it); undefined where it is. */
  writeBlocked(operationId: string): string | undefined {
    if (!this.config.writes) return this.config.writesReason ?? 'writes are off';
    return this.config.skip.includes(operationId) ? `${operationId} is left out (--skip ${operationId})` : undefined;
  }

  /** Whether the clock (--now) has reached the first moment a deprecated operation may be removed (its removal day at UTC+14). */
  isRemoved(operationId: string): boolean {
    return isRemoved(this.contract, operationId, this.now);
  }

  url(operationId: string, path: Record<string, string> = {}, query?: string): string {
    return operationUrl(this.ctx, operationId, path, query);
  }

  async send(operationId: string, options: SendOptions = {}): Promise<Exchange> {
    if (!this.declaresWrites && isWrite(this.contract.operations[operationId])) {
      throw new Error(`${operationId} is a write this scenario does not declare (ScenarioOptions.writes or writesIfAllowed): --dry-run would not list it`);
    }
    if (Date.now() >= this.config.deadline) this.outOfTime();
    const extra: SendOptions = {};
    if (this.critical) extra.critical = true;
    if (this.sends++ < RESERVE_FIRST_REQUESTS || !this.answered.has(operationId)) extra.reserve = true;
    const { exchange, route } = await sendOperation(this.ctx, operationId, { ...options, ...extra }, this.stats);
    if (exchange.failure?.kind === 'not-sent' && exchange.failure.message === NOT_SENT_PAST_BUDGET) this.outOfTime();
    const response = exchange.response;
    if (exchange.failure?.kind === 'left-out') this.firstLeftOut ??= operationId;
    else if (isNoEvidence(exchange)) this.firstUnanswered ??= `${route}: ${exchange.failure!.kind}: ${exchange.failure!.message}`;
    else if (response && (isWaitedOut(response.status, response.headers['retry-after']) || exchange.heldAsLimit)) this.rateLimitedOn[operationId] = (this.rateLimitedOn[operationId] ?? 0) + 1;
    else if (response) this.answered.add(operationId);
    return exchange;
  }

  /**
   * Judges one exchange with the named checks, then the common ones, and records the verdicts; MUST
   * failures are thrown together, so a property stops at them and shrinks its input.
   */
  require(exchange: Exchange, judgements: Judgements, options: Pick<JudgeOptions, 'common'> = {}): void {
    const failures = this.recorder.apply(exchange, judge(this.ctx, exchange, judgements, { ...options, excluded: this.excluded, declared: this.declared }));
    if (exchange.answeredAgain && (options.common !== false || 'http.one-answer' in judgements)) secondAnswers.judgedMarked(exchange);
    if (failures) throw failures;
  }

  /** Judges as require does, outside a property: a MUST failure is recorded and the scenario goes on. Returns whether it held. */
  verify(exchange: Exchange, judgements: Judgements, options?: Pick<JudgeOptions, 'common'>): boolean {
    try {
      this.require(exchange, judgements, options);
      return true;
    } catch (error) {
      if (!(error instanceof ConformanceFailures)) throw error;
      this.recorder.recordFailures(error, shardReplay(this.ctx.config));
      return false;
    }
  }

  /**
   * Awaits every one of `pending` (requests side by side): one --max-duration kept back comes as
   * undefined, the others as they are, to be judged; any other error is thrown once all have settled.
   */
  async allOf<T>(pending: readonly Promise<T>[]): Promise<(T | undefined)[]> {
    const settled = await Promise.allSettled(pending);
    for (const result of settled) if (result.status === 'rejected' && !(result.reason instanceof BudgetExhausted)) throw result.reason;
    return settled.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  }

  /**
   * A follow-up whose requests --max-duration may keep back: undefined where it did, so that the
   * answers before it are still judged (the scenario is marked cut short all the same).
   */
  async unlessOutOfTime<T>(followUp: Promise<T>): Promise<T | undefined> {
    try {
      return await followUp;
    } catch (error) {
      if (error instanceof BudgetExhausted) return undefined;
      throw error;
    }
  }

  /** Whether --max-duration kept any of its requests, or inputs of its properties or sequences, from being sent. */
  get cutByBudget(): boolean {
    return this.sendCut || this.properties.cutByBudget;
  }

  private outOfTime(): never {
    this.sendCut = true;
    this.leaveUnjudged(BUDGET_RAN_OUT_DURING, 'budget');
    throw new BudgetExhausted(true);
  }

  /** See PropertyRunner.property. */
  property<T, R>(label: string, arbitrary: fc.Arbitrary<T>, body: PropertyBody<T, R>, options?: { runs?: number; examples?: T[] }): Promise<boolean> {
    return this.properties.property(label, arbitrary, body, options);
  }

  /** See runSequences: random sequences of steps against a model, a failure shrunk to its story. */
  sequences<M extends object>(label: string, steps: readonly fc.Arbitrary<SequenceStep<M>>[], newModel: () => M, options: SequenceOptions<M>): Promise<boolean> {
    return runSequences(this.properties, this.config.deadline, (error, replay) => this.recorder.recordFailures(error, replay), label, steps, newModel, options, this.sequenceBudget);
  }

  /** See replaySteps: one given sequence, as a regression test replays it. */
  replay<M extends object>(steps: readonly SequenceStep<M>[], newModel: () => M): Promise<boolean> {
    return replaySteps((error, replay) => this.recorder.recordFailures(error, replay), steps, newModel);
  }

  /** See PropertyRunner.forEach: near the target in turn, far from it side by side. */
  forEach<T>(items: readonly T[], body: (item: T, index: number) => Promise<unknown>): Promise<void> {
    return this.properties.forEach(items, body);
  }

  /** See PropertyRunner.forEachOverLag: as forEach, but near the target another item starts while every one running waits out a read lag. */
  forEachOverLag<T>(items: readonly T[], body: (item: T, index: number) => Promise<unknown>): Promise<void> {
    return this.properties.forEachOverLag(items, body);
  }

  /** See PropertyRunner.everyCase. */
  everyCase<T, R>(label: string, cases: readonly fc.Arbitrary<T>[], body: PropertyBody<T, R>, options?: { runs?: number }): Promise<boolean> {
    return this.properties.everyCase(label, cases, body, options);
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

  /**
   * Records that the target kept evidence from a declared check here, whatever else bore on it (a
   * filtered listing that showed none of the animals of its status): a shortfall of the clause is
   * then the target's doing.
   */
  heldBack(name: CheckName, reason: string, blockedBy: BlockedBy): void {
    if (!clauseGate(this.ctx, name).selected) return;
    this.recorder.record(name).heldBack ??= { reason, blockedBy };
  }

  /** Records why a declared check could not be judged here (e.g. too few animals to page), unless something bore on it. */
  skipCheck(name: CheckName, reason: string, blockedBy?: BlockedBy): void {
    // A deselected clause is reported as deselected, whatever the scenario met.
    if (!clauseGate(this.ctx, name).selected) return;
    this.recorder.skip(name, reason, this.stats.gaveUp429, blockedBy);
  }
}

/** One vitest test: a stimulus and the checks that judge what comes back. */
export function scenario(title: string, options: ScenarioOptions, body: (s: Scenario) => Promise<void>): void {
  for (const name of [...options.checks, ...(options.removal?.before ?? []), ...(options.removal?.after ?? [])]) {
    if (!(name in CHECKS)) throw new Error(`scenario "${title}" names unknown check ${name}`);
  }
  test(title, { timeout: 0 }, async ({ task, skip }) => {
    const startedAt = Date.now();
    const ctx = await workerContext();
    // Another shard's share: nothing is recorded, so the merge counts it once.
    if (!ctx.config.plan && !runsHere(ctx.config.shard, title, options.shard === 'inputs')) {
      skip("another shard's share (--shard)");
      return;
    }
    const recorder = new Recorder();
    const records = recorder.records;
    const meta: ScenarioMeta = { scenario: title, declared: [], checks: [], requests: 0, rateLimited: 0, retryAfter: [], unavailable: 0 };
    task.meta.conformance = meta;
    const selected = (name: CheckName) => clauseGate(ctx, name).selected;
    const stimulus = stimulusOf(ctx, options);
    const reached = (name: CheckName) => {
      const focus = clauseGate(ctx, name).focus;
      return !focus || stimulus.length === 0 || stimulus.some((operation) => focus.has(operation));
    };
    const declared = options.checks.filter((name) => selected(name) && reached(name));
    meta.declared = declared;
    const excluded = clockExclusions(ctx, options);
    const s = new Scenario(ctx, title, recorder, excluded, declared, options.critical, options.writes === true || options.writesIfAllowed !== undefined);
    const finish = () => {
      ctx.trail?.close();
      meta.checks = [...records.values()];
      meta.requests = s.stats.sent;
      meta.rateLimited = s.stats.rateLimited;
      meta.unavailable = s.stats.unavailable;
      if (s.stats.resent) meta.resent = s.stats.resent;
      if (s.stats.unrequestedAnswers) meta.unrequestedAnswers = s.stats.unrequestedAnswers;
      if (s.stats.overloaded) meta.overloaded = s.stats.overloaded;
      const paced = ctx.client.pacedRps();
      if (paced !== undefined) meta.pacedRps = paced;
      const served = ctx.client.servedConnections();
      if (served !== undefined) meta.servedConnections = served;
      meta.retryAfter = [...s.stats.retryAfterSeen];
      meta.startedAt = startedAt;
      meta.ms = Date.now() - startedAt;
    };
    if (declared.length === 0) {
      finish();
      skip('deselected by --only/--skip');
      return;
    }
    const reason = skipReason(ctx, options);
    if (ctx.config.plan) {
      meta.plan = planOf(ctx, options, declared, selected, reason, excluded);
      finish();
      skip('dry run: nothing is sent');
      return;
    }
    const budgetLeft = ctx.config.deadline - Date.now();
    if (reason || budgetLeft <= 0) {
      for (const name of declared) {
        const record: CheckRecord = { check: name, clause: name, judged: 0, outcome: 'skip', note: reason ?? 'the run budget (--max-duration) ran out' };
        if (!reason) record.blockedBy = 'budget';
        records.set(name, record);
      }
      finish();
      skip(reason ?? 'the run budget ran out');
      return;
    }
    secondAnswers.started(s.stats);
    let cut = false;
    try {
      await body(s);
    } catch (error) {
      if (error instanceof ConformanceFailures) {
        recorder.recordFailures(error, shardReplay(ctx.config));
      } else if (error instanceof BudgetExhausted) {
        cut = true;
        // Skipped by the clock alone (below): the budget is not why.
        for (const name of declared) if (!excluded.has(name)) s.skipCheck(name, error.message, 'budget');
      } else {
        meta.engineError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        finish();
        throw error;
      }
    } finally {
      secondAnswers.ended(s.stats);
    }
    for (const answered of secondAnswers.due(s.stats, ctx.client.stats.answeredAgain)) s.verify(answered, { 'http.one-answer': {} }, { common: false });
    // Skipped by the clock alone: a 429 the scenario met is not why.
    for (const [name, why] of excluded) if (declared.includes(name)) recorder.skip(name, why, 0);
    // A check nothing bore on, in a scenario some of whose requests were held back, may be down to those.
    const held = s.firstUnanswered === undefined ? undefined : { reason: `requests of this scenario were not sent or cut short (${s.firstUnanswered})`, blockedBy: 'no-answer' as const };
    const leftOut = s.firstLeftOut === undefined ? undefined : `the requests it needs go to ${s.firstLeftOut}, left out by --skip ${s.firstLeftOut}`;
    for (const name of declared) s.skipCheck(name, s.unjudged?.reason ?? held?.reason ?? leftOut ?? 'no exchange in this run bore on this check', s.unjudged?.blockedBy ?? held?.blockedBy);
    // Its own checks judged, but the budget kept its later requests back: not judged in full (those
    // every answer gets are judged on every scenario's answers, and lose no stimulus of their own).
    if (cut || s.cutByBudget) {
      for (const name of declared) {
        const record = records.get(name);
        if (record?.outcome !== undefined && record.outcome !== 'skip' && !excluded.has(name)) record.cutShort = `${CUT_SHORT_MARK} during "${title}": its later requests were not sent`;
      }
    }
    for (const [name, record] of records) {
      if (record.outcome !== undefined) {
        if (record.outcome !== 'skip' && Object.keys(s.rateLimitedOn).length) record.rateLimitedOn = { ...s.rateLimitedOn };
        continue;
      }
      if (record.answers429 || record.unjudged) s.skipCheck(name as CheckName, '');
      else records.delete(name);
    }
    finish();
    if (recorder.hasFailed) {
      const failed = meta.checks.filter((r) => r.outcome === 'fail');
      throw new Error(failed.map((r) => `${r.clause}\n  Expected: ${r.expected}\n  Actual:   ${r.actual}`).join('\n'));
    }
  });
}
