// Lanes (PropertyRunner.forEach) and the sequences of calls that run in them: near the target one
// after another, far from it side by side; a lane whose sequence fails has it confirmed and shrunk
// with no other lane's call in between, the other lanes then sending nothing; and a failure being
// confirmed when fast-check's time limit runs out is still told. No server: the steps are plain
// functions that log what they do.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exchange } from '../checks/helpers.ts';
import { ConformanceFailures } from '../../src/suite/failure.ts';
import { BudgetExhausted, PropertyRunner } from '../../src/suite/property.ts';
import { storyLines } from '../../src/report/detail.ts';
import type { StoryEvidence } from '../../src/report/model.ts';
import { readAfterWrite } from '../../src/suite/read-lag.ts';
import { runSequences, type SequenceBudget, type SequenceStep } from '../../src/suite/sequence.ts';
import type { WorkerContext } from '../../src/suite/worker.ts';

const context = (concurrent: boolean) => ({ config: { concurrent, seed: 7, deadline: Date.now() + 60_000 } }) as WorkerContext;
const runner = (concurrent: boolean, ctx = context(concurrent)) => new PropertyRunner(ctx, 'lanes', () => undefined);

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs forEach over `count` items whose bodies take a few ms; returns the most that ran at once and the items visited. */
async function widthOf(concurrent: boolean, count: number): Promise<{ most: number; visited: number[] }> {
  let now = 0;
  let most = 0;
  const visited: number[] = [];
  await runner(concurrent).forEach(
    Array.from({ length: count }, (_, i) => i),
    async (item) => {
      most = Math.max(most, ++now);
      await tick(3);
      visited.push(item);
      now--;
    },
  );
  return { most, visited: visited.sort((a, b) => a - b) };
}

/** A step that logs `lane:says`, takes `ms`, and fails (a MUST failure) if told to. */
function step(log: string[], lane: string, says: string, options: { fails?: boolean; ms?: number } = {}): SequenceStep<object> {
  return {
    call: { says },
    check: () => true,
    async run() {
      log.push(`${lane}:${says}`);
      await tick(options.ms ?? 1);
      if (options.fails) throw new ConformanceFailures([{ clause: 'state.id-keeps-naming', expected: 'the same animal', actual: 'another' }], exchange(200, {}));
    },
  };
}

describe('forEach: lanes', () => {
  it('near the target one at a time, far from it all at once; every item once', async () => {
    const all = Array.from({ length: 7 }, (_, i) => i);
    expect(await widthOf(false, 7)).toEqual({ most: 1, visited: all });
    expect(await widthOf(true, 7)).toEqual({ most: 7, visited: all });
  });
});

describe('forEachOverLag: lanes near the target', () => {
  it('one after another while nothing waits; another starts while every one running waits out a read lag', async () => {
    const ctx = context(false);
    const log: string[] = [];
    const shownAt = performance.now() + 150;
    // Item 0 reads a write the replica shows 150 ms later: while its read waits, item 1 starts, and item 2 after item 1.
    await runner(false, ctx).forEachOverLag([0, 1, 2], async (item) => {
      log.push(`${item}:start`);
      if (item === 0) await readAfterWrite(ctx, 'lanes', async () => exchange(performance.now() >= shownAt ? 200 : 404, {}), (ex) => ex.response?.status === 404);
      else await tick(5);
      log.push(`${item}:end`);
    });
    expect(log.indexOf('1:start')).toBeLessThan(log.indexOf('0:end'));
    expect(log.indexOf('2:start')).toBeGreaterThan(log.indexOf('1:end'));
    expect(log.filter((entry) => entry.endsWith(':end'))).toHaveLength(3);
    let now = 0;
    let most = 0;
    await runner(false).forEachOverLag([0, 1, 2, 3], async () => {
      most = Math.max(most, ++now);
      await tick(3);
      now--;
    });
    expect(most).toBe(1);
  });
});

