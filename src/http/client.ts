import { Agent, errors as undiciErrors, request } from 'undici';
import type { Exchange, SentRequest, TransportFailure } from './exchange.ts';

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
  /** How many times a 429 is retried, waiting Retry-After (capped at maxRetryAfterMs). */
  retries429: number;
  maxRetryAfterMs: number;
}

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
  retryAfterSeen: string[];
}

function classify(error: unknown): { kind: TransportFailure; message: string } {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code ?? '';
  const message = (err.cause?.message ?? err.message ?? String(error)).split('\n')[0] ?? '';
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return { kind: 'timeout', message: 'no complete answer within the request timeout' };
  }
  if (code === 'ECONNREFUSED') return { kind: 'refused', message };
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

/** One keep-alive agent for the whole run; every body read up to a cap, every request bounded in time. */
export class HttpClient {
  readonly stats: ClientStats = { sent: 0, rateLimited: 0, retryAfterSeen: [] };
  private readonly agent: Agent;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private nextSlot = 0;
  /** Per origin, so a dead message host does not stop requests to the main one. */
  private readonly breaker = new Map<string, { failures: number; since: number }>();

  constructor(readonly options: ClientOptions = DEFAULT_CLIENT_OPTIONS) {
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: options.concurrency, connect: { timeout: options.timeoutMs } });
  }

  async send(outgoing: OutgoingRequest): Promise<Exchange> {
    const breakAfter = this.options.breakAfter;
    const origin = new URL(outgoing.url).origin;
    const state = this.breaker.get(origin) ?? { failures: 0, since: 0 };
    this.breaker.set(origin, state);
    if (breakAfter > 0 && state.failures >= breakAfter && Date.now() - state.since < BREAKER_PROBE_MS) {
      // A target that stopped answering is not asked again and again until the budget runs out.
      const request: SentRequest = { method: outgoing.method, url: outgoing.url, headers: { ...outgoing.headers } };
      if (outgoing.authorization) request.headers.Authorization = outgoing.authorization.shown;
      if (outgoing.body !== undefined) request.body = outgoing.body;
      return { request, failure: { kind: 'other', message: `not sent: the target failed ${breakAfter} requests in a row` }, durationMs: 0 };
    }
    for (let attempt = 0; ; attempt++) {
      const exchange = await this.sendOnce(outgoing);
      const broken = exchange.failure || exchange.response?.truncated;
      state.failures = broken ? state.failures + 1 : 0;
      if (broken && state.failures >= breakAfter) state.since = Date.now();
      const status = exchange.response?.status;
      if (status !== 429) return exchange;
      this.stats.rateLimited++;
      const retryAfter = exchange.response?.headers['retry-after'];
      if (retryAfter) this.stats.retryAfterSeen.push(retryAfter);
      const wait = retryAfterMs(retryAfter);
      if (attempt >= this.options.retries429 || wait === undefined || wait > this.options.maxRetryAfterMs) return exchange;
      await sleep(wait);
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy();
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

  private async sendOnce(outgoing: OutgoingRequest): Promise<Exchange> {
    const headers: Record<string, string> = { ...outgoing.headers };
    const shownHeaders: Record<string, string> = { ...outgoing.headers };
    if (outgoing.authorization) {
      headers.authorization = outgoing.authorization.value;
      shownHeaders.Authorization = outgoing.authorization.shown;
    }
    const sent: SentRequest = { method: outgoing.method, url: outgoing.url, headers: shownHeaders };
    if (outgoing.body !== undefined) sent.body = outgoing.body;
    await this.acquire();
    const started = performance.now();
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      this.stats.sent++;
      const response = await request(outgoing.url, {
        method: outgoing.method as 'GET',
        headers,
        body: outgoing.body,
        dispatcher: this.agent,
        signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        const room = this.options.maxBodyBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          truncated = true;
          response.body.destroy();
          break;
        }
        chunks.push(chunk);
        size += chunk.length;
      }
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return {
        request: sent,
        response: { status: response.statusCode, headers: responseHeaders, body: Buffer.concat(chunks, size), truncated },
        durationMs: performance.now() - started,
      };
    } catch (error) {
      return { request: sent, failure: classify(error), durationMs: performance.now() - started };
    } finally {
      this.release();
    }
  }
}
