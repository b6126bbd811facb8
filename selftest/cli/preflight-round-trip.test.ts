// The round trip the preflight measures, from which the run chooses how far away the target is:
// a few answers timed, more while the fastest lies near the line between near and far.

import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { preflight } from '../../src/cli/preflight.ts';
import { MAX_ROUND_TRIP_SAMPLES, REMOTE_ROUND_TRIP_MS, ROUND_TRIP_SAMPLES, type SuiteConfig } from '../../src/suite/config.ts';

const KEY = 'preflight-round-trip-key';

/** A target whose n-th answer (from 1) is held `holdMs(n)` before it is sent. */
async function target(holdMs: (n: number) => number): Promise<{ config: SuiteConfig; requests: () => number; arrivals: number[]; connections: Set<Socket>; server: Server }> {
  let requests = 0;
  const arrivals: number[] = [];
  const connections = new Set<Socket>();
  const server = createServer((request, response) => {
    requests++;
    connections.add(request.socket);
    const arrived = performance.now();
    arrivals.push(arrived);
    const until = arrived + holdMs(requests);
    // A timer may fire up to a millisecond early (it counts from the loop's cached time): waited out to the mark.
    const answer = () => (performance.now() >= until ? response.writeHead(200, { 'content-type': 'application/json' }).end('[]') : setImmediate(answer));
    if (until === arrived) answer();
    else setTimeout(answer, Math.max(0, Math.floor(until - arrived) - 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Writes off: the message host gets the GET that only shows it answers (the key's POST is run.test.ts's).
  const config = { baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, timeoutMs: 5_000, concurrency: 8, writes: false, clauses: [], only: [], skip: [] } as unknown as SuiteConfig;
  return { config, requests: () => requests, arrivals, connections, server };
}

describe('the preflight round trip', () => {
  let server: Server | undefined;
  let messagesServer: Server | undefined;
  afterEach(async () => {
    for (const open of [server, messagesServer]) if (open) await new Promise((resolve) => open.close(resolve));
    server = messagesServer = undefined;
  });

  const HELD_MS = 200;
  const withSlowMessageHost = async (concurrency: number) => {
    const main = await target(() => 4 * REMOTE_ROUND_TRIP_MS + 2);
    const messages = await target(() => HELD_MS);
    server = main.server;
    messagesServer = messages.server;
    await preflight({ ...main.config, messagesBaseUrl: messages.config.baseUrl, concurrency }, 'API_KEY');
    return { main: main.arrivals, messages: messages.arrivals };
  };

  it('checks the message host while it times the round trip: a slow one holds up the start once', async () => {
    const { main, messages } = await withSlowMessageHost(8);
    expect(messages).toHaveLength(1);
    expect(main).toHaveLength(ROUND_TRIP_SAMPLES);
    expect(main.at(-1)! - messages[0]!).toBeLessThan(HELD_MS);
  });

  it('keeps to one request at a time under --concurrency 1', async () => {
    const { main, messages } = await withSlowMessageHost(1);
    expect(main).toHaveLength(ROUND_TRIP_SAMPLES);
    expect(main[1]! - messages[0]!).toBeGreaterThanOrEqual(HELD_MS);
  });

  it(`times ${ROUND_TRIP_SAMPLES} answers of a target well past the line, all on one connection (a new one would add its handshake far away)`, async () => {
    const far = await target(() => 4 * REMOTE_ROUND_TRIP_MS + 2);
    server = far.server;
    const { roundTripMs } = await preflight(far.config, 'API_KEY');
    expect(far.requests()).toBe(ROUND_TRIP_SAMPLES);
    expect(far.connections.size).toBe(1);
    expect(roundTripMs).toBeGreaterThanOrEqual(4 * REMOTE_ROUND_TRIP_MS + 2);
  });

  // A loaded machine may add more than the line's width to a held answer, which puts the target past
  // the line (and so stops at ${ROUND_TRIP_SAMPLES} answers, rightly): such a try is checked for that and tried again.
  const TRIES = 5;
  const tryNearTheLine = async (holdMs: (n: number) => number, judge: (requests: number, roundTripMs: number) => void) => {
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      const near = await target(holdMs);
      server = near.server;
      const { roundTripMs } = await preflight(near.config, 'API_KEY');
      await new Promise((resolve) => near.server.close(resolve));
      server = undefined;
      expect(roundTripMs).toBeDefined();
      if (near.requests() === ROUND_TRIP_SAMPLES && roundTripMs! >= 4 * REMOTE_ROUND_TRIP_MS) continue;
      judge(near.requests(), roundTripMs!);
      return;
    }
    expect.fail(`each of ${TRIES} tries measured the held answers past ${4 * REMOTE_ROUND_TRIP_MS} ms: the machine is too loaded to place a target near the line`);
  };

  it('times more answers while the fastest is near the line, and takes a faster one that comes later (a target warming up)', async () => {
    await tryNearTheLine(
      (n) => (n <= ROUND_TRIP_SAMPLES ? 2 * REMOTE_ROUND_TRIP_MS : 0),
      (requests, roundTripMs) => {
        expect(requests).toBeGreaterThan(ROUND_TRIP_SAMPLES);
        expect(requests).toBeLessThanOrEqual(MAX_ROUND_TRIP_SAMPLES);
        expect(roundTripMs).toBeLessThan(2 * REMOTE_ROUND_TRIP_MS);
      },
    );
  });

  it(`stops at ${MAX_ROUND_TRIP_SAMPLES} answers of a target that stays near the line: it is that far`, async () => {
    await tryNearTheLine(
      () => 2 * REMOTE_ROUND_TRIP_MS,
      (requests, roundTripMs) => {
        expect(requests).toBe(MAX_ROUND_TRIP_SAMPLES);
        expect(roundTripMs).toBeGreaterThanOrEqual(2 * REMOTE_ROUND_TRIP_MS);
      },
    );
  });
});