describe('sequences in lanes side by side', () => {
  it("confirms and shrinks a lane's failure with no other lane's call in between, then the other lanes send nothing", async () => {
    const log: string[] = [];
    const recorded: ConformanceFailures[] = [];
    const budget: SequenceBudget = { failed: false, running: new Set() };
    const properties = runner(true);
    // B's calls are slower than A's: B is always in the middle of a sequence when A's fails.
    const lanes = [
      [step(log, 'A', 'wait'), step(log, 'A', 'break', { fails: true })],
      [step(log, 'B', 'wait', { ms: 4 }), step(log, 'B', 'wait more', { ms: 4 })],
    ];
    const held: boolean[] = [];
    await properties.forEach(lanes, async (steps, lane) => {
      held[lane] = await runSequences(properties, Date.now() + 60_000, (error) => recorded.push(error), `lane ${lane}`, steps.map((s) => fc.constant(s)), () => ({}), { runs: 40, maxSteps: 6 }, budget);
    });
    expect(held).toEqual([false, true]);
    expect(recorded).toHaveLength(1);
    const failedAt = log.indexOf('A:break');
    expect(failedAt).toBeGreaterThanOrEqual(0);
    // After A's first failure B only ends the sequence it is in: each of its calls comes before A's next one.
    const nextA = log.findIndex((entry, i) => i > failedAt && entry.startsWith('A:'));
    expect(nextA).toBeGreaterThan(failedAt);
    const laterB = log.map((entry, i) => (i > failedAt && entry.startsWith('B:') ? i : -1)).filter((i) => i >= 0);
    expect(laterB.length).toBeGreaterThan(0);
    expect(laterB.every((i) => i < nextA)).toBe(true);
  });

  it('tells a failure whose confirmation outlasts the time limit fast-check was given', async () => {
    const log: string[] = [];
    const recorded: ConformanceFailures[] = [];
    const properties = runner(false);
    // One call of 60 ms that fails: the sequence and its two runs again take 180 ms, the limit is 100 ms.
    const held = await runSequences(properties, Date.now() + 100, (error) => recorded.push(error), 'slow', [fc.constant(step(log, 'A', 'break', { fails: true, ms: 60 }))], () => ({}), { runs: 5, maxSteps: 1 });
    expect(held).toBe(false);
    expect(recorded).toHaveLength(1);
    expect(log.filter((entry) => entry === 'A:break').length).toBeGreaterThanOrEqual(3);
  });

  it('tell a failure seen once whose runs again --max-duration cut short as unconfirmed, for that reason, then stop for the budget', async () => {
    const recorded: { error: ConformanceFailures; story?: StoryEvidence }[] = [];
    let runs = 0;
    // As Scenario.send does once the deadline has passed: the sequence fails, fails again when run
    // again, and the budget keeps the third run's request back.
    const breaking: SequenceStep<object> = {
      call: { says: 'break' },
      check: () => true,
      async run() {
        if (runs === 2) throw new BudgetExhausted(true);
        runs++;
        await tick(1);
        throw new ConformanceFailures([{ clause: 'state.id-keeps-naming', expected: 'the same animal', actual: 'another' }], exchange(200, {}));
      },
    };
    const told = runSequences(runner(false), Date.now() + 60_000, (error, replay) => void recorded.push({ error, story: replay?.story }), 'cut', [fc.constant(breaking)], () => ({}), { runs: 5, maxSteps: 1 });
    await expect(told).rejects.toBeInstanceOf(BudgetExhausted);
    expect(runs).toBe(2);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.story).toMatchObject({ unconfirmed: true, outOfTime: true });
    expect(storyLines(recorded[0]!.story!)[0]).toContain('--max-duration ran out before it could be run again twice more');
  });

  it('hold, neither failing nor throwing, when the time limit stops them before any sequence was done (fast-check then says "failed", with no error)', async () => {
    const log: string[] = [];
    const recorded: ConformanceFailures[] = [];
    const slow = fc.constant(step(log, 'A', 'slow', { ms: 150 }));
    const held = await runSequences(runner(false), Date.now() + 100, (error) => recorded.push(error), 'slow-holding', [slow], () => ({}), { runs: 3, maxSteps: 1, finish: step(log, 'A', 'last look', { ms: 150 }) });
    expect(held).toBe(true);
    expect(recorded).toEqual([]);
    expect(log).toContain('A:last look');
  });

  it('lanes sharing a label take consecutive slices of one stream of sequences', async () => {
    const drawn = (startAt: number, runs: number) => {
      const says: string[] = [];
      const calls = ['a', 'b', 'c', 'd'].map((name) => fc.constant<SequenceStep<object>>({ call: { says: name }, check: () => true, run: async () => void says.push(name) }));
      return runSequences(runner(false), Date.now() + 60_000, () => undefined, 'stream', calls, () => ({}), { runs, startAt, maxSteps: 5, finish: { call: { says: '|' }, check: () => true, run: async () => void says.push('|') } }).then(() => says.join(''));
    };
    const whole = await drawn(0, 6);
    const sliced = (await drawn(0, 2)) + (await drawn(2, 2)) + (await drawn(4, 2));
    expect(sliced).toBe(whole);
    expect(whole.split('|').length).toBe(7);
  });
});

describe('properties', () => {
  it('hold, neither failing nor throwing, when the time limit stops them before any input was done', async () => {
    const ctx = { config: { concurrent: false, seed: 7, runs: 5, deadline: Date.now() + 100 } } as WorkerContext;
    const recorded: unknown[] = [];
    const properties = new PropertyRunner(ctx, 'slow', (error) => void recorded.push(error));
    let started = 0;
    const held = await properties.property('slow', fc.integer(), async () => {
      started++;
      await tick(150);
    });
    expect(held).toBe(true);
    expect(started).toBe(1);
    expect(recorded).toEqual([]);
  });
});
