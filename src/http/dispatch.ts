import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { errors as undiciErrors, Pool, ProxyAgent, type Dispatcher } from 'undici';
import type { BodyConnection } from './body-reuse.ts';
import type { OutgoingRequest } from './client.ts';
import type { ReceivedResponse } from './exchange.ts';
import type { NetworkOptions, TlsSettings } from './network-options.ts';
import { proxyFor } from './proxy.ts';
import { isUnaskedUpgrade, NoAnswerInTime, NoHttpStatus } from './transport-failure.ts';

type DispatchController = Dispatcher.DispatchController;
type DispatchHandler = Dispatcher.DispatchHandler;

/** What every origin's pool is built with, whichever way it goes. */
export interface PoolSettings {
  keepAliveTimeout: number;
  connections: number;
  maxHeaderSize: number;
  connectTimeoutMs: number;
}

/** Node's roots plus the extra CAs: a `ca` given to TLS replaces the roots (NODE_EXTRA_CA_CERTS included) rather than adding to them. */
export function trust(tls: TlsSettings | undefined): { ca?: string[]; cert?: string; key?: string } {
  const options: { ca?: string[]; cert?: string; key?: string } = {};
  if (tls?.ca?.length) options.ca = [...rootCertificates, ...tls.ca];
  if (tls?.cert) options.cert = tls.cert;
  if (tls?.key) options.key = tls.key;
  return options;
}

/**
 * The one dispatcher an origin's requests go through for the whole run: a Pool straight to it, or,
 * when a proxy applies, a ProxyAgent holding one pool for the origin (a CONNECT tunnel per
 * connection for https://, absolute-form requests for http:// as curl sends them).
 */
export function originDispatcher(origin: string, pool: PoolSettings, network: NetworkOptions | undefined): Dispatcher {
  const url = new URL(origin);
  const tls = trust(network?.tls);
  const base = { keepAliveTimeout: pool.keepAliveTimeout, connections: pool.connections, maxHeaderSize: pool.maxHeaderSize };
  const proxy = proxyFor(url, network?.proxy);
  if (!proxy) return new Pool(origin, { ...base, connect: { timeout: pool.connectTimeoutMs, ...tls } });
  return new ProxyAgent({
    ...base,
    // The pool behind an http:// target's proxy is made with the connector alone: the same settings.
    factory: (poolOrigin, options) => new Pool(poolOrigin, { ...options, ...base }),
    uri: proxy,
    proxyTunnel: url.protocol === 'https:',
    requestTls: { timeout: pool.connectTimeoutMs, ...tls },
    proxyTls: { timeout: pool.connectTimeoutMs, ...(tls.ca ? { ca: tls.ca } : {}) },
  });
}

interface Deadline {
  at: number;
  expire: () => void;
}

/**
 * Every request's deadline, checked by one interval rather than a timer set and cleared per
 * request; a timeout fires up to a tenth of the timeout (at most 100 ms) late. A deadline found
 * passed expires only after the event loop has next read its sockets (setImmediate runs after the
 * poll phase, timers before it): after the suite's own thread was busy past a deadline, an answer
 * that came in time and waited in the socket is read, not taken for the server's timeout.
 */
export class Deadlines {
  private readonly deadlines = new Set<Deadline>();
  private sweeper: NodeJS.Timeout | undefined;
  private due: Deadline[] = [];

  constructor(private readonly timeoutMs: number) {}

  watch(deadline: Deadline): void {
    this.deadlines.add(deadline);
    this.sweeper ??= setInterval(() => this.sweep(), Math.min(100, Math.max(1, this.timeoutMs / 10))).unref();
  }

  delete(deadline: Deadline): void {
    this.deadlines.delete(deadline);
  }

