import { describe, expect, it } from 'vitest';
import { SlowedRefusals } from '../../src/http/slowed-refusals.ts';

const O = 'http://127.0.0.1:1';
const M = 'http://127.0.0.1:2';

/** Answers to createPet held to `rps` a second, as many for `seconds` from `from` ms, each refused where `refuse` says so; the time after the last. */
function send(slowed: SlowedRefusals, from: number, rps: number, seconds: number, refuse: (i: number, at: number) => boolean): number {
  let at = from;
  for (let i = 1; i <= rps * seconds; i++) {
    at = from + (i * 1000) / rps;
    slowed.answered(O, 'createPet', refuse(i, at), rps, at);
  }
  return at;
}

/** A token bucket: `rate` a second, `burst` at most, full at `from`. */
function bucket(rate: number, burst: number, from = 0) {
  let tokens = burst;
  let at = from;
  return (_i: number, now: number) => {
    tokens = Math.min(burst, tokens + ((now - at) * rate) / 1000);
    at = now;
    if (tokens < 1) return true;
    tokens--;
    return false;
  };
}

describe('SlowedRefusals', () => {
  it('an operation refused every 5th answer, still refused as often once held to under half the rate it was served at, fails', () => {
    const slowed = new SlowedRefusals();
    const t = send(slowed, 0, 100, 2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(false);
    send(slowed, t, 30, 2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(true);
    expect(slowed.failsWhenSlowed(O, 'listPets')).toBe(false);
  });

  it('says so once, on the answer that shows it', () => {
    const slowed = new SlowedRefusals();
    let shown = 0;
    for (let i = 1, at = 0; i <= 400; i++) {
      at += i <= 200 ? 10 : 34;
      if (slowed.answered(O, 'createPet', i % 5 === 0, i <= 200 ? 100 : 30, at)) shown++;
    }
    expect(shown).toBe(1);
  });

  it('a limit on the rate, whatever its burst, serves its own rate however fast it is sent to: not failing', () => {
    for (const burst of [1, 5, 20, 50]) {
      const slowed = new SlowedRefusals();
      const limit = bucket(5, burst);
      let t = 0;
      for (const rps of [100, 50, 20, 10, 6, 30, 8]) t = send(slowed, t, rps, 4, limit);
      expect(slowed.failsWhenSlowed(O, 'createPet'), `burst ${burst}`).toBe(false);
    }
  });

  it('takes the first paced stretch as a rate to compare with where the answers right before it were refused as often', () => {
    const slowed = new SlowedRefusals();
    for (let i = 1; i <= 20; i++) slowed.answered(O, 'createPet', i % 5 === 0, Infinity, i * 10);
    const t = send(slowed, 200, 100, 0.2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(false);
    // One stretch at 30 a second is enough: no stretch between is needed to vouch for the first.
    send(slowed, t, 30, 0.7, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(true);
  });

  it('a limit whose burst refilled in a short gap serves a window fast: counted from the refusal before the gap, that is no rate to compare with', () => {
    // 50 a second, bursts of 12: sent at 200 a second, a gap of 240 ms refills the burst, and the
    // window after it is served 17 of 20 in 100 ms. Read as 170 a second, the later windows (50) were
    // half that, refused as often: until 2026-12-06 the rule failed such a limit.
    const slowed = new SlowedRefusals();
    const limit = bucket(50, 12);
    const t = send(slowed, 0, 200, 1, limit);
    send(slowed, t + 240, 200, 3, limit);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(false);
  });

  it('a limit on the rate refusing right before its first paced stretch, whatever its burst, is not failing either', () => {
    for (const burst of [1, 5, 20, 50]) {
      const slowed = new SlowedRefusals();
      const limit = bucket(5, burst);
      for (let i = 1; i <= 100; i++) slowed.answered(O, 'createPet', limit(i, i * 10), Infinity, i * 10);
      let t = 1_000;
      for (const rps of [100, 50, 20, 10, 6, 30, 8]) t = send(slowed, t, rps, 4, limit);
      expect(slowed.failsWhenSlowed(O, 'createPet'), `burst ${burst}`).toBe(false);
    }
  });

  it('refusals that come with other operations refused (a limit shared with them, on any host) are not read as failing', () => {
    const slowed = new SlowedRefusals();
    let t = send(slowed, 0, 100, 2, (i) => i % 5 === 0);
    for (let i = 0; i < 50; i++) slowed.answered(M, 'sendMessage', i % 10 === 0, Infinity, t);
    t = send(slowed, t, 30, 2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(false);
  });

  it('other operations answered calmly meanwhile do not hold it back', () => {
    const slowed = new SlowedRefusals();
    let t = send(slowed, 0, 100, 2, (i) => i % 5 === 0);
    for (let i = 0; i < 200; i++) slowed.answered(O, 'listPets', false, 100, t);
    t = send(slowed, t, 30, 2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(true);
  });

  it('reads nothing across a pause, from unpaced answers, or from refusals a few in a hundred', () => {
    const paused = new SlowedRefusals();
    send(paused, 0, 100, 2, (i) => i % 5 === 0);
    send(paused, 5_000, 30, 2, (i) => i % 5 === 0);
    expect(paused.failsWhenSlowed(O, 'createPet')).toBe(false);

    // Refused right before a pause in which a limit saves up its burst: the stretch after it is not a rate to compare with.
    const refilled = new SlowedRefusals();
    const limit = bucket(5, 15);
    for (let i = 1; i <= 100; i++) refilled.answered(O, 'createPet', limit(i, i * 10), Infinity, i * 10);
    const after = send(refilled, 6_000, 100, 0.2, limit);
    send(refilled, after, 40, 4, limit);
    expect(refilled.failsWhenSlowed(O, 'createPet')).toBe(false);

    const unpaced = new SlowedRefusals();
    for (let i = 1, at = 0; i <= 400; i++) unpaced.answered(O, 'createPet', i % 5 === 0, Infinity, (at += i <= 200 ? 10 : 25));
    expect(unpaced.failsWhenSlowed(O, 'createPet')).toBe(false);

    const seldom = new SlowedRefusals();
    const t = send(seldom, 0, 100, 4, (i) => i % 20 === 0);
    send(seldom, t, 30, 4, (i) => i % 20 === 0);
    expect(seldom.failsWhenSlowed(O, 'createPet')).toBe(false);
  });
});
