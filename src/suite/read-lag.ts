import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../http/exchange.ts';
import type { WorkerContext } from './worker.ts';

/**
 * Waits before each further read of what the service has shown written (an animal by id after its
 * 201 or a listing, a page after creates) while it does not show it yet: 5 s in all, backing off.
 * The spec promises no read-your-writes timing (a read replica or a search index refreshed each
 * second may trail the primary by more than one), so a missing write counts only once this window
 * has passed.
 */
export const READ_LAG_DELAYS_MS: readonly number[] = [20, 40, 80, 160, 300, 400, 500, 500, 500, 500, 1000, 1000];

/**
 * The waiting before each further read, summed: 20, 60, 140, 300, 600, 1000, 1500, 2000, 2500, 3000,
 * 4000, 5000 ms; steps of 500 ms up to 3 s, as a lag found at one is held before every later fresh read.
 */
const SCHEDULE_MS = READ_LAG_DELAYS_MS.map((_, i) => READ_LAG_DELAYS_MS.slice(0, i + 1).reduce((sum, ms) => sum + ms, 0));

/** A read that has waited this long in all and still lags counts as missing. */
const WINDOW_MS = SCHEDULE_MS.at(-1)!;

/** A GET of an animal known to exist, after whatever 404s the window allowed. */
export interface Fetched {
  /** The answer that counts: the first that was not a 404, or the last 404. */
  exchange: Exchange;
  /** 404s before it. */
  misses: number;
  /** From when the read began (the write just shown) to the GET sent last. */
  lagMs: number;
  /** How long the first GET was held back, as earlier reads of this kind had met that lag (0: sent at once). */
  heldMs?: number;
  /** The first answer lagged and `stillShown` said the write was no longer shown: not waited out, evidence of nothing. */
  unshown?: boolean;
}

/** `fresh`: the write has just been shown (its 201 just in); `stillShown`: see readAfterWrite. */
export interface ReadOptions {
  fresh?: boolean;
  stillShown?: () => Promise<boolean>;
}

/** What one worker has met of one kind of read. */
interface KindLag {
  /** The longest a read waited for a write to show, from its start to the GET that found it. */
  seenMs: number;
  /** A read still lagged when its window closed: later ones get one request only. */
  gaveUp: boolean;
  /** While nothing is seen yet, the first read that lags finds out how long; the others wait for it. */
  finding?: Promise<void>;
}

const LAGS = new WeakMap<WorkerContext, Map<string, KindLag>>();

function lagOf(ctx: WorkerContext, kind: string): KindLag {
  let kinds = LAGS.get(ctx);
  if (!kinds) LAGS.set(ctx, (kinds = new Map()));
  let lag = kinds.get(kind);
  if (!lag) kinds.set(kind, (lag = { seenMs: 0, gaveUp: false }));
  return lag;
}

/** Per worker, the reads waiting now (they hold no request on the wire) and whom to tell when one starts. */
const WAITING = new WeakMap<WorkerContext, { count: number; listeners: Set<() => void> }>();

function waitingOf(ctx: WorkerContext): { count: number; listeners: Set<() => void> } {
  let waiting = WAITING.get(ctx);
  if (!waiting) WAITING.set(ctx, (waiting = { count: 0, listeners: new Set() }));
  return waiting;
}

/** How many reads of the worker are waiting out a lag now. */
export function waitingReads(ctx: WorkerContext): number {
  return WAITING.get(ctx)?.count ?? 0;
}

/**
 * Calls `listener` (in a microtask) each time a read of the worker starts waiting out a lag, until
 * the returned function is called: a pipelined property sends its next inputs meanwhile. Every
 * listener is told, so properties and scenarios side by side each fill their share.
 */
export function onReadWaiting(ctx: WorkerContext, listener: () => void): () => void {
  const listeners = waitingOf(ctx).listeners;
  const told = () => queueMicrotask(() => listeners.has(told) && listener());
  listeners.add(told);
  return () => listeners.delete(told);
}

