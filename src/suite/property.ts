import fc from 'fast-check';
import { stringifyJson } from '../json/lossless.ts';
import { CUT_SHORT_MARK, type FailureEvidence } from '../report/model.ts';
import { ConformanceFailures } from './failure.ts';
import { onReadWaiting, waitingReads } from './read-lag.ts';
import { fnv1a, shareOf, shardReplay, type Shard } from './shard.ts';
import type { WorkerContext } from './worker.ts';

/**
 * A property body in two steps: `send` makes the requests for one input (one at a time) and
 * `receive` judges what came back without sending anything, so the next inputs' requests can be on
 * the wire meanwhile. Inputs must not depend on each other's answers.
 */
export interface Probe<T, R> {
  send: (value: T) => Promise<R>;
  receive: (value: T, result: R) => void;
}

export type PropertyBody<T, R> = ((value: T) => Promise<void>) | Probe<T, R>;

export const BUDGET_RAN_OUT_DURING = `${CUT_SHORT_MARK} during this scenario: its later requests were not sent`;

/** --max-duration ran out: before a scenario began, or during it (no request is sent past it; those out are awaited). */
export class BudgetExhausted extends Error {
  override name = 'BudgetExhausted';
  constructor(during = false) {
    super(during ? BUDGET_RAN_OUT_DURING : `${CUT_SHORT_MARK} before this scenario`);
  }
}

type RecordFailures = (error: ConformanceFailures, replay?: Pick<FailureEvidence, 'counterexample' | 'seed' | 'path' | 'shard'>) => void;

export const PROPERTY_BUDGET_MS = 30_000;

/**
 * fast-check's time limit stopped the property before any run completed: fast-check then reports it
 * failed, with no error and no counterexample. Nothing failed; what its runs judged is recorded.
 */
export const interruptedUnjudged = (details: Pick<fc.RunDetails<unknown>, 'interrupted' | 'errorInstance' | 'counterexamplePath'>) => details.interrupted && details.errorInstance === null && details.counterexamplePath === null;

/** Inputs a pipelined property keeps started beyond its depth while their reads wait out a lag. */
const MAX_INPUTS_WAITING = 64;

const IGNORE = () => undefined;

/** Of the errors of items run side by side, the one to throw: what the target answered outranks what the budget kept back. */
const firstToTell = (rejected: readonly unknown[]): unknown => rejected.find((reason) => !(reason instanceof BudgetExhausted)) ?? rejected[0];

/** Runs a scenario's fast-check properties: seeded from the run's seed, pipelined where given a Probe, failures shrunk and recorded. */
export class PropertyRunner {
  /** Set once --max-duration kept inputs of one of its properties (or sequences) from being sent. */
  cutByBudget = false;

  constructor(
    private readonly ctx: WorkerContext,
    private readonly title: string,
    private readonly recordFailures: RecordFailures,
  ) {}

  private get config() {
    return this.ctx.config;
  }

  /**
   * Runs a property whose body sends and judges. A MUST failure is shrunk, recorded with its
   * counterexample, seed and path, and the scenario goes on; returns whether it held. Given a Probe
   * instead of a body, the inputs are pipelined (see runPipelined).
   */
  async property<T, R>(label: string, arbitrary: fc.Arbitrary<T>, body: PropertyBody<T, R>, options: { runs?: number; examples?: T[]; sampled?: T[] } = {}): Promise<boolean> {
    const remaining = this.config.deadline - Date.now();
    if (remaining <= 0) throw new BudgetExhausted();
    const sequential = typeof body === 'function' ? body : async (value: T) => body.receive(value, await body.send(value));
    const examples = options.examples ?? [];
    const runs = options.runs ?? this.config.runs;
    const seed = this.seedOf(label);
    const timeLimit = Math.min(PROPERTY_BUDGET_MS, remaining);
    const shard = this.config.shard;
    // What fc.sample gives for this label's seed and `runs` (everyCase draws them first).
    const sample = () => options.sampled ?? fc.sample(arbitrary, { seed, numRuns: runs });
    if (shard && shard.count > 1) return this.propertyShare(shard, label, arbitrary, body, { examples, runs, seed, sample });
    // Edge values first, outside fast-check: its `examples` would map each value back through the
    // arbitrary (a reverse table of all of Unicode for a string), costing about a second per worker.
    // Given a Probe, they lead the same pipeline as the sampled inputs, still one at a time and
    // whatever the time limit, but reads waiting out a lag wait side by side.
    if (typeof body !== 'function') {
      const failure = await this.runPipelined([...examples, ...sample()], body, this.stopAt(), examples.length);
      if (!failure) return true;
      if (failure.index >= examples.length) {
        // The same seed gives fast-check the same inputs: run one by one, it meets the failure again and shrinks it.
        const replayLimit = Math.min(PROPERTY_BUDGET_MS, this.config.deadline - Date.now());
        if (replayLimit > 0 && !(await this.checkProperty(arbitrary, sequential, runs, seed, replayLimit))) return false;
      }
      this.recordFailures(failure.error, { counterexample: stringifyJson(failure.value), ...this.replayData() });
      return false;
    }
    for (const example of examples) {
      try {
        await sequential(example);
      } catch (error) {
        if (!(error instanceof ConformanceFailures)) throw error;
        this.recordFailures(error, { counterexample: stringifyJson(example), ...this.replayData() });
        return false;
      }
    }
    return runs === 0 || this.checkProperty(arbitrary, sequential, runs, seed, timeLimit);
  }

