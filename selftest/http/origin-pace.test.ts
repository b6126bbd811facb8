import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OriginPace } from '../../src/http/origin-pace.ts';

const O = 'http://127.0.0.1:1';
const L = 'GET /v1/pets';
const CREATE = 'POST /v1/pets';

/** `count` calm answers from O to `label`, one every `everyMs`. */
function answerCalmly(pace: OriginPace, count: number, everyMs: number, label = L): void {
  for (let i = 0; i < count; i++) {
    vi.advanceTimersByTime(everyMs);
    pace.calm(O, label);
  }
}

/** What the answers were as a limit on the host's rate was overshot: half of them refused, other operations' too. */
const overshot = (calmRate: number) => ({ origin: { calmRate, refusedShare: 0.5, answers: 20 }, operation: { calmRate, refusedShare: 0.5, answers: 20 }, othersRefused: 1, sentAt: performance.now() });

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
    for (let i = 0; i < 20; i++) expect(await settled(pace.turn(O, L, async () => {}))).toBe(true);
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
    for (let i = 0; i < 3; i++) pace.refused(O, L, performance.now());
    const lately = pace.latelyAround(O, L, performance.now());
    expect(lately.origin.refusedShare).toBeCloseTo(0.03, 5);
    pace.limited(O, L, lately);
    expect(pace.isPaced(O, L)).toBe(false);
    for (let i = 0; i < 10; i++) pace.refused(O, L, performance.now());
    pace.limited(O, L, pace.latelyAround(O, L, performance.now()));
    expect(pace.isPaced(O, L)).toBe(true);
  });

  it('learns no rate from an origin back from refusing everything (no calm rate to go by)', () => {
    const pace = new OriginPace();
    pace.limited(O, L, overshot(0));
    expect(pace.isPaced(O)).toBe(false);
  });

  it('holds the rate a tenth under the calm rate at the refusal, and cuts once for refusals within a second', () => {
    const pace = new OriginPace();
    pace.limited(O, L, overshot(200));
    expect(pace.rateOf(O)).toBeCloseTo(180, 5);
    vi.advanceTimersByTime(200);
    pace.limited(O, L, overshot(190));
    // The same overshoot: no lower than 0.9 × 190, not 0.9 × 0.9 × 200.
    expect(pace.rateOf(O)).toBeGreaterThan(170);
    vi.advanceTimersByTime(1_500);
    // Still refused over a second later: cut below what it had climbed to, whatever the calm rate says.
    const before = pace.rateOf(O);
    pace.limited(O, L, overshot(1_000));
    expect(pace.rateOf(O)).toBeCloseTo(before * 0.9, 5);
  });

  it('climbs by a fiftieth a second after it was held, and never goes under one request a second', () => {
    const pace = new OriginPace();
    pace.limited(O, L, overshot(100));
    vi.advanceTimersByTime(10_000);
    expect(pace.rateOf(O)).toBeCloseTo(90 * 1.02 ** 10, 5);
    const slow = new OriginPace();
    slow.limited(O, L, overshot(0.5));
    expect(slow.rateOf(O)).toBe(1);
  });

  it('tells the lowest rate it held any origin, or operation on one, to', () => {
    const pace = new OriginPace();
    expect(pace.lowest()).toBeUndefined();
    pace.calm(O, L);
    expect(pace.lowest()).toBeUndefined();
    pace.limited(O, L, overshot(100));
    pace.limited('http://127.0.0.1:2', L, overshot(300));
    vi.advanceTimersByTime(5_000);
    expect(pace.lowest()).toBeCloseTo(90, 5);
    pace.limited('http://127.0.0.1:2', CREATE, { ...overshot(50), othersRefused: 0 });
    expect(pace.lowest()).toBeCloseTo(45, 5);
  });

  it("spaces the turns by a request's share of a second, each counted from when the one before went", async () => {
    const pace = new OriginPace();
    pace.limited(O, L, overshot(100 / 0.9));
    vi.advanceTimersByTime(1);
    const went: number[] = [];
    const turns = Array.from({ length: 5 }, () => pace.turn(O, L, async () => void went.push(performance.now())));
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(turns);
    const gaps = went.slice(1).map((at, i) => at - went[i]!);
    expect(gaps).toHaveLength(4);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(9.9);
  });

  it('gives a caller that holds its slot its turn without waiting behind one still waiting for a slot', async () => {
    const pace = new OriginPace();
    pace.limited(O, L, overshot(10));
    vi.advanceTimersByTime(1);
    // A turn whose slot never comes (every slot is held, by callers like the next one).
    const stuck = pace.turn(O, L, () => new Promise<void>(() => {}));
    await vi.advanceTimersByTimeAsync(200);
    expect(await settled(stuck)).toBe(false);
    const holder = pace.turn(O, L);
    await vi.advanceTimersByTimeAsync(200);
    expect(await settled(holder)).toBe(true);
  });

  it("holds only the operation to a rate where the origin's other operations were answered calmly in that second", async () => {
    const pace = new OriginPace();
    for (let i = 0; i < 100; i++) {
      answerCalmly(pace, 1, 5);
      if (i % 5 === 0) pace.calm(O, CREATE);
    }
    for (let i = 0; i < 5; i++) pace.refused(O, CREATE, performance.now());
    const at = pace.latelyAround(O, CREATE, performance.now());
    expect(at.othersRefused).toBe(0);
    expect(at.operation.refusedShare).toBeCloseTo(0.2, 5);
    expect(at.operation.calmRate).toBeCloseTo(40, -1);
    pace.limited(O, CREATE, at);
    expect(pace.isPaced(O, CREATE)).toBe(true);
    expect(pace.rateOf(O, CREATE)).toBeCloseTo(0.9 * at.operation.calmRate, 5);
    expect(pace.isPaced(O, L)).toBe(false);
    expect(pace.isPaced(O)).toBe(false);
    expect(pace.lowest()).toBeCloseTo(0.9 * at.operation.calmRate, 5);
    // A create whose slot never comes holds the creates' turns, not the listings'.
    const stuck = pace.turn(O, CREATE, () => new Promise<void>(() => {}));
    expect(await settled(pace.turn(O, L, async () => {}))).toBe(true);
    expect(await settled(stuck)).toBe(false);
  });

  it("cuts an operation's own rate by a quarter at once for each refusal of a request sent since it was last held, none for one sent before", () => {
    const pace = new OriginPace();
    const own = (sentAt: number) => ({ ...overshot(100), othersRefused: 0, sentAt });
    pace.limited(O, CREATE, own(performance.now()));
    expect(pace.rateOf(O, CREATE)).toBeCloseTo(90, 5);
    const heldAt = performance.now();
    vi.advanceTimersByTime(50);
    // Sent before the rate was held: the same overshoot.
    pace.limited(O, CREATE, own(heldAt - 10));
    expect(pace.rateOf(O, CREATE)).toBeCloseTo(90 * 1.02 ** 0.05, 5);
    // Sent since, 50 ms apart: no second need pass between the cuts, and the calm rate is not waited for.
    pace.limited(O, CREATE, own(heldAt + 10));
    expect(pace.rateOf(O, CREATE)).toBeCloseTo(0.75 * 90 * 1.02 ** 0.05, 5);
    vi.advanceTimersByTime(50);
    pace.limited(O, CREATE, { ...own(performance.now() - 10), operation: { calmRate: 10, refusedShare: 0.2, answers: 12 } });
    // Under the calm rate where the operation was answered slower than its rate.
    expect(pace.rateOf(O, CREATE)).toBeCloseTo(7.5, 5);
    expect(pace.isPaced(O)).toBe(false);
    // Held to a rate of its own, a refusal cuts it as it comes, and its cure then does not cut it again.
    vi.advanceTimersByTime(20);
    const sentAt = performance.now() - 5;
    const before = pace.rateOf(O, CREATE);
    pace.refused(O, CREATE, sentAt);
    expect(pace.rateOf(O, CREATE)).toBeCloseTo(0.75 * before, 5);
    vi.advanceTimersByTime(100);
    pace.limited(O, CREATE, own(sentAt));
    expect(pace.rateOf(O, CREATE)).toBeCloseTo(0.75 * before * 1.02 ** 0.1, 5);
  });

  it('holds the origin to a rate where its other operations were refused in that second too', () => {
    const pace = new OriginPace();
    answerCalmly(pace, 50, 10);
    answerCalmly(pace, 50, 10, CREATE);
    pace.refused(O, L, performance.now());
    for (let i = 0; i < 5; i++) pace.refused(O, CREATE, performance.now());
    const at = pace.latelyAround(O, CREATE, performance.now());
    expect(at.othersRefused).toBe(1);
    pace.limited(O, CREATE, at);
    expect(pace.isPaced(O)).toBe(true);
    expect(pace.isPaced(O, L)).toBe(true);
    expect(pace.rateOf(O)).toBeCloseTo(0.9 * at.origin.calmRate, 5);
    expect(pace.rateOf(O, CREATE)).toBe(Infinity);
  });

  it("forgets the rates an operation's refusals taught, its own and its origin's", () => {
    const pace = new OriginPace();
    pace.limited(O, CREATE, { ...overshot(100), othersRefused: 0 });
    pace.limited(O, L, overshot(100));
    expect(pace.isPaced(O, CREATE)).toBe(true);
    pace.forget(O, CREATE);
    expect(pace.isPaced(O, CREATE)).toBe(false);
    expect(pace.isPaced(O)).toBe(false);
    expect(pace.lowest()).toBeUndefined();
  });

  it('tells another origin limited where one of its operations is held to a rate', () => {
    const pace = new OriginPace();
    const other = 'http://127.0.0.1:2';
    pace.calm(other, CREATE);
    expect(pace.anotherLimited(O)).toBe(false);
    pace.limited(other, CREATE, { ...overshot(100), othersRefused: 0 });
    vi.advanceTimersByTime(2_000);
    expect(pace.anotherLimited(O)).toBe(true);
    expect(pace.anotherLimited(other)).toBe(false);
  });
});
