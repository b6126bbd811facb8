import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.ts';
import { concurrencyFor, DEFAULT_CONCURRENCY, isRemote, MAX_ROUND_TRIP_SAMPLES, pipelineDepth, PIPELINE_DEPTH, REMOTE_ROUND_TRIP_MS, ROUND_TRIP_SAMPLES, wantsAnotherSample } from '../../src/suite/config.ts';

// A folder without a .env, so the developer's own settings stay out.
const EMPTY = mkdtempSync(join(tmpdir(), 'asc-scheduling-'));

describe('scheduling by the round trip', () => {
  it('near (under 1 ms, or not measured): scenarios one after another, properties keep PIPELINE_DEPTH in flight, the default cap', () => {
    for (const roundTripMs of [undefined, 0.4, 0.9]) {
      expect(isRemote(roundTripMs)).toBe(false);
      expect(concurrencyFor(roundTripMs)).toBe(DEFAULT_CONCURRENCY);
      expect(pipelineDepth(roundTripMs, DEFAULT_CONCURRENCY)).toBe(PIPELINE_DEPTH);
    }
  });

  it('far: side by side, a cap that grows with the round trip between 8 and 64, properties keeping the cap in flight', () => {
    expect(isRemote(1)).toBe(true);
    expect(concurrencyFor(1)).toBe(8);
    expect(concurrencyFor(5)).toBe(8);
    expect(concurrencyFor(7)).toBe(8);
    expect(concurrencyFor(20)).toBe(20);
    expect(concurrencyFor(60)).toBe(60);
    expect(concurrencyFor(100)).toBe(64);
    expect(concurrencyFor(1_000)).toBe(64);
    expect(pipelineDepth(20, concurrencyFor(20))).toBe(20);
    expect(pipelineDepth(60, 3)).toBe(3);
  });

  it(`the round trip: the fastest of ${ROUND_TRIP_SAMPLES} answers, of up to ${MAX_ROUND_TRIP_SAMPLES} while it lies between the line and 4 times it`, () => {
    for (let taken = 1; taken < ROUND_TRIP_SAMPLES; taken++) for (const fastestMs of [0.5, 2, 50]) expect(wantsAnotherSample(taken, fastestMs)).toBe(true);
    for (const fastestMs of [0.3, 0.99 * REMOTE_ROUND_TRIP_MS, 4 * REMOTE_ROUND_TRIP_MS, 60]) expect(wantsAnotherSample(ROUND_TRIP_SAMPLES, fastestMs)).toBe(false);
    for (const fastestMs of [REMOTE_ROUND_TRIP_MS, 1.3 * REMOTE_ROUND_TRIP_MS, 3.9 * REMOTE_ROUND_TRIP_MS]) {
      expect(wantsAnotherSample(ROUND_TRIP_SAMPLES, fastestMs)).toBe(true);
      expect(wantsAnotherSample(MAX_ROUND_TRIP_SAMPLES - 1, fastestMs)).toBe(true);
      expect(wantsAnotherSample(MAX_ROUND_TRIP_SAMPLES, fastestMs)).toBe(false);
    }
  });

  it('--concurrency or CONCURRENCY given is kept whatever the distance; unset, the run chooses', () => {
    expect(resolveSettings([], {}, EMPTY).concurrencyGiven).toBe(false);
    expect(resolveSettings(['--concurrency', '4'], {}, EMPTY)).toMatchObject({ concurrency: 4, concurrencyGiven: true });
    expect(resolveSettings([], { CONCURRENCY: '2' }, EMPTY)).toMatchObject({ concurrency: 2, concurrencyGiven: true });
  });

  it('--schedule is auto, sequential or concurrent', () => {
    expect(resolveSettings([], {}, EMPTY).schedule).toBe('auto');
    expect(resolveSettings(['--schedule', 'sequential'], {}, EMPTY).schedule).toBe('sequential');
    expect(resolveSettings([], { SCHEDULE: 'concurrent' }, EMPTY).schedule).toBe('concurrent');
    expect(() => resolveSettings(['--schedule', 'parallel'], {}, EMPTY)).toThrow(/--schedule: expected auto, sequential or concurrent/);
  });
});