  /**
   * One small property per case (e.g. per rule an invalid input can break), so every case is
   * visited whatever the random draw (`runs` draws of each; by default a fifth of --runs); returns whether all held.
   */
  async everyCase<T, R>(label: string, cases: readonly fc.Arbitrary<T>[], body: PropertyBody<T, R>, options: { runs?: number } = {}): Promise<boolean> {
    const runs = options.runs ?? Math.max(1, Math.ceil(this.config.runs / 5));
    const one = (arbitrary: fc.Arbitrary<T>, index: number) => {
      const name = `${label} #${index}`;
      // A case of few values (an fc.constant) would send the same request again and again: each once.
      const drawn = fc.sample(arbitrary, { seed: this.seedOf(name), numRuns: runs });
      const distinct = [...new Map(drawn.map((value) => [stringifyJson(value), value])).values()];
      const plan = distinct.length < drawn.length ? { runs: 0, examples: distinct } : { runs, sampled: drawn };
      return this.property(name, arbitrary, body, plan);
    };
    // The cases are independent: far from the target they wait side by side (the client caps what is in flight).
    const held: boolean[] = [];
    await this.forEach(cases, async (arbitrary, index) => (held[index] = await one(arbitrary, index)));
    return held.every(Boolean);
  }

  /**
   * With --shard i/n: this shard's share of the inputs one run would send (shareOf), edge examples
   * among them, pipelined as property() does. A failure among the drawn inputs is met again and
   * shrunk alone, at its place in the seed's stream (fast-check's path), never by resending the
   * other shards' inputs.
   */
  private async propertyShare<T, R>(
    shard: Shard,
    label: string,
    arbitrary: fc.Arbitrary<T>,
    body: PropertyBody<T, R>,
    { examples, runs, seed, sample }: { examples: T[]; runs: number; seed: number; sample: () => T[] },
  ): Promise<boolean> {
    const all = [...examples, ...(runs > 0 ? sample() : [])];
    const mine = shareOf(all.length, shard, `${this.title}:${label}`);
    const edges = mine.filter((k) => k < examples.length).length;
    const sequential = typeof body === 'function';
    const probe: Probe<T, unknown> = sequential ? { send: body, receive: () => undefined } : (body as Probe<T, unknown>);
    // A plain body goes one input at a time, as fc.check would run it (and, unlike fc.check, past
    // the time limit: every scenario in tests/ gives a Probe, so none is so run today).
    const failure = await this.runPipelined(mine.map((k) => all[k]!), probe, this.stopAt(), sequential ? mine.length : edges);
    if (!failure) return true;
    const at = mine[failure.index]! - examples.length;
    if (at >= 0) {
      const replayLimit = Math.min(PROPERTY_BUDGET_MS, this.config.deadline - Date.now());
      const run = typeof body === 'function' ? body : async (value: T) => body.receive(value, await body.send(value));
      if (replayLimit > 0 && !(await this.checkProperty(arbitrary, run, 1, seed, replayLimit, String(at)))) return false;
    }
    this.recordFailures(failure.error, { counterexample: stringifyJson(failure.value), ...this.replayData(), ...(at >= 0 ? { path: String(at) } : {}) });
    return false;
  }

  /** What replays a failure: the run's seed (every property's own derives from it) and, with --shard, the shard that met it. */
  replayData(): Pick<FailureEvidence, 'seed' | 'shard'> {
    return { seed: this.config.seed, ...shardReplay(this.config) };
  }

  /**
   * Runs `body` for each item: near the target in turn, far from it side by side (the items must not
   * depend on each other). Every body is awaited before it returns; the first that threw rethrows.
   */
  async forEach<T>(items: readonly T[], body: (item: T, index: number) => Promise<unknown>): Promise<void> {
    if (!this.config.concurrent) {
      for (const [index, item] of items.entries()) await body(item, index);
      return;
    }
    const settled = await Promise.allSettled(items.map((item, index) => body(item, index)));
    const rejected = settled.filter((result) => result.status === 'rejected').map((result) => result.reason as unknown);
    if (rejected.length) throw firstToTell(rejected);
  }

