// Pipelined properties (Scenario.property with a Probe): at most PIPELINE_DEPTH requests in flight
// against a target that answers at once, --concurrency against one whose round trip is long; never
// more than --concurrency; and a failure found on the way is still replayed by fast-check and shrunk.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { startRecordingProxy, type Flight, type RecordingProxy } from '../support/recording-proxy.ts';
import { concurrencyFor, isRemote, PIPELINE_DEPTH, REMOTE_ROUND_TRIP_MS, pipelineDepth } from '../../src/suite/config.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'pipeline-test-key-5b8e21';

describe('pipelined properties', () => {
  let reference: RunningReference;
  const flight: Flight = { now: 0, max: 0 };
  let main: RecordingProxy;
  let messages: RecordingProxy;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    main = await startRecordingProxy(reference.baseUrl, flight);
    messages = await startRecordingProxy(reference.messagesBaseUrl, flight);
  });
  afterAll(async () => {
    await main.close();
    await messages.close();
    await reference.close();
  });

  // §4.2, §4.5 and §5 are properties and single checks only; the set-up that fills the store for
  // the filter and limit scenarios (and the sequences of calls) creates pets side by side (up to
  // --concurrency) and is left out, and a sequence's calls go one at a time anyway.
  const args = () => ['--base-url', main.url, '--messages-base-url', messages.url, '--runs', '20', '--seed', '4', '--only', '4.2,4.5,5', '--stateful', 'off'];

  it(`keep at most ${PIPELINE_DEPTH} requests in flight, over both hosts`, async () => {
    flight.max = 0;
    const result = await runCli(args(), { API_KEY: KEY });
    expect(result.code).toBe(0);
    expect(main.requests.length + messages.requests.length).toBeGreaterThan(200);
    const roundTripMs = result.report?.pipeline?.roundTripMs;
    expect(roundTripMs).toBeTypeOf('number');
    // A machine loaded hard enough can make loopback's fastest round trip look remote: the depth
    // then follows the measurement, which is what this pins, alongside the loopback case. The report
    // gives the round trip to a tenth of a ms, so one of 0.95 to 1.05 may have gone either way.
    const depth = result.report!.pipeline!.depth;
    const [low, high] = [roundTripMs! - 0.05, roundTripMs! + 0.049];
    // Far (1 ms or more), the cap is 1 per ms of the round trip, at least 8, and the depth that cap.
    // The tenth it was rounded to may also have crossed a whole ms (9.04 shown as 9.0 gives a cap of 10).
    if (isRemote(low) === isRemote(high)) expect([pipelineDepth(low, concurrencyFor(low)), pipelineDepth(high, concurrencyFor(high))]).toContain(depth);
    if (depth !== PIPELINE_DEPTH) expect(depth).toBeGreaterThanOrEqual(8);
    const far = depth !== PIPELINE_DEPTH;
    // The same reading chose the schedule: side by side exactly where it chose the far depth.
    expect(result.report!.pipeline!.schedule).toBe(far ? 'concurrent' : 'sequential');
    // The Replay line pins the schedule the round trip chose, so a replay from nearer, farther or under another load takes it too.
    expect(result.report!.replay).toContain(`--schedule ${far ? 'concurrent' : 'sequential'}`);
    // Far, a server that answers at once may never hold all of them (the test below has one that waits).
    if (depth === PIPELINE_DEPTH) expect(flight.max).toBe(depth);
    else expect(flight.max).toBeLessThanOrEqual(depth);
    if (depth === PIPELINE_DEPTH) expect(result.stdout).not.toMatch(/requests in flight/);
  });

  it(`keep --concurrency requests in flight against a target whose round trip is ${REMOTE_ROUND_TRIP_MS} ms or more, with the same verdicts`, async () => {
    const slow: Flight = { now: 0, max: 0 };
    const delayMs = REMOTE_ROUND_TRIP_MS + 3;
    const slowMain = await startRecordingProxy(reference.baseUrl, slow, { delayMs });
    const slowMessages = await startRecordingProxy(reference.messagesBaseUrl, slow, { delayMs });
    try {
      const slowArgs = ['--base-url', slowMain.url, '--messages-base-url', slowMessages.url, '--runs', '10', '--seed', '4', '--only', '4.5,5'];
      for (const concurrency of [8, 3]) {
        slow.max = 0;
        const result = await runCli([...slowArgs, '--concurrency', String(concurrency)], { API_KEY: KEY });
        expect(result.code).toBe(0);
        expect(result.report?.pipeline?.depth).toBe(concurrency);
        expect(result.report?.pipeline?.roundTripMs).toBeGreaterThanOrEqual(delayMs);
        expect(result.report?.pipeline?.schedule).toBe('concurrent');
        expect(result.report?.replay).toContain('--schedule concurrent');
        expect(slow.max).toBe(concurrency);
        expect(result.stdout).toMatch(new RegExp(`${concurrency} requests in flight \\(round trip \\d+ ms\\)`));
      }
    } finally {
      await slowMain.close();
      await slowMessages.close();
    }
  });

  it('keep to --concurrency 1: one request at a time', async () => {
    flight.max = 0;
    const result = await runCli([...args(), '--concurrency', '1'], { API_KEY: KEY });
    expect(result.code).toBe(0);
    expect(flight.max).toBe(1);
  });

  it('replay a failure through fast-check, which shrinks it and records its path', async () => {
    const faulty = await startReference({ apiKey: KEY, deviations: ['fault-create-accepts-bad-status'] });
    try {
      // One scenario after another, as on loopback: side by side (a loaded machine can measure loopback at
      // 1 ms or more, which picks that schedule) fast-check shrinks to another counterexample ("aaa", "sold ").
      const args = ['--base-url', faulty.baseUrl, '--messages-base-url', faulty.messagesBaseUrl, '--runs', '20', '--seed', '3', '--only', 'create.invalid-400', '--stateful', 'off', '--schedule', 'sequential'];
      const result = await runCli(args, { API_KEY: KEY });
      expect(result.code).toBe(1);
      const check = result.report?.clauses.find((c) => c.id === 'create.invalid-400')?.checks.find((k) => k.outcome === 'fail');
      // Any string status is accepted: fast-check shrinks the body to the smallest of them, on the smallest pet every
      // server must take (a core name of three characters, "a a" or "aaa" as the draws go, and the first categoryId
      // the listing shows: the seed's 1).
      const counterexample = JSON.parse(check?.counterexample ?? '{}') as { kind?: string; body?: string };
      expect(counterexample.kind, JSON.stringify(check)).toBe('enum');
      expect(counterexample.body).toMatch(/^\{"name":"a[a ]a","categoryId":1,"status":""\}$/);
      expect(check?.path).toMatch(/^\d+(:\d+)*$/);
    } finally {
      await faulty.close();
    }
  });
});