  private sweep(): void {
    if (this.due.length) return;
    const now = performance.now();
    for (const deadline of this.deadlines) if (deadline.at <= now) this.due.push(deadline);
    if (this.due.length) setImmediate(() => this.expireDue());
    else if (this.deadlines.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private expireDue(): void {
    const due = this.due;
    this.due = [];
    const now = performance.now();
    for (const deadline of due) if (this.deadlines.has(deadline) && deadline.at <= now) deadline.expire();
    if (this.deadlines.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  stop(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}

/**
 * The socket a request went out on: for closing it after an answer without a Content-Length (whose
 * end the handler sees only once undici is done with the request, too late to abort it), and for
 * telling a kept-alive connection's loss (see lossOf). undici calls the handler's onRequestStart and
 * then publishes `undici:client:sendHeaders` with the socket in one synchronous step as it writes a
 * request, so the latest onRequestStart owns the next message.
 */
let writing: SentOn | undefined;
let listening = false;
/**
 * Per connection, when its last answer ended, while nothing is on it: none on a connection's first
 * request, while a request is on it, or after an answer that said `Connection: close`.
 */
const idleSince = new WeakMap<Socket, number>();
/** Connections watched for the origin closing them while idle (see IdleCloses). */
const watched = new WeakSet<Socket>();

/**
 * Per origin, what it was seen to do on a kept-alive connection with no request on it: the shortest
 * idle time after which it closed one (its FIN, or a reset): a server's idle timeout, or a server that
 * lets idle connections go at any time (RFC 9112 §9.5); and whether it sent an answer there, to no
 * request. One per client. A close of the client's own (undici's idle timeout, a destroy) teaches nothing.
 */
export class IdleCloses {
  private readonly shortest = new Map<string, number>();
  private readonly unrequested = new Set<string>();

  /** The origin sent an answer on a connection with no request on it (undici then drops the connection). */
  recordUnrequested(origin: string): void {
    this.unrequested.add(origin);
  }

  /**
   * Whether the origin has sent an answer to no request. One that comes while the next request is on
   * its way is taken for that request's answer, and each later answer on the connection for the one
   * after: only an answer that finds the connection idle shows it.
   */
  answersUnrequested(origin: string): boolean {
    return this.unrequested.has(origin);
  }

  record(origin: string, idleMs: number): void {
    this.shortest.set(origin, Math.min(this.shortest.get(origin) ?? Infinity, idleMs));
  }

  of(origin: string): number | undefined {
    return this.shortest.get(origin);
  }
}

/** The connection a request went out on, when, and how long it had been idle after an earlier request. */
interface SentOn {
  /** The origin the request went to, and its client's record of the origin's idle closes. */
  origin?: string;
  idleCloses?: IdleCloses;
  socket?: Socket;
  writtenAt?: number;
  /** The socket's bytesRead as the request was written: more since, and something of an answer is coming on it. */
  readAtWrite?: number;
  /** Undefined on a connection's first request. */
  idleMs?: number;
  /** Called if the origin sends more on this connection within UNREQUESTED_WITHIN_MS of this request's answer, with no request on it. */
  onUnrequested?: (stray: UnrequestedBytes) => void;
}

/** What came on a connection after an answer, with no request on it: how long after, and its last bytes as text. */
export interface UnrequestedBytes {
  afterMs: number;
  /** The last bytes read on the connection (a second answer is short: its status line among them), latin1. */
  lastBytes: string;
}

/**
 * An answer to no request this soon after the last answer on its connection is a second answer to
 * that request. One much later may be a 408 a server sends on a connection idle too long before it
 * closes it (RFC 9110 §15.5.9), which undici drops with the connection: no request meets it.
 */
const UNREQUESTED_WITHIN_MS = 1_000;
/** How many of the last bytes read on a connection are kept, to tell what came to no request. */
const KEPT_BYTES = 512;
/** The status of the last status line among bytes. */
const LAST_STATUS_LINE = /HTTP\/1\.[01] (\d{3})(?![\s\S]*HTTP\/1\.[01] \d{3})/;

/** Per connection, the request written on it last, and the last bytes read on it. */
const lastSentOn = new WeakMap<Socket, SentOn>();
const lastRead = new WeakMap<Socket, Buffer>();

/** Keeps a copy of the last KEPT_BYTES of each chunk undici reads from the connection (client-h1.js readMore). */
function keepLastBytes(socket: Socket): void {
  const read = socket.read.bind(socket);
  socket.read = (size?: number) => {
    const chunk: unknown = read(size);
    if (Buffer.isBuffer(chunk)) lastRead.set(socket, Buffer.from(chunk.subarray(-KEPT_BYTES)));
    return chunk;
  };
}

/**
 * Bytes on a connection with no request on it, soon after an answer: a second answer, or bytes past
 * the answer's framing. Not a 408 (RFC 9110 §15.5.9: a server may send one on a connection it is
 * about to close for being idle), which is short, so its status line is the last among the bytes kept.
 */
function unrequested(socket: Socket, since: number): UnrequestedBytes | undefined {
  const afterMs = performance.now() - since;
  if (afterMs > UNREQUESTED_WITHIN_MS) return undefined;
  const lastBytes = lastRead.get(socket)?.toString('latin1') ?? '';
  return LAST_STATUS_LINE.exec(lastBytes)?.[1] === '408' ? undefined : { afterMs, lastBytes };
}

/** Records the origin's close of `socket` while nothing was on it: an idle close, which a request may race. */
function watchIdleClose(socket: Socket, origin: string, idleCloses: IdleCloses): void {
  if (watched.has(socket)) return;
  watched.add(socket);
  keepLastBytes(socket);
  const closed = () => {
    const since = idleSince.get(socket);
    if (since !== undefined) idleCloses.record(origin, performance.now() - since);
  };
  socket.once('end', closed);
  socket.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNRESET') closed();
    // undici's 'bad response' on a connection with nothing on it: bytes to no request (client-h1.js onMessageBegin).
    const since = idleSince.get(socket);
    if (error.code !== 'UND_ERR_SOCKET' || error.message !== 'bad response' || since === undefined) return;
    const stray = unrequested(socket, since);
    if (!stray) return;
    idleCloses.recordUnrequested(origin);
    lastSentOn.get(socket)?.onUnrequested?.(stray);
  });
}

function watchSockets(): void {
  if (listening) return;
  listening = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const socket = (message as { socket: Socket }).socket;
    const idle = idleSince.get(socket);
    idleSince.delete(socket);
    if (writing) {
      const now = performance.now();
      writing.socket = socket;
      writing.writtenAt = now;
      writing.readAtWrite = socket.bytesRead;
      lastSentOn.set(socket, writing);
      if (idle !== undefined) writing.idleMs = now - idle;
      if (writing.origin !== undefined && writing.idleCloses) watchIdleClose(socket, writing.origin, writing.idleCloses);
    }
    writing = undefined;
  });
}

/**
 * A server may close an idle kept-alive connection at any time, and a request may be on its way as
 * it does (RFC 9112 §9.5); most close them after a few seconds idle (2 to 75), so a connection idle
 * for less than this, lost under a request, was not lost to that race, unless the origin has been
 * seen to close idle connections sooner (IdleCloses: half that time is taken, for the clocks of
 * both ends and the round trip between them).
 */
export const IDLE_RACE_MS = 1_000;
/**
 * How long the first request on a connection waits with nothing of its answer before the client is
 * told (dispatchRequest's stallWatch), and again each time as long after: a server that serves a fixed
 * number of connections at a time leaves a new one unread while those it serves stay open.
 */
export const STALL_MS = 1_000;

/** Told of a request's wait for its answer (see STALL_MS). */
export interface StallWatch {
  /** Each STALL_MS it waits, first on its connection, with nothing of its answer: how long since it was written. */
  stalled: (waitedMs: number) => void;
  /** The head of its answer came, so long after it was written. */
  answered: (afterMs: number) => void;
}
/** The close that races a request comes about a round trip after it: one later is an answer refused. */
const LOST_WITHIN_MS = 1_000;
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * How a connection was lost under a request, where that is no evidence about the request: `unwritten`,
 * queued on a connection that was lost before the request was written (undici fails what waits on
 * it); `idle-closed`, written on a connection idle for IDLE_RACE_MS or more after an earlier
 * request, and the connection closed or reset soon after, before any of the answer came;
 * `busy-closed`, the same on a connection idle for less (a server may close a kept-alive connection
 * right after an answer, without saying so, as the next request is on its way: RFC 9112 §9.5);
 * `unused-closed`, the first request on a connection, closed or reset before any of the answer came,
 * however long after (a server may let go a connection that has brought no request for a while, a
 * header-read timeout, and the client's own work, or the handshake far away, may hold up the first
 * request that long; a limit on connections may hold the one past it a while, unread, before closing it);
 * `unasked-100`, dropped by undici itself as a `100 Continue` came that the request had not asked
 * for (see src/http/node-http.ts).
 */
export type ConnectionLoss = 'unwritten' | 'idle-closed' | 'busy-closed' | 'unused-closed' | 'unasked-100';
const losses = new WeakMap<object, ConnectionLoss>();

/** A loss to the race with the origin's close of the connection the request went out on (not one never written, nor a 100). */
export function isRaceLoss(loss: ConnectionLoss | undefined): boolean {
  return loss === 'idle-closed' || loss === 'busy-closed' || loss === 'unused-closed';
}

export function lossOf(error: unknown): ConnectionLoss | undefined {
  return typeof error === 'object' && error !== null ? losses.get(error) : undefined;
}

function classifyLoss(error: Error, started: boolean, status: number, sentOn: SentOn): ConnectionLoss | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined || !CONNECTION_LOST.has(code)) return undefined;
  // An answer: a 101 to a request that asked for no upgrade (undici closes the connection on it).
  if (isUnaskedUpgrade(error)) return undefined;
  if (!started) return 'unwritten';
  // undici's only 'bad response' that fails a request in flight: an interim 100 (client-h1.js onHeadersComplete),
  // maybe after another 1xx (a 103 comes to onResponseStart).
  if (code === 'UND_ERR_SOCKET' && error.message === 'bad response' && status < 200) return 'unasked-100';
  const lostAfter = sentOn.writtenAt === undefined ? Infinity : performance.now() - sentOn.writtenAt;
  const learnt = sentOn.origin === undefined ? undefined : sentOn.idleCloses?.of(sentOn.origin);
  const raceFrom = Math.min(IDLE_RACE_MS, learnt === undefined ? Infinity : learnt / 2);
  if (status !== 0) return undefined;
  // A new connection closed with nothing of its answer come, however late: a limit on connections may
  // hold the one past it a while before closing it unread (Envoy's connection_limit `delay`).
  if (sentOn.idleMs === undefined) return 'unused-closed';
  if (lostAfter > LOST_WITHIN_MS) return undefined;
  return sentOn.idleMs >= raceFrom ? 'idle-closed' : 'busy-closed';
}

