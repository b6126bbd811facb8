import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OriginPace } from '../../src/http/origin-pace.ts';

const O = 'http://127.0.0.1:1';

/** `count` calm answers from O, one every `everyMs`. */
function answerCalmly(pace: OriginPace, count: number, everyMs: number): void {
  for (let i = 0; i < count; i++) {
    vi.advanceTimersByTime(everyMs);
    pace.calm(O);
  }
}

/** What the origin's answers were as a limit on the rate was overshot: half of them refused. */
const overshot = (calmRate: number) => ({ calmRate, refusedShare: 0.5 });

/** Whether the promise has settled once pending timers due now have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('OriginPace: a rate per origin, learnt from 503s without Retry-After that waiting cured', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets every request go at once until a refusal is cured', async () => {
    const pace = new OriginPace();
    answerCalmly(pace, 100, 1);
    expect(pace.isPaced(O)).toBe(false);
    expect(pace.rateOf(O)).toBe(Infinity);
    for (let i = 0; i < 20; i++) expect(await settled(pace.turn(O, async () => {}))).toBe(true);
  });

  it('measures the calm answers of the last second, and of less where the origin has answered for less', () => {
    const pace = new OriginPace();
    expect(pace.answeredCalm(O)).toBe(false);
    answerCalmly(pace, 50, 10);
    expect(pace.answeredCalm(O)).toBe(true);
    expect(pace.lately(O).calmRate).toBeCloseTo(100, -1);
    // Two seconds at 20 a second: the first half second's 100 a second has left the window.
    answerCalmly(pace, 40, 50);
    expect(pace.lately(O).calmRate).toBeGreaterThan(18);
    expect(pace.lately(O).calmRate).toBeLessThan(23);
  });

  it('measures a stretch of calm answers after a quiet second alone, and tells no rate from fewer than five', () => {
    const pace = new OriginPace();
    answerCalmly(pace, 200, 5);
    vi.advanceTimersByTime(5_000);
    answerCalmly(pace, 4, 10);
    expect(pace.lately(O).calmRate).toBe(0);
    answerCalmly(pace, 16, 10);
    // 20 in the 190 ms since the stretch began, not 20 in the last second.
    expect(pace.lately(O).calmRate).toBeGreaterThan(95);
    expect(pace.lately(O).calmRate).toBeLessThan(110);
  });

  it('counts the refusals among the answers, and learns no rate where they were under a twentieth (now and then, not a rate)', () => {
    const pace = new OriginPace();
    answerCalmly(pace, 97, 5);
    for (let i = 0; i < 3; i++) pace.refused(O);
    const lately = pace.lately(O);
    expect(lately.refusedShare).toBeCloseTo(0.03, 5);
    pace.limited(O, lately);
    expect(pace.isPaced(O)).toBe(false);
    for (let i = 0; i < 10; i++) pace.refused(O);
    pace.limited(O, pace.lately(O));
    expect(pace.isPaced(O)).toBe(true);
  });

  it('learns no rate from an origin back from refusing everything (no calm rate to go by)', () => {
    const pace = new OriginPace();
    pace.limited(O, overshot(0));
    expect(pace.isPaced(O)).toBe(false);
  });

  it('holds the rate a tenth under the calm rate at the refusal, and cuts once for refusals within a second', () => {
    const pace = new OriginPace();
    pace.limited(O, overshot(200));
    expect(pace.rateOf(O)).toBeCloseTo(180, 5);
    vi.advanceTimersByTime(200);
    pace.limited(O, overshot(190));
    // The same overshoot: no lower than 0.9 × 190, not 0.9 × 0.9 × 200.
    expect(pace.rateOf(O)).toBeGreaterThan(170);
    vi.advanceTimersByTime(1_500);
    // Still refused over a second later: cut below what it had climbed to, whatever the calm rate says.
    const before = pace.rateOf(O);
    pace.limited(O, overshot(1_000));
    expect(pace.rateOf(O)).toBeCloseTo(before * 0.9, 5);
  });

  it('climbs by a fiftieth a second after it was held, and never goes under one request a second', () => {
    const pace = new OriginPace();
    pace.limited(O, overshot(100));
    vi.advanceTimersByTime(10_000);
    expect(pace.rateOf(O)).toBeCloseTo(90 * 1.02 ** 10, 5);
    const slow = new OriginPace();
    slow.limited(O, overshot(0.5));
    expect(slow.rateOf(O)).toBe(1);
  });

  it('tells the lowest rate it held any origin to', () => {
    const pace = new OriginPace();
    expect(pace.lowest()).toBeUndefined();
    pace.calm(O);
    expect(pace.lowest()).toBeUndefined();
    pace.limited(O, overshot(100));
    pace.limited('http://127.0.0.1:2', overshot(300));
    vi.advanceTimersByTime(5_000);
    expect(pace.lowest()).toBeCloseTo(90, 5);
  });

  it("spaces the turns by a request's share of a second, each counted from when the one before went", async () => {
    const pace = new OriginPace();
    pace.limited(O, overshot(100 / 0.9));
    vi.advanceTimersByTime(1);
    const went: number[] = [];
    const turns = Array.from({ length: 5 }, () => pace.turn(O, async () => void went.push(performance.now())));
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(turns);
    const gaps = went.slice(1).map((at, i) => at - went[i]!);
    expect(gaps).toHaveLength(4);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(9.9);
  });

  it('gives a caller that holds its slot its turn without waiting behind one still waiting for a slot', async () => {
    const pace = new OriginPace();
    pace.limited(O, overshot(10));
    vi.advanceTimersByTime(1);
    // A turn whose slot never comes (every slot is held, by callers like the next one).
    const stuck = pace.turn(O, () => new Promise<void>(() => {}));
    await vi.advanceTimersByTimeAsync(200);
    expect(await settled(stuck)).toBe(false);
    const holder = pace.turn(O);
    await vi.advanceTimersByTimeAsync(200);
    expect(await settled(holder)).toBe(true);
  });
});
