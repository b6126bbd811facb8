import fc from 'fast-check';
import type { FailureEvidence } from '../report/model.ts';
import { ConformanceFailures } from './failure.ts';
import { LaneRandom } from './lane-random.ts';
import { BudgetExhausted, interruptedUnjudged, PROPERTY_BUDGET_MS, type PropertyRunner } from './property.ts';
import { Story, type StoryCall } from './story.ts';

/**
 * One step of a stateful run: `call` is the step as plain data (what a regression replays and a
 * story tells); `check` says whether it applies to the model as it stands; `run` sends, judges
 * (s.require: a MUST failure ends the sequence) and updates the model with what came back.
 */
export interface SequenceStep<M extends object> {
  readonly call: StoryCall;
  check(model: Readonly<M>): boolean;
  run(model: M, story: Story): Promise<void>;
}

/** fast-check's command for a step: the story records where each step begins. */
class StepCommand<M extends object> implements fc.AsyncCommand<M, Story> {
  constructor(readonly step: SequenceStep<M>) {}
  check(model: Readonly<M>): boolean {
    return this.step.check(model);
  }
  async run(model: M, story: Story): Promise<void> {
    story.begin(this.step.call, this.step);
    await this.step.run(model, story);
  }
  async runIf(model: M, story: Story): Promise<void> {
    if (this.check(model)) await this.run(model, story);
  }
  toString(): string {
    return this.step.call.says;
  }
}

type RecordFailures = (error: ConformanceFailures, replay?: Pick<FailureEvidence, 'counterexample' | 'seed' | 'path' | 'shard' | 'story'>) => void;

/**
 * Shared by a scenario's lanes of sequences, which may run side by side: a lane whose sequence fails
 * has the others end the sequences they are in and start no other, so that its failure is confirmed
 * (and shrunk) with nothing else sent meanwhile; once one has failed, the others send no more.
 */
export interface SequenceBudget {
  failed: boolean;
  /** The sequences running now, in every lane (not their confirmation). */
  running: Set<Promise<void>>;
  /** Set while a lane confirms a failure: no lane starts a sequence until it settles. */
  confirming?: Promise<void>;
}

export interface SequenceOptions<M extends object> {
  /** How many sequences (fast-check runs), besides those it tries while shrinking. */
  runs: number;
  /**
   * Where in the label's stream of sequences they start (fast-check's run index): lanes that share a
   * label take consecutive slices of one stream, so the sequences drawn are those of one long
   * property, whatever the number of lanes (later runs are less biased toward short ones).
   */
  startAt?: number;
  /** The most steps a sequence has. */
  maxSteps: number;
  /** Run after every sequence (when it applies): the model's last look at what the sequence left. */
  finish?: SequenceStep<M>;
}

/** Sequences run while shrinking a failure, at most: past them the shortest found so far is reported. */
const MAX_SHRINK_RUNS = 100;
/** And the time shrinking may take. */
const MAX_SHRINK_MS = 5_000;

/**
 * Swarm testing (Groce et al., ISSTA 2012): each sequence draws its steps from a random subset of the
 * kinds of step, so that two kinds whose interplay breaks a server meet far more often than among
 * all kinds at once.
 */
function swarm<M extends object>(commands: fc.Arbitrary<StepCommand<M>>[], maxSteps: number): fc.Arbitrary<Iterable<fc.AsyncCommand<M, Story>>> {
  return fc
    .subarray(commands.map((_, index) => index), { minLength: 1 })
    .chain((kinds) => fc.commands(kinds.map((index) => commands[index]!), { maxCommands: maxSteps, size: 'max' }));
}

/**
 * Runs random sequences of steps against a model (fast-check's model-based testing), each from a
 * fresh model over the shared, live store. A MUST failure is shrunk to the shortest sequence
 * fast-check finds and recorded with its story: the steps that sequence sent, the last one failed.
 * Returns whether every sequence held.
 */
