import { describe, expect, it } from 'vitest';
import { OriginCaps } from '../../src/http/origin-caps.ts';

const O = 'http://127.0.0.1:1';

/** `n` requests to O started (each must be let through), and the caps. */
function withInFlight(n: number): OriginCaps {
  const caps = new OriginCaps();
  for (let i = 0; i < n; i++) expect(caps.tryStart(O)).toBe(true);
  return caps;
}

describe('OriginCaps: a cap per origin on requests in flight, learnt from 503s without Retry-After and closed new connections', () => {
  it('lets everything through until a refusal', () => {
    const caps = withInFlight(50);
    expect(caps.others(O)).toBe(49);
    expect(caps.capOf(O)).toBe(Infinity);
  });

  it('halves to what was in flight at a refusal beside others, once a calm answer has come', () => {
    const caps = withInFlight(8);
    caps.calm(O);
    caps.landed(O);
    expect(caps.refused(O, caps.others(O))).toEqual({ mayBeLoad: true });
    expect(caps.capOf(O)).toBe(3);
    caps.landed(O);
    // Six still out: none more goes until four have landed.
    for (let i = 0; i < 3; i++) caps.landed(O);
    expect(caps.tryStart(O)).toBe(false);
    caps.landed(O);
    expect(caps.tryStart(O)).toBe(true);
  });

  it('takes a refusal to a request that went alone as no sign of load', () => {
    const caps = withInFlight(1);
    caps.calm(O);
    expect(caps.refused(O, 0)).toEqual({ mayBeLoad: false });
    expect(caps.capOf(O)).toBe(Infinity);
  });

  it('counts an origin that refuses a request sent alone, before any calm answer, as down: uncapped, no load', () => {
    const caps = withInFlight(4);
    expect(caps.refused(O, 3).mayBeLoad).toBe(true);
    expect(caps.tryStart(O)).toBe(false);
    for (let i = 0; i < 3; i++) caps.landed(O);
    expect(caps.refused(O, 0).mayBeLoad).toBe(false);
    expect(caps.refused(O, 5).mayBeLoad).toBe(false);
    for (let i = 0; i < 20; i++) expect(caps.tryStart(O)).toBe(true);
    caps.calm(O);
    expect(caps.refused(O, 20).mayBeLoad).toBe(true);
  });

  it('creeps back by one after as many calm answers as the cap allows, below where the origin refused', () => {
    const caps = withInFlight(8);
    caps.calm(O);
    caps.refused(O, 7);
    for (let i = 0; i < 8; i++) caps.landed(O);
    const capNow = () => {
      let n = 0;
      while (caps.tryStart(O)) n++;
      for (let i = 0; i < n; i++) caps.landed(O);
      return n;
    };
    expect(capNow()).toBe(4);
    for (let i = 0; i < 4; i++) caps.calm(O);
    expect(capNow()).toBe(5);
    for (let i = 0; i < 20; i++) caps.calm(O);
    expect(capNow()).toBe(7);
    // Tried at 8 again only after a long calm: 8 caps' worth of answers since the refusal (24 so far).
    for (let i = 0; i < 7 * 8 - 24 - 1; i++) caps.calm(O);
    expect(capNow()).toBe(7);
    caps.calm(O);
    expect(capNow()).toBe(8);
  });

  it('wakes those waiting as requests land or the cap rises, critical ones first', async () => {
    const caps = withInFlight(4);
    caps.calm(O);
    caps.refused(O, 3);
    const order: string[] = [];
    void caps.whenFreer(O).then(() => order.push('plain'));
    void caps.whenFreer(O, true).then(() => order.push('critical'));
    caps.landed(O);
    caps.landed(O);
    await Promise.resolve();
    expect(order).toEqual([]);
    caps.landed(O);
    await Promise.resolve();
    expect(order).toEqual(['critical']);
    caps.landed(O);
    await Promise.resolve();
    expect(order).toEqual(['critical', 'plain']);
  });

  it('wakes those waiting once an origin counts as down, as it goes uncapped', async () => {
    const caps = withInFlight(2);
    caps.refused(O, 1);
    expect(caps.tryStart(O)).toBe(false);
    let woken = false;
    void caps.whenFreer(O).then(() => (woken = true));
    caps.refused(O, 0);
    await Promise.resolve();
    expect(woken).toBe(true);
    expect(caps.capOf(O)).toBe(Infinity);
  });

  it('cuts once for one overshoot: the refusals of requests sent before the cut, draining with fewer beside them, cut it no further', () => {
    const caps = withInFlight(12);
    caps.calm(O);
    const before = caps.cutsOf(O);
    caps.refused(O, 11, before);
    expect(caps.capOf(O)).toBe(6);
    // Their fellows, refused as they drain, each with fewer beside them: no further cut.
    for (let alongside = 10; alongside >= 1; alongside--) expect(caps.refused(O, alongside, before).mayBeLoad).toBe(true);
    expect(caps.capOf(O)).toBe(6);
    for (let i = 0; i < 12; i++) caps.landed(O);
    // A refusal of a request sent under the cut cap cuts again.
    for (let i = 0; i < 6; i++) caps.tryStart(O);
    caps.refused(O, 5, caps.cutsOf(O));
    expect(caps.capOf(O)).toBe(3);
  });

  it('keeps the ceiling of the first refusal of an overshoot: the cap climbs back to just below it', () => {
    const caps = withInFlight(12);
    caps.calm(O);
    const before = caps.cutsOf(O);
    caps.refused(O, 11, before);
    for (let alongside = 10; alongside >= 1; alongside--) caps.refused(O, alongside, before);
    for (let i = 0; i < 12; i++) caps.landed(O);
    for (let i = 0; i < 60; i++) caps.calm(O);
    expect(caps.capOf(O)).toBe(11);
  });

  it('limitedTo: the cap goes to that size and climbs no higher until the long calm (a limit on connections met beside idle ones)', () => {
    const caps = withInFlight(1);
    caps.calm(O);
    caps.landed(O);
    caps.limitedTo(O, 3);
    expect(caps.capOf(O)).toBe(3);
    for (let i = 0; i < 8 * 3 - 1; i++) caps.calm(O);
    expect(caps.capOf(O)).toBe(3);
    for (let i = 0; i < 3; i++) caps.calm(O);
    expect(caps.capOf(O)).toBe(4);
  });

  it('limitedTo for good: the cap never climbs past it, however long the calm (a server that serves so many connections at a time)', () => {
    const caps = withInFlight(1);
    caps.calm(O);
    caps.landed(O);
    caps.limitedTo(O, 1, true);
    for (let i = 0; i < 200; i++) caps.calm(O);
    expect([caps.capOf(O), caps.lastingOf(O)]).toEqual([1, 1]);
  });

  it('forgive: the cap goes back to none, or to the one set for good, and those waiting go', async () => {
    const caps = withInFlight(8);
    caps.calm(O);
    caps.refused(O, 7);
    expect(caps.capOf(O)).toBe(4);
    const waiting = caps.whenFreer(O);
    caps.forgive(O);
    await waiting;
    expect(caps.capOf(O)).toBe(Infinity);
    expect(caps.tryStart(O)).toBe(true);
    const lasting = withInFlight(1);
    lasting.calm(O);
    lasting.limitedTo(O, 2, true);
    lasting.refused(O, 1);
    expect(lasting.capOf(O)).toBe(1);
    lasting.forgive(O);
    expect(lasting.capOf(O)).toBe(2);
  });

  it('keeps each origin apart', () => {
    const caps = withInFlight(6);
    caps.calm(O);
    caps.refused(O, 5);
    for (let i = 0; i < 30; i++) expect(caps.tryStart('http://127.0.0.1:2')).toBe(true);
    expect([caps.capOf(O), caps.capOf('http://127.0.0.1:2')]).toEqual([3, Infinity]);
  });
});
