import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { PACKAGE_VERSION } from '../paths.ts';
import { hasHeader, type Exchange, type ReceivedResponse, type SentRequest, type TransportFailure } from './exchange.ts';

type DispatchController = Dispatcher.DispatchController;
type DispatchHandler = Dispatcher.DispatchHandler;

export interface Authorization {
  /** Sent on the wire. */
  value: string;
  /** Recorded and shown instead, with `$API_KEY` in place of the key. */
  shown: string;
}

export interface OutgoingRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  authorization?: Authorization;
  body?: string;
}

export interface ClientOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
  /** 0 = unlimited. */
  maxRps: number;
  /** After this many transport failures in a row, further requests fail at once (0 = never). */
  breakAfter: number;
  /**
   * How many times a 429 is retried, waiting Retry-After (1 s, then 2 s, without one; never longer
   * than maxRetryAfterMs); a 503 with a Retry-After (a gateway starting the service) likewise.
   */
  retries429: number;
  maxRetryAfterMs: number;
  /**
   * All the waiting on 429 and 503 answers a client does in a run, added up: past it, they are
   * handed back at once (a server that answers every other request 429 with Retry-After: 5 would
   * otherwise stretch a run of a thousand requests to the whole --max-duration).
   */
  retryWaitBudgetMs?: number;
}

/** The default of retryWaitBudgetMs: two waits of the longest Retry-After taken, ten of a second. */
export const RETRY_WAIT_BUDGET_MS = 10_000;

/**
 * Sent with every request that names none (RFC 9110 §10.1.5: a user agent SHOULD send one): gateways
 * and WAFs refuse requests without it (AWS WAF's core rule set answers them 403). Not shown in the
 * reports' requests, nor in their curl lines, where curl sends its own.
 */
export const USER_AGENT = `animal-store-conformance/${PACKAGE_VERSION}`;

/** Response headers longer than this are a failure (curl's limit is 100 KiB; undici's default 16 KiB). */
export const MAX_HEADER_BYTES = 128 * 1024;

export const DEFAULT_CLIENT_OPTIONS: ClientOptions = {
  timeoutMs: 10_000,
  maxBodyBytes: 4 * 1024 * 1024,
  concurrency: 8,
  maxRps: 0,
  breakAfter: 4,
  retries429: 2,
  maxRetryAfterMs: 5_000,
};

export interface ClientStats {
  sent: number;
  rateLimited: number;
  /** 429s handed back to the caller, the retries spent or not attempted. */
  gaveUp429: number;
  retryAfterSeen: string[];
  /** 503s with a Retry-After (a gateway starting or scaling the service), retried or handed back. */
  unavailable: number;
  /** Time spent waiting before retries, added up over every request (see retryWaitBudgetMs). */
  waitedMs: number;
}

function classify(error: unknown): { kind: TransportFailure; message: string } {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code ?? '';
  const message = (err.cause?.message ?? err.message ?? String(error)).split('\n')[0] ?? '';
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return { kind: 'timeout', message: 'no complete answer within the request timeout' };
  }
  if (code === 'ECONNREFUSED') return { kind: 'refused', message };
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return { kind: 'headers-too-large', message: `the response headers are longer than ${MAX_HEADER_BYTES / 1024} KiB` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'dns', message };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return { kind: 'reset', message };
  if (/CERT|SSL|TLS/i.test(code) || /certificate|TLS/i.test(message)) return { kind: 'tls', message };
  return { kind: 'other', message: code ? `${code}: ${message}` : message };
}

/** While the breaker is open, one request is let through this often to see if the target is back. */
const BREAKER_PROBE_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

interface Deadline {
  at: number;
  expire: () => void;
}

/** The request as reports show it: the key replaced by its shown form. */
function shownRequest(outgoing: OutgoingRequest): SentRequest {
  const sent: SentRequest = { method: outgoing.method, url: outgoing.url, headers: { ...outgoing.headers } };
  if (outgoing.authorization) sent.headers.Authorization = outgoing.authorization.shown;
  if (outgoing.body !== undefined) sent.body = outgoing.body;
  return sent;
}

/**
 * One keep-alive connection pool per origin for the whole run (undici's Pool, without the Agent
 * layer above it); every body read up to a cap, every request bounded in time.
 */
export class HttpClient {
  readonly stats: ClientStats = { sent: 0, rateLimited: 0, gaveUp429: 0, retryAfterSeen: [], unavailable: 0, waitedMs: 0 };
  private readonly pools = new Map<string, Pool>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private nextSlot = 0;
  /** Per origin, so a dead message host does not stop requests to the main one. */
  private readonly breaker = new Map<string, { failures: number; since: number; givenUp?: number }>();

  constructor(readonly options: ClientOptions = DEFAULT_CLIENT_OPTIONS) {}

