// `npm run bench:lanes`: what starting each lane of the sequences of calls at its own place in one
// stream costs (fast-check's `path`, one `fc.check` per lane, 2 x --runs lanes), with
// xorshift128+ (fast-check's default, whose jump is 128 generator steps) and with LaneRandom.
import fc from 'fast-check';
import { LaneRandom } from '../src/suite/lane-random.ts';
const arb = fc.array(fc.integer(), { maxLength: 12 });
for (const lanes of [800, 4000]) {
  for (const [name, randomType] of [['xorshift128+', undefined], ['LaneRandom', LaneRandom.of]] as const) {
    const started = performance.now();
    for (let lane = 0; lane < lanes; lane++) {
      await fc.check(fc.asyncProperty(arb, async () => undefined), { seed: 42, numRuns: 1, ...(lane ? { path: String(lane) } : {}), ...(randomType ? { randomType } : {}) });
    }
    console.log(`${lanes} lanes (--runs ${lanes / 2}), ${name}: ${Math.round(performance.now() - started)} ms`);
  }
}
