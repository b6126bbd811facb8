import { describe, expect, it } from 'vitest';
import { REST_MS, RestGate } from '../../src/http/rest-gate.ts';

describe('RestGate: the whole client held back for one request', () => {
  it('holds the others back from the drain until the rest is reopened, at least REST_MS after it began', async () => {
    let inFlight = 1;
    const gate = new RestGate(() => inFlight === 0);
    expect(gate.isResting()).toBe(false);
    const began = performance.now();
    let drainedAfter = -1;
    const resting = gate.rest(() => (drainedAfter = performance.now() - began));
    setTimeout(() => (inFlight = 0), 50);
    let passed = false;
    void gate.passed().then(() => (passed = true));
    const reopen = await resting;
    // The rest is counted from the drain, which the one request in flight held up 50 ms.
    expect(performance.now() - began).toBeGreaterThanOrEqual(REST_MS + 40);
    // Told of the drain before the quiet, so that what it lets go has the whole rest to be read.
    expect(drainedAfter).toBeGreaterThanOrEqual(40);
    expect(drainedAfter).toBeLessThan(REST_MS);
    expect(gate.isResting()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(passed).toBe(false);
    reopen!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(passed).toBe(true);
    expect(gate.isResting()).toBe(false);
  });

  it('takes one rest at a time: a second begins once the first is reopened', async () => {
    const gate = new RestGate(() => true);
    const first = await gate.rest();
    let second: (() => void) | undefined;
    const later = gate.rest().then((reopen) => (second = reopen));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second).toBeUndefined();
    const reopened = performance.now();
    first!();
    await later;
    expect(performance.now() - reopened).toBeGreaterThanOrEqual(REST_MS - 5);
    second!();
  });

  it('takes eight rests a run at the most, then none', async () => {
    const gate = new RestGate(() => true, 10);
    for (let i = 0; i < 8; i++) (await gate.rest())!();
    expect(await gate.rest()).toBeUndefined();
    expect(gate.isResting()).toBe(false);
  });
});
