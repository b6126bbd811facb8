import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../http/exchange.ts';
import type { WorkerContext } from './worker.ts';

/**
 * Waits before each further read of what the service has shown written (an animal by id after its
 * 201 or a listing, a page after creates) while it does not show it yet: about a second in all,
 * backing off. The spec promises no read-your-writes timing (a read replica or a search index may
 * trail the primary), so a missing write counts only once this window has passed.
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

/** Per kind of read, the workers in which one read still lagged when the window closed. */
const GAVE_UP = new Map<string, WeakSet<WorkerContext>>();

/**
 * Sends `send` and, while its answer `lags` (a write not yet visible), again after each of
 * READ_LAG_DELAYS_MS. Once one read of a `kind` still lagged when the window closed, later ones in
 * the worker get one request only: that failure is on record already, and a store that loses
 * writes must not cost a second per read (nor per shrinking step).
 */
export async function readAfterWrite(ctx: WorkerContext, kind: string, send: () => Promise<Exchange>, lags: (exchange: Exchange) => boolean): Promise<Fetched> {
  const gaveUp = GAVE_UP.get(kind) ?? new WeakSet<WorkerContext>();
  GAVE_UP.set(kind, gaveUp);
  const started = performance.now();
  let sentLast = started;
  let exchange = await send();
  let misses = 0;
  const delays = gaveUp.has(ctx) ? [] : READ_LAG_DELAYS_MS;
  while (lags(exchange) && misses < delays.length) {
    await sleep(delays[misses]!);
    misses++;
    sentLast = performance.now();
    exchange = await send();
  }
  if (lags(exchange) && delays.length > 0) gaveUp.add(ctx);
  return { exchange, misses, lagMs: Math.round(sentLast - started) };
}

/** A GET /pets/{petId} of an animal the service has shown (its 201, a listing), again while it answers 404. */
export function fetchShownPet(ctx: WorkerContext, send: () => Promise<Exchange>): Promise<Fetched> {
  return readAfterWrite(ctx, 'getPet', send, (exchange) => exchange.response?.status === 404);
}
