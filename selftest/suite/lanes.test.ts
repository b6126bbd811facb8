// Lanes side by side (PropertyRunner.forEach) and the sequences of calls that run in them: near the
// target as many at once as asked, far from it all; and a lane whose sequence fails has it
// confirmed and shrunk with no other lane's call in between, the other lanes then sending nothing.
// No server: the steps are plain functions that log what they do.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exchange } from '../checks/helpers.ts';
import { ConformanceFailures } from '../../src/suite/failure.ts';
import { PropertyRunner } from '../../src/suite/property.ts';
import { runSequences, type SequenceBudget, type SequenceStep } from '../../src/suite/sequence.ts';
import type { WorkerContext } from '../../src/suite/worker.ts';

const runner = (concurrent: boolean) =>
  new PropertyRunner({ config: { concurrent, seed: 7, deadline: Date.now() + 60_000 } } as WorkerContext, 'lanes', () => undefined);

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs forEach over `count` items whose bodies take a few ms; returns the most that ran at once and the items visited. */
async function widthOf(concurrent: boolean, count: number, nearWidth?: number): Promise<{ most: number; visited: number[] }> {
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
    nearWidth,
  );
  return { most, visited: visited.sort((a, b) => a - b) };
}

describe('forEach: lanes side by side', () => {
  it('near the target: one at a time by default, nearWidth at a time when given; far from it: all at once; every item once', async () => {
    const all = Array.from({ length: 7 }, (_, i) => i);
    expect(await widthOf(false, 7)).toEqual({ most: 1, visited: all });
    expect(await widthOf(false, 7, 2)).toEqual({ most: 2, visited: all });
    expect(await widthOf(true, 7, 2)).toEqual({ most: 7, visited: all });
  });

  it('starts no item once one has thrown, awaits those running, and rethrows the first error', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = runner(false).forEach(
      [0, 1, 2, 3, 4, 5],
      async (item) => {
        started.push(item);
        await tick(item === 1 ? 1 : 5);
        if (item === 1) throw new Error('lane 1 broke');
        finished.push(item);
      },
      2,
    );
    await expect(run).rejects.toThrow('lane 1 broke');
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([0]);
  });
});

describe('sequences in lanes side by side', () => {
  it("confirms and shrinks a lane's failure with no other lane's call in between, then the other lanes send nothing", async () => {
    const log: string[] = [];
    const step = (lane: string, says: string, fails = false): SequenceStep<object> => ({
      call: { says },
      check: () => true,
      async run() {
        log.push(`${lane}:${says}`);
        await tick(1);
        if (fails) throw new ConformanceFailures([{ clause: 'state.id-keeps-naming', expected: 'the same animal', actual: 'another' }], exchange(200, {}));
      },
    });
    const recorded: ConformanceFailures[] = [];
    const budget: SequenceBudget = { failed: false, running: new Set() };
    const properties = runner(false);
    const lanes = [
      [step('A', 'wait'), step('A', 'break', true)],
      [step('B', 'wait'), step('B', 'wait more')],
    ];
    const held: boolean[] = [];
    await properties.forEach(
      lanes,
      async (steps, lane) => {
        held[lane] = await runSequences(properties, Date.now() + 60_000, (error) => recorded.push(error), `lane ${lane}`, steps.map((s) => fc.constant(s)), () => ({}), { runs: 40, maxSteps: 6 }, budget);
      },
      2,
    );
    expect(held).toEqual([false, true]);
    expect(recorded).toHaveLength(1);
    const failedAt = log.indexOf('A:break');
    expect(failedAt).toBeGreaterThanOrEqual(0);
    // After A's first failure, B only ends the sequence it is in: each of its calls comes before A's next one.
    const nextA = log.findIndex((entry, i) => i > failedAt && entry.startsWith('A:'));
    expect(nextA).toBeGreaterThan(failedAt);
    const laterB = log.map((entry, i) => (i > failedAt && entry.startsWith('B:') ? i : -1)).filter((i) => i >= 0);
    expect(laterB.every((i) => i < nextA)).toBe(true);
  });
});