/**
 * One request through undici's dispatch API: no stream or promise per body chunk, the body kept
 * up to the cap (the rest dropped with the connection), the whole exchange bounded in time. A
 * request with a body goes on a connection of its own (kept open for a repeat where `connection`
 * says so), or on a pooled one that an answer that may have left the body unread closes
 * (`connection`, src/http/body-reuse.ts). `stallWatch`: see STALL_MS.
 */
export function dispatchRequest(
  pool: (origin: string) => Dispatcher,
  deadlines: Deadlines,
  idleCloses: IdleCloses,
  maxBodyBytes: number,
  outgoing: OutgoingRequest,
  url: URL,
  headers: Record<string, string>,
  timeoutMs: number,
  connection: BodyConnection,
  onUnrequested?: (stray: UnrequestedBytes) => void,
  stallWatch?: StallWatch,
  writtenUnsettled?: () => void,
): Promise<ReceivedResponse> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new undiciErrors.InvalidArgumentError('invalid protocol');
  return new Promise((resolve, reject) => {
    let controller: DispatchController | undefined;
    let settled = false;
    let status = 0;
    let responseHeaders: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    /** The body's length, when the connection is to be closed once it has all come. */
    let closeAt: number | undefined;
    /** Whether the connection is to be closed after an answer without a Content-Length. */
    let closeAtEnd = false;
    /** Whether the answer said `Connection: close`: the origin's close after it is no idle close. */
    let announcedClose = false;
    const sentOn: SentOn = connection.repeat?.sentOn ?? {};
    /** A repeat shares its first request's record of the write: a write of this request changes it. */
    const writtenBefore = sentOn.writtenAt;
    sentOn.origin = url.origin;
    sentOn.idleCloses = idleCloses;
    if (onUnrequested) sentOn.onUnrequested = onUnrequested;
    watchSockets();
    const settle = (error: unknown, truncated = false) => {
      if (settled) return;
      settled = true;
      // Written, and ended with no final status or within a 2xx's body: what became of it is not known.
      if (error && sentOn.writtenAt !== writtenBefore && status < 300) writtenUnsettled?.();
      deadlines.delete(deadline);
      if (stall) deadlines.delete(stall);
      if (error) reject(error);
      else resolve({ status, headers: responseHeaders, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), truncated });
    };
    const deadline: Deadline = {
      at: performance.now() + timeoutMs,
      expire: () => {
        const error = new NoAnswerInTime(timeoutMs, status);
        controller?.abort(error);
        settle(error);
      },
    };
    deadlines.watch(deadline);
    // Checked every STALL_MS until it settles: written first on its connection and nothing of the answer come.
    const stall: Deadline | undefined = stallWatch && {
      at: performance.now() + STALL_MS,
      expire: () => {
        // Answered in part already (undici tells of nothing before the whole head, which may come slowly): no stall.
        const reading = sentOn.socket !== undefined && sentOn.readAtWrite !== undefined && sentOn.socket.bytesRead > sentOn.readAtWrite;
        if (sentOn.writtenAt !== undefined && (sentOn.idleMs !== undefined || status !== 0 || reading)) {
          deadlines.delete(stall!);
          return;
        }
        stall!.at = performance.now() + STALL_MS;
        if (sentOn.writtenAt !== undefined) stallWatch.stalled(performance.now() - sentOn.writtenAt);
      },
    };
    if (stall) deadlines.watch(stall);
    const handler: DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        writing = sentOn;
        if (settled) c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      },
      onResponseStart(c, statusCode, raw) {
        if (status === 0 && sentOn.writtenAt !== undefined) stallWatch?.answered(performance.now() - sentOn.writtenAt);
        if (statusCode > 599) {
          const error = new NoHttpStatus(statusCode);
          settle(error);
          c.abort(error);
          return;
        }
        status = statusCode;
        responseHeaders = {};
        for (const name in raw) {
          const value = raw[name];
          if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        }
        announcedClose = /\bclose\b/i.test(responseHeaders['connection'] ?? '');
        // The whole answer is kept, then the connection dropped under it (undici closes a connection
        // only as asked before the request is sent).
        if (statusCode >= 200 && connection.closeAfter(statusCode)) {
          const length = responseHeaders['content-length'];
          closeAt = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
          closeAtEnd = closeAt === undefined;
          if (closeAt === 0) {
            settle(undefined);
            c.abort(new Error('an answer that may have left the request body unread'));
          }
        }
      },
      onResponseData(c, chunk) {
        const room = maxBodyBytes - size;
        if (chunk.length <= room) {
          chunks.push(chunk);
          size += chunk.length;
          if (closeAt !== undefined && size >= closeAt) {
            settle(undefined);
            c.abort(new Error('an answer that may have left the request body unread'));
          }
          return;
        }
        chunks.push(chunk.subarray(0, room));
        size += room;
        settle(undefined, true);
        c.abort(new Error('the body cap was reached'));
      },
      onResponseEnd() {
        settle(undefined);
        if (closeAtEnd) sentOn.socket?.destroy();
        else if (sentOn.socket && !announcedClose) idleSince.set(sentOn.socket, performance.now());
      },
      onResponseError(_c, error) {
        const loss = classifyLoss(error, controller !== undefined, status, sentOn);
        if (loss) losses.set(error, loss);
        settle(error);
      },
    };
    try {
      pool(url.origin).dispatch(
        {
          origin: url.origin,
          path: url.search ? `${url.pathname}${url.search}` : url.pathname,
          method: outgoing.method as Dispatcher.HttpMethod,
          headers,
          body: outgoing.body ?? null,
          // The request's own deadline (above) comes first and says what had come by then.
          headersTimeout: timeoutMs + 1_000,
          bodyTimeout: timeoutMs + 1_000,
          // Sent with `Connection: close` and closed after its answer (unless to be sent again on it).
          ...(connection.ownConnection && !connection.repeat ? { reset: true } : {}),
        },
        handler,
      );
    } catch (error) {
      settle(error);
    }
  });
}