  /**
   * As forEach, but near the target another item starts whenever every item running waits out a
   * read lag (src/suite/read-lag.ts), as a pipelined property's next inputs do: a wait holds no
   * request on the wire. Against a target that shows its writes at once, one item after another.
   */
  async forEachOverLag<T>(items: readonly T[], body: (item: T, index: number) => Promise<unknown>): Promise<void> {
    if (this.config.concurrent) return this.forEach(items, body);
    let next = 0;
    let running = 0;
    const rejected: unknown[] = [];
    let finished = false;
    await new Promise<void>((resolve) => {
      const launch = () => {
        while (rejected.length === 0 && next < items.length && running - waitingReads(this.ctx) < 1) {
          const index = next++;
          running++;
          body(items[index]!, index)
            .catch((reason: unknown) => rejected.push(reason))
            .finally(() => {
              running--;
              launch();
            });
        }
        if (running === 0 && !finished) {
          finished = true;
          stopListening();
          resolve();
        }
      };
      const stopListening = onReadWaiting(this.ctx, launch);
      launch();
    });
    if (rejected.length) throw firstToTell(rejected);
  }

  /** When a pipelined property stops sending: after PROPERTY_BUDGET_MS, or at the run's deadline, exactly, if that comes first. */
  private stopAt(): number {
    return Math.min(this.config.deadline, Date.now() + PROPERTY_BUDGET_MS);
  }

  /** A property's own seed, derived from the run's: `--seed` regenerates every property's inputs. */
  seedOf(label: string): number {
    return fnv1a(`${this.config.seed}:${this.title}:${label}`) | 0;
  }

  /** `path`: start at that input of the seed's stream (a shard's failure), else at the first. */
  private async checkProperty<T>(arbitrary: fc.Arbitrary<T>, body: (value: T) => Promise<void>, runs: number, seed: number, timeLimit: number, path?: string): Promise<boolean> {
    // An input whose requests the budget kept back judged nothing: it holds, so no shrinking takes it for a failure.
    const unlessOutOfTime = async (value: T) => {
      try {
        await body(value);
      } catch (error) {
        if (!(error instanceof BudgetExhausted)) throw error;
        this.cutByBudget = true;
      }
    };
    const details = await fc.check(fc.asyncProperty(arbitrary, unlessOutOfTime), {
      numRuns: runs,
      seed,
      ...(path === undefined ? {} : { path }),
      interruptAfterTimeLimit: timeLimit,
      markInterruptAsFailure: false,
    });
    if (details.interrupted && timeLimit < PROPERTY_BUDGET_MS) this.cutByBudget = true;
    if (!details.failed || interruptedUnjudged(details)) return true;
    const error = details.errorInstance;
    if (!(error instanceof ConformanceFailures)) throw error;
    this.recordFailures(error, {
      counterexample: details.counterexample ? stringifyJson(details.counterexample[0]) : undefined,
      // The run's seed: `--seed` with it regenerates this property's inputs (its own seed derives from it).
      ...this.replayData(),
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
    // Near the target the edge values go one at a time; far from it they wait side by side like the rest.
    const first = this.config.concurrent ? depth : 1;
    const room = () => inFlight.length - waitingReads(this.ctx) < (answered < examples ? first : depth) && inFlight.length < depth + MAX_INPUTS_WAITING;
    const fill = () => {
      while (room() && more()) launch();
    };
    // Every request still out is awaited, each answer let go of as it comes: Promise.allSettled would hold them all until the last.
    const drain = async () => {
      while (inFlight.length) await inFlight.shift()!.then(IGNORE, IGNORE);
    };
    const stopListening = onReadWaiting(this.ctx, fill);
    try {
      fill();
      for (let i = 0; inFlight.length; i++) {
        let result: R;
        try {
          result = await inFlight.shift()!;
        } catch (error) {
          // An input the budget kept back judges nothing; the answers to the others still count.
          if (error instanceof BudgetExhausted) {
            this.cutByBudget = true;
            continue;
          }
          await drain();
          throw error;
        }
        answered++;
        fill();
        // undici writes a request on a reused connection in the next check phase: let it go out first.
        if (inFlight.length) await new Promise<void>((resolve) => setImmediate(resolve));
        try {
          probe.receive(values[i]!, result);
        } catch (error) {
          await drain();
          if (error instanceof ConformanceFailures) return { error, value: values[i]!, index: i };
          throw error;
        }
      }
      // Stopped by the run's budget, not the property's own PROPERTY_BUDGET_MS (stopAt says which).
      if (sent < values.length && stopAt >= this.config.deadline) this.cutByBudget = true;
      return undefined;
    } finally {
      stopListening();
    }
  }
}
