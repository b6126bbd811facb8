import { describe, expect, it } from 'vitest';
import { CALM_RUN, PROOF_MS, TaughtBy429 } from '../../src/http/taught-by-429.ts';

const O = 'http://127.0.0.1:1';
const M = 'http://127.0.0.1:2';

function calmRun(taught: TaughtBy429, answers: number): void {
  for (let i = 0; i < answers; i++) taught.calm();
}

describe('TaughtBy429', () => {
  it('lets 429s teach until a rate is taught, however long before', () => {
    const taught = new TaughtBy429();
    const letGo: string[][] = [];
    expect(taught.refused((origins) => letGo.push([...origins]), 0)).toBe(true);
    expect(taught.refused((origins) => letGo.push([...origins]), 60_000)).toBe(true);
    expect(letGo).toEqual([]);
  });

  it('keeps teaching past PROOF_MS for as long as each window of PROOF_MS brings a run of CALM_RUN calm answers (a rate held under a limit, climbing back to it)', () => {
    const taught = new TaughtBy429();
    taught.taught(O, 0);
    calmRun(taught, CALM_RUN);
    // Past the first window, proved: the next window opens here.
    expect(taught.refused(() => expect.unreachable('nothing let go'), PROOF_MS + 1)).toBe(true);
    calmRun(taught, CALM_RUN);
    expect(taught.refused(() => expect.unreachable('nothing let go'), 3 * PROOF_MS)).toBe(true);
    calmRun(taught, CALM_RUN);
    expect(taught.refused(() => expect.unreachable('nothing let go'), 10 * PROOF_MS)).toBe(true);
    expect(taught.stopped).toBe(false);
  });

  it('one proof does not last the run: a window after it without a calm run stops the teaching (a gateway answering 429 at once to every 10th request, whose first runs came of the reordering, helper-38a)', () => {
    const taught = new TaughtBy429();
    const letGo: string[][] = [];
    taught.taught(O, 0);
    calmRun(taught, CALM_RUN);
    expect(taught.refused((origins) => letGo.push([...origins]), PROOF_MS + 1)).toBe(true);
    // Nine calm answers, then a 429, for the whole of the next window.
    for (let t = PROOF_MS + 2; t < 2 * PROOF_MS + 1; t += 100) {
      calmRun(taught, 9);
      expect(taught.refused((origins) => letGo.push([...origins]), t)).toBe(true);
    }
    expect(taught.refused((origins) => letGo.push([...origins]), 2 * PROOF_MS + 2)).toBe(false);
    expect(letGo).toEqual([[O]]);
  });

  it('stops at the first 429 past PROOF_MS without that run, letting go every origin taught, once', () => {
    const taught = new TaughtBy429();
    taught.taught(O, 0);
    taught.taught(M, 100);
    const letGo: string[][] = [];
    // Every other answer refused: never CALM_RUN in a row.
    for (let i = 0; i < 50; i++) {
      taught.calm();
      expect(taught.refused((origins) => letGo.push([...origins]), i * 10)).toBe(true);
    }
    expect(taught.refused((origins) => letGo.push([...origins]), PROOF_MS + 1)).toBe(false);
    expect(taught.refused((origins) => letGo.push([...origins]), PROOF_MS + 2)).toBe(false);
    expect(letGo).toEqual([[O, M]]);
    expect(taught.stopped).toBe(true);
  });

  it('counts only the calm answers in a row since the last 429', () => {
    const taught = new TaughtBy429();
    taught.taught(O, 0);
    calmRun(taught, CALM_RUN - 1);
    taught.refused(() => undefined, 10);
    calmRun(taught, CALM_RUN - 1);
    expect(taught.refused(() => undefined, PROOF_MS + 1)).toBe(false);
  });
});