  async send(outgoing: OutgoingRequest): Promise<Exchange> {
    const breakAfter = this.options.breakAfter;
    let url: URL;
    try {
      url = new URL(outgoing.url);
    } catch (error) {
      return { request: shownRequest(outgoing), failure: classify(error), durationMs: 0 };
    }
    const origin = url.origin;
    const state = this.breaker.get(origin) ?? { failures: 0, since: 0 };
    this.breaker.set(origin, state);
    if (breakAfter > 0 && state.failures >= breakAfter && Date.now() - state.since < BREAKER_PROBE_MS) {
      // A target that stopped answering is not asked again and again until the budget runs out.
      return { request: shownRequest(outgoing), failure: { kind: 'not-sent', message: `the target failed ${breakAfter} requests in a row` }, durationMs: 0 };
    }
    for (let attempt = 0; ; attempt++) {
      const exchange = await this.sendOnce(outgoing, url);
      const broken = exchange.failure || exchange.response?.truncated;
      state.failures = broken ? state.failures + 1 : 0;
      if (broken && state.failures >= breakAfter) state.since = Date.now();
      const status = exchange.response?.status;
      const retryAfter = exchange.response?.headers['retry-after'];
      const retryable = status === 429 || (status === 503 && retryAfterMs(retryAfter) !== undefined);
      if (!retryable) {
        if (exchange.response) state.givenUp = undefined;
        return exchange;
      }
      if (status === 429) {
        this.stats.rateLimited++;
        if (retryAfter) this.stats.retryAfterSeen.push(retryAfter);
      } else this.stats.unavailable++;
      // Without a usable Retry-After (429 only), back off 1 s, then 2 s.
      const wait = retryAfterMs(retryAfter) ?? 1_000 * 2 ** attempt;
      const budget = this.options.retryWaitBudgetMs ?? RETRY_WAIT_BUDGET_MS;
      if (state.givenUp === status || attempt >= this.options.retries429 || wait > this.options.maxRetryAfterMs || this.stats.waitedMs + wait > budget) {
        // Until the origin answers something else again, its 429s (or 503s) are not waited out one by one.
        state.givenUp = status;
        if (status === 429) this.stats.gaveUp429++;
        return exchange;
      }
      this.stats.waitedMs += wait;
      await sleep(wait);
    }
  }

  /**
   * Every request's deadline, checked by one interval rather than a timer set and cleared per
   * request; a timeout fires up to a tenth of the timeout (at most 100 ms) late.
   */
  private readonly deadlines = new Set<Deadline>();
  private sweeper: NodeJS.Timeout | undefined;

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { keepAliveTimeout: 10_000, connections: this.options.concurrency, maxHeaderSize: MAX_HEADER_BYTES, connect: { timeout: this.options.timeoutMs } });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  private watch(deadline: Deadline): void {
    this.deadlines.add(deadline);
    this.sweeper ??= setInterval(() => this.sweep(), Math.min(100, Math.max(1, this.options.timeoutMs / 10))).unref();
  }

  private sweep(): void {
    const now = performance.now();
    for (const deadline of this.deadlines) if (deadline.at <= now) deadline.expire();
    if (this.deadlines.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.all([...this.pools.values()].map((pool) => pool.destroy()));
    this.pools.clear();
  }

  private async acquire(): Promise<void> {
    if (this.active >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    if (this.options.maxRps > 0) {
      const now = Date.now();
      const slot = Math.max(now, this.nextSlot);
      this.nextSlot = slot + 1000 / this.options.maxRps;
      if (slot > now) await sleep(slot - now);
    }
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  private async sendOnce(outgoing: OutgoingRequest, url: URL): Promise<Exchange> {
    const headers: Record<string, string> = { ...outgoing.headers };
    if (!hasHeader(headers, 'user-agent')) headers['user-agent'] = USER_AGENT;
    if (outgoing.authorization) headers.authorization = outgoing.authorization.value;
    const sent = shownRequest(outgoing);
    await this.acquire();
    const started = performance.now();
    try {
      this.stats.sent++;
      const response = await this.dispatch(outgoing, url, headers);
      return { request: sent, response, durationMs: performance.now() - started };
    } catch (error) {
      return { request: sent, failure: classify(error), durationMs: performance.now() - started };
    } finally {
      this.release();
    }
  }

  /**
   * One request through undici's dispatch API: no stream or promise per body chunk, the body kept
   * up to the cap (the rest dropped with the connection), the whole exchange bounded in time.
   */
  private dispatch(outgoing: OutgoingRequest, url: URL, headers: Record<string, string>): Promise<ReceivedResponse> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new undiciErrors.InvalidArgumentError('invalid protocol');
    const { maxBodyBytes, timeoutMs } = this.options;
    return new Promise((resolve, reject) => {
      let controller: DispatchController | undefined;
      let settled = false;
      let status = 0;
      let responseHeaders: Record<string, string> = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const settle = (error: unknown, truncated = false) => {
        if (settled) return;
        settled = true;
        this.deadlines.delete(deadline);
        if (error) reject(error);
        else resolve({ status, headers: responseHeaders, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), truncated });
      };
      const deadline: Deadline = {
        at: performance.now() + timeoutMs,
        expire: () => {
          const error = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
          controller?.abort(error);
          settle(error);
        },
      };
      this.watch(deadline);
      const handler: DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          if (settled) c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
        },
        onResponseStart(_c, statusCode, raw) {
          status = statusCode;
          responseHeaders = {};
          for (const name in raw) {
            const value = raw[name];
            if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
          }
        },
        onResponseData(c, chunk) {
          const room = maxBodyBytes - size;
          if (chunk.length <= room) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          chunks.push(chunk.subarray(0, room));
          size += room;
          settle(undefined, true);
          c.abort(new Error('the body cap was reached'));
        },
        onResponseEnd() {
          settle(undefined);
        },
        onResponseError(_c, error) {
          settle(error);
        },
      };
      try {
        this.pool(url.origin).dispatch(
          {
            origin: url.origin,
            path: url.search ? `${url.pathname}${url.search}` : url.pathname,
            method: outgoing.method as Dispatcher.HttpMethod,
            headers,
            body: outgoing.body ?? null,
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
            // A server may refuse a body before reading it and then read nothing more on the
            // connection (RFC 9112 §9.6 has it close the connection; not all do): a request that
            // carries a body gets a connection of its own, so the next request never waits behind it.
            ...(outgoing.body === undefined ? {} : { reset: true }),
          },
          handler,
        );
      } catch (error) {
        settle(error);
      }
    });
  }
}
