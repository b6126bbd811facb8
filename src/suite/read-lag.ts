import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../http/exchange.ts';
import type { WorkerContext } from './worker.ts';

/**
 * Waits before each further GET of an animal the service has shown (its 201, a listing) that
 * answered 404: about a second in all, backing off. The spec promises no read-your-writes timing
 * (a read replica may trail the primary), so a 404 counts only once this window has passed.
 */
export const READ_LAG_DELAYS_MS: readonly number[] = [20, 40, 80, 160, 300, 400];

/** A GET of an animal known to exist, after whatever 404s the window allowed. */
export interface Fetched {
  /** The answer that counts: the first that was not a 404, or the last 404. */
  exchange: Exchange;
  /** 404s before it. */
  misses: number;
  /** From the first GET to the one sent last. */
  lagMs: number;
}

/** Workers in which one animal was never found within the window. */
const GAVE_UP = new WeakSet<WorkerContext>();

/**
 * Sends `send` (a GET /pets/{petId} of an animal the service has shown) and, while it answers 404,
 * again after each of READ_LAG_DELAYS_MS. Once an animal was not found within the window, later
 * ones in the worker get one GET only: that failure is on record already, and a store that loses
 * writes must not cost a second per animal (nor per shrinking step).
 */
export async function fetchShownPet(ctx: WorkerContext, send: () => Promise<Exchange>): Promise<Fetched> {
  const started = performance.now();
  let sentLast = started;
  let exchange = await send();
  let misses = 0;
  const delays = GAVE_UP.has(ctx) ? [] : READ_LAG_DELAYS_MS;
  while (exchange.response?.status === 404 && misses < delays.length) {
    await sleep(delays[misses]!);
    misses++;
    sentLast = performance.now();
    exchange = await send();
  }
  if (exchange.response?.status === 404 && delays.length > 0) GAVE_UP.add(ctx);
  return { exchange, misses, lagMs: Math.round(sentLast - started) };
}