export async function runSequences<M extends object>(
  properties: PropertyRunner,
  deadline: number,
  recordFailures: RecordFailures,
  label: string,
  steps: readonly fc.Arbitrary<SequenceStep<M>>[],
  newModel: () => M,
  options: SequenceOptions<M>,
  budget: SequenceBudget = { failed: false, running: new Set() },
): Promise<boolean> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new BudgetExhausted();
  // The first failing sequence that failed twice more in a row when run again: what shrinking starts from.
  let original: { story: Story; error: ConformanceFailures } | undefined;
  // The shortest sequence met while shrinking that failed twice more in a row.
  let shortest: { story: Story; error: ConformanceFailures } | undefined;
  // A failure that did not recur: told only if no other does.
  let unconfirmed: { story: Story; error: ConformanceFailures } | undefined;
  let shrinking: { runs: number; since: number } | undefined;
  // Set once fast-check is done: a sequence it stopped waiting for (past its time limit) starts nothing more.
  let done = false;
  // The sequence fast-check runs now: past the time limit it stops waiting for it, this does not.
  let current: Promise<void> | undefined;
  // Set once --max-duration kept a step's requests back: no sequence sends anything more.
  let outOfTime: BudgetExhausted | undefined;
  const commands = steps.map((arbitrary) => arbitrary.map((step) => new StepCommand(step)));
  const property = fc.asyncProperty(swarm(commands, options.maxSteps), (sequence) => (current = runOne(sequence)));
  const runOne = async (sequence: Iterable<fc.AsyncCommand<M, Story>>): Promise<void> => {
    // Past the shrinking budget a candidate is not run: the shortest failing story found stands.
    if (shrinking && (++shrinking.runs > MAX_SHRINK_RUNS || Date.now() - shrinking.since > MAX_SHRINK_MS)) return;
    if (!shrinking) while (budget.confirming) await budget.confirming;
    // Another lane has failed already: its story is the run's; this lane's remaining sequences are not sent.
    if (done || outOfTime || (!shrinking && budget.failed)) return;
    const story = new Story();
    const model = newModel();
    const ran = (async () => {
      await fc.asyncModelRun(() => ({ model, real: story }), sequence);
      if (options.finish) await new StepCommand(options.finish).runIf(model, story);
    })();
    budget.running.add(ran);
    try {
      await ran;
      return;
    } catch (error) {
      if (error instanceof BudgetExhausted) {
        outOfTime = error;
        return;
      }
      if (!(error instanceof ConformanceFailures)) throw error;
      budget.running.delete(ran);
      let confirmed: (() => void) | undefined;
      if (!shrinking) {
        // A lane confirming a failure of its own first: its verdict comes first.
        while (budget.confirming) await budget.confirming;
        if (budget.failed) return;
        budget.confirming = new Promise<void>((resolve) => (confirmed = resolve));
        await Promise.allSettled(budget.running);
      }
      try {
        // A sequence counts as failing, for fast-check to shrink, only if it fails again twice (see twice).
        const again = await twice(story.sources() as SequenceStep<M>[], newModel).catch((cut: unknown) => {
          if (!(cut instanceof BudgetExhausted)) throw cut;
          outOfTime = cut;
          // Seen to fail once, on the target's own answers: told, as unconfirmed, unless a confirmed one is.
          if (!shrinking && !unconfirmed) {
            story.unconfirmed = 'out-of-time';
            unconfirmed = { story, error };
          }
          return null;
        });
        if (again === null) return;
        if (!again) {
          if (!shrinking) unconfirmed ??= { story, error };
          return;
        }
        if (shrinking) shortest = again;
        else {
          original = again;
          shrinking = { runs: 0, since: Date.now() };
          budget.failed = true;
        }
        throw again.error;
      } finally {
        if (confirmed) {
          budget.confirming = undefined;
          confirmed();
        }
      }
    } finally {
      budget.running.delete(ran);
    }
  };
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed: properties.seedOf(label),
    randomType: LaneRandom.of,
    ...(options.startAt ? { path: String(options.startAt) } : {}),
    interruptAfterTimeLimit: Math.min(PROPERTY_BUDGET_MS, remaining),
    markInterruptAsFailure: false,
  });
  done = true;
  // Stopped between sequences by the run's budget (not PROPERTY_BUDGET_MS): fewer were sent than asked.
  if (details.interrupted && remaining < PROPERTY_BUDGET_MS) properties.cutByBudget = true;
  // A sequence fast-check stopped waiting for may still be confirming a failure: it is told too.
  const late = await current?.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (details.failed && !interruptedUnjudged(details) && !(details.errorInstance instanceof ConformanceFailures)) throw details.errorInstance;
  if (late !== undefined && !(late instanceof ConformanceFailures)) throw late;
  let told = shortest ?? original;
  if (!told && unconfirmed) {
    told = unconfirmed;
    told.story.unconfirmed ||= 'did-not-recur';
  }
  if (told) recordFailures(told.error, { ...properties.replayData(), ...(told === unconfirmed ? {} : { path: details.counterexamplePath ?? undefined }), story: told.story.evidence() });
  // What the budget kept back is skipped as such by the scenario, after any failure seen is told.
  if (outOfTime) throw outOfTime;
  return !told;
}

/**
 * Runs a failing sequence again, and if it fails, once more: the store is shared and live, so what
 * an earlier sequence left behind can make a shorter one fail that alone never would (a refused
 * listing's limit kept for the next); the first run again uses that up. Returns the second failure,
 * or undefined if either run held.
 */
async function twice<M extends object>(steps: readonly SequenceStep<M>[], newModel: () => M): Promise<{ story: Story; error: ConformanceFailures } | undefined> {
  const first = await playOnce(steps, newModel);
  if (!first.error) return undefined;
  const second = await playOnce(steps, newModel);
  return second.error ? { story: second.story, error: second.error } : undefined;
}

/** Runs steps once, in order, from a fresh model; the MUST failure that ended them, if one did. */
async function playOnce<M extends object>(steps: readonly SequenceStep<M>[], newModel: () => M): Promise<{ story: Story; error?: ConformanceFailures }> {
  const model = newModel();
  const story = new Story();
  try {
    for (const step of steps) {
      if (!step.check(model)) continue;
      story.begin(step.call, step);
      await step.run(model, story);
    }
    return { story };
  } catch (error) {
    if (!(error instanceof ConformanceFailures)) throw error;
    return { story, error };
  }
}

/** Runs the given steps once, in order, from a fresh model (a regression's replay); a MUST failure is recorded with its story. Returns whether they held. */
export async function replaySteps<M extends object>(recordFailures: RecordFailures, steps: readonly SequenceStep<M>[], newModel: () => M): Promise<boolean> {
  const { story, error } = await playOnce(steps, newModel);
  if (error) recordFailures(error, { story: story.evidence() });
  return error === undefined;
}
