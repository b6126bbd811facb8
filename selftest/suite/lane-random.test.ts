import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LaneRandom } from '../../src/suite/lane-random.ts';

const draws = (random: LaneRandom, count: number) => Array.from({ length: count }, () => random.next());

describe('LaneRandom, the sequences\' generator', () => {
  it('gives 32-bit signed integers, the same ones for the same seed, others for another seed or after a jump', () => {
    const values = draws(LaneRandom.of(7), 1000);
    expect(values.every((v) => Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31)).toBe(true);
    expect(draws(LaneRandom.of(7), 1000)).toEqual(values);
    expect(draws(LaneRandom.of(8), 1000)).not.toEqual(values);
    const jumped = LaneRandom.of(7);
    jumped.jump();
    expect(draws(jumped, 1000)).not.toEqual(values);
  });

  it('clones keep drawing the same values, independently of the original', () => {
    const random = LaneRandom.of(3);
    draws(random, 5);
    const copy = random.clone();
    const ahead = draws(random, 50);
    expect(draws(copy, 50)).toEqual(ahead);
  });

  it('spreads its bits evenly: each of the 32 is set in about half of 20,000 draws, in every one of 8 streams', () => {
    const random = LaneRandom.of(0);
    for (let stream = 0; stream < 8; stream++, random.jump()) {
      const set = new Array<number>(32).fill(0);
      for (const value of draws(random, 20_000)) for (let bit = 0; bit < 32; bit++) set[bit]! += (value >>> bit) & 1;
      // 20,000 fair draws: a share outside 0.47-0.53 is more than eight standard deviations out.
      for (const count of set) {
        expect(count / 20_000).toBeGreaterThan(0.47);
        expect(count / 20_000).toBeLessThan(0.53);
      }
    }
  });

  it('lets a lane started at fast-check path k run the k-th value of the stream fc.sample draws', async () => {
    const arbitrary = fc.array(fc.integer(), { maxLength: 12 });
    const seed = 42;
    const stream = fc.sample(arbitrary, { seed, numRuns: 30, randomType: LaneRandom.of });
    for (const k of [0, 1, 17, 29]) {
      const seen: number[][] = [];
      await fc.check(fc.asyncProperty(arbitrary, async (value) => void seen.push(value)), { seed, numRuns: 1, path: String(k), randomType: LaneRandom.of });
      expect(seen).toEqual([stream[k]]);
    }
  });
});
