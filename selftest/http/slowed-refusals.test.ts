import { describe, expect, it } from 'vitest';
import { SlowedRefusals } from '../../src/http/slowed-refusals.ts';

const O = 'http://127.0.0.1:1';
const M = 'http://127.0.0.1:2';

/** Paced answers to createPet, `rps` of them a second for `seconds` from `from` ms, each refused where `refuse` says so; the time after the last. */
function send(slowed: SlowedRefusals, from: number, rps: number, seconds: number, refuse: (i: number, at: number) => boolean): number {
  let at = from;
  for (let i = 1; i <= rps * seconds; i++) {
    at = from + (i * 1000) / rps;
    slowed.answered(O, 'createPet', refuse(i, at), true, at);
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
  it('an operation refused every 5th answer, served at half the rate once sent at half, fails', () => {
    const slowed = new SlowedRefusals();
    const t = send(slowed, 0, 100, 2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(false);
    send(slowed, t, 40, 2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(true);
    expect(slowed.failsWhenSlowed(O, 'listPets')).toBe(false);
  });

  it('says so once, on the answer that shows it', () => {
    const slowed = new SlowedRefusals();
    let shown = 0;
    for (let i = 1, at = 0; i <= 400; i++) {
      at += i <= 200 ? 10 : 25;
      if (slowed.answered(O, 'createPet', i % 5 === 0, true, at)) shown++;
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

  it('refusals that come with other operations refused (a limit shared with them, on any host) are not read as failing', () => {
    const slowed = new SlowedRefusals();
    let t = send(slowed, 0, 100, 2, (i) => i % 5 === 0);
    for (let i = 0; i < 50; i++) slowed.answered(M, 'sendMessage', i % 10 === 0, false, t);
    t = send(slowed, t, 40, 2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(false);
  });

  it('other operations answered calmly meanwhile do not hold it back', () => {
    const slowed = new SlowedRefusals();
    let t = send(slowed, 0, 100, 2, (i) => i % 5 === 0);
    for (let i = 0; i < 200; i++) slowed.answered(O, 'listPets', false, true, t);
    t = send(slowed, t, 40, 2, (i) => i % 5 === 0);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(true);
  });

  it('reads nothing across a pause, from unpaced answers, or from refusals a few in a hundred', () => {
    const paused = new SlowedRefusals();
    send(paused, 0, 100, 2, (i) => i % 5 === 0);
    send(paused, 5_000, 40, 2, (i) => i % 5 === 0);
    expect(paused.failsWhenSlowed(O, 'createPet')).toBe(false);

    const unpaced = new SlowedRefusals();
    for (let i = 1, at = 0; i <= 400; i++) unpaced.answered(O, 'createPet', i % 5 === 0, false, (at += i <= 200 ? 10 : 25));
    expect(unpaced.failsWhenSlowed(O, 'createPet')).toBe(false);

    const seldom = new SlowedRefusals();
    const t = send(seldom, 0, 100, 4, (i) => i % 20 === 0);
    send(seldom, t, 40, 4, (i) => i % 20 === 0);
    expect(seldom.failsWhenSlowed(O, 'createPet')).toBe(false);
  });
});