/**
 * Waits `what` ms, or until `what` settles, counted among the worker's waiting reads. Returns the
 * ms waited: those asked for (a timer may fire a little early, and the window is the waits asked
 * for, as READ_LAG_DELAYS_MS are), or those measured while waiting for another read.
 */
async function pause(ctx: WorkerContext, what: number | Promise<void>): Promise<number> {
  const waiting = waitingOf(ctx);
  const started = performance.now();
  waiting.count++;
  for (const listener of waiting.listeners) listener();
  try {
    await (typeof what === 'number' ? sleep(what) : what);
  } finally {
    waiting.count--;
  }
  return typeof what === 'number' ? what : performance.now() - started;
}

/**
 * Sends `send` and, while its answer `lags` (a write not yet visible), again after each of
 * READ_LAG_DELAYS_MS: a read counts as missing only once it has waited the whole window (5 s).
 *
 * What one read meets, the worker's later reads of that `kind` use:
 * - once a read was found after a lag, a read of a `fresh` write (its 201 just in) holds its first
 *   GET back that long, rather than spending it on 404s; the time held counts toward its window;
 * - while no lag is known yet, one lagging read finds out how long and the others wait for it
 *   (then for that lag since they began) rather than sending their 404s beside it;
 * - once a read still lagged when its window closed, later ones get one request only: that failure
 *   is on record already, and a store that loses writes must not cost a window per read (nor per
 *   shrinking step).
 * While a read waits, it holds no request on the wire: a pipelined property sends its next inputs
 * (see onReadWaiting). `stillShown`, asked once after a first answer that lags: whether what was
 * shown is shown still (an animal only listed may have been removed since); where it is not, the
 * read ends there, unshown, and nothing of its kind is learnt from it.
 */
export async function readAfterWrite(
  ctx: WorkerContext,
  kind: string,
  send: () => Promise<Exchange>,
  lags: (exchange: Exchange) => boolean,
  options: ReadOptions = {},
): Promise<Fetched> {
  const lag = lagOf(ctx, kind);
  const started = performance.now();
  let waited = 0;
  if (options.fresh && lag.seenMs > 0 && !lag.gaveUp) waited += await pause(ctx, lag.seenMs);
  const heldMs = Math.round(waited);
  let sentLast = performance.now();
  let exchange = await send();
  if (options.stillShown && lags(exchange) && !(await options.stillShown())) return { exchange, misses: 0, lagMs: Math.round(sentLast - started), unshown: true };
  let misses = 0;
  let found: (() => void) | undefined;
  try {
    while (lags(exchange) && !lag.gaveUp) {
      if (lag.finding && !found) {
        // Another read is finding out how long this kind lags: wait for it, then that long since this one began.
        waited += await pause(ctx, lag.finding);
        const rest = lag.seenMs - (performance.now() - started);
        if (rest > 0 && !lag.gaveUp) waited += await pause(ctx, rest);
      } else {
        const next = SCHEDULE_MS.find((ms) => ms > waited);
        if (next === undefined) break;
        if (lag.seenMs === 0 && !lag.finding) lag.finding = new Promise((resolve) => (found = resolve));
        waited += await pause(ctx, next - waited);
      }
      misses++;
      sentLast = performance.now();
      exchange = await send();
    }
    if (!lags(exchange)) {
      if (misses > 0) lag.seenMs = Math.max(lag.seenMs, sentLast - started);
    } else if (waited >= WINDOW_MS) lag.gaveUp = true;
  } finally {
    if (found) {
      lag.finding = undefined;
      found();
    }
  }
  return { exchange, misses, lagMs: Math.round(sentLast - started), ...(heldMs > 0 ? { heldMs } : {}) };
}

/**
 * A GET /pets/{petId} of an animal the service has shown (its 201, a listing), again while it
 * answers 404 (see readAfterWrite).
 */
export function fetchShownPet(ctx: WorkerContext, send: () => Promise<Exchange>, options: ReadOptions = {}): Promise<Fetched> {
  return readAfterWrite(ctx, 'getPet', send, (exchange) => exchange.response?.status === 404, options);
}
