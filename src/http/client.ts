import { Pool, type Dispatcher } from 'undici';
import { PACKAGE_VERSION } from '../paths.ts';
import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import { BodyReuse, kindOf, repeatable, type BodyConnection } from './body-reuse.ts';
import { decodedResponse } from './content-coding.ts';
import { ANSWER_BYTES_IN_FLIGHT, AnswerBudget, type Room } from './answer-budget.ts';
import { Deadlines, dispatchRequest, IdleCloses, isRaceLoss, lossOf, originDispatcher, type StallWatch, type UnrequestedBytes } from './dispatch.ts';
import { shownBody, type RequestBody } from './body-bytes.ts';
import { hasHeader, type Exchange, type ReceivedResponse, type SentRequest } from './exchange.ts';
import { OperationHealth, type Refusal, type SendPlan } from './health.ts';
import { OriginCaps } from './origin-caps.ts';
import { SlowedRefusals } from './slowed-refusals.ts';
import { TaughtBy429 } from './taught-by-429.ts';
import { OriginPace, type Lately, type LatelyAround } from './origin-pace.ts';
import { RestGate } from './rest-gate.ts';
import { sendThroughNodeHttp } from './node-http.ts';
import { isWaitedOut, retryAfterMs } from './retry-after.ts';
import { gatewayHeadersFor, type NetworkOptions } from './network-options.ts';
import { classify, MAX_HEADER_BYTES } from './transport-failure.ts';

export interface Authorization {
  /** Sent on the wire. */
  value: string;
  /** Recorded and shown instead, with `$API_KEY` in place of the key. */
  shown: string;
  /** Sent under this header instead of Authorization (the key where §5.2 does not pass it). */
  header?: string;
}

export interface OutgoingRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  authorization?: Authorization;
  body?: RequestBody;
  /**
   * The operation it belongs to, as its method and route template (`GET /v1/pets/{petId}`): a hanging
   * or failing one is isolated from the others (src/http/health.ts). Unset: its method and path.
   */
  operation?: string;
  /** Takes the next free slot under the in-flight cap before requests without it (ScenarioOptions.critical). */
  critical?: boolean;
  /**
   * A request one of its scenario's clauses may rest on alone (src/suite/scenario.ts,
   * RESERVE_FIRST_REQUESTS): once the run's waiting budget is spent, its 429s (and 503s with
   * Retry-After) are still waited out from a reserve of the same size while they are sporadic
   * (SPORADIC_SHARE), so that they do not leave such a clause unjudged.
   */
  reserve?: boolean;
  /** Sent once on a connection of its own, closed after it, never repeated to learn whether the origin reads such bodies (the preflight's probe). */
  lone?: boolean;
}

export interface ClientOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
  /** 0 = unlimited. */
  maxRps: number;
  /** After this many transport failures in a row on one operation, its requests are held back (0 = never). */
  breakAfter: number;
  /**
   * How many times a 429 is retried, waiting Retry-After (1 s, then 2 s, without one; never longer
   * than maxRetryAfterMs); a 503 with a Retry-After (a gateway starting the service) likewise.
   */
  retries429: number;
  maxRetryAfterMs: number;
  /** Proxy, trusted CAs and client certificate, gateway headers; none: straight to each origin. */
  network?: NetworkOptions;
  /** Told of every exchange that got an answer, retries included (the trail of what the run created). */
  observe?: (exchange: Exchange) => void;
  /**
   * Told of every request written to the origin whose attempt ended with no final answer, or inside
   * a 2xx's body (lost with its connection, timed out): the origin may have taken it, and a POST
   * sent again after such a loss may have been taken twice (the trail lists it as unconfirmed).
   */
  unsettled?: (request: OutgoingRequest) => void;
  /**
   * All the time in a run during which some request waits out a 429 or 503 (waits side by side
   * count once): a wait that would take it past this is not taken, and the answer is handed back (a
   * server that answers every other request 429 with Retry-After: 5 would otherwise stretch a run of
   * a thousand requests to the whole --max-duration).
   */
  retryWaitBudgetMs?: number;
  /**
   * With the first request to each origin, a GET of its URL (without a body: harmless, whatever the
   * answer) goes on a connection of its own, left idle after its answer: an origin that closes idle
   * connections sooner than IDLE_RACE_MS shows it there (IdleCloses) before any pooled connection
   * has been idle as long, so a request that races such a close later is told by it
   * (src/http/dispatch.ts). Counted as sent, and judged only for an answer to no request after its
   * own (http.one-answer).
   */
  watchIdleCloses?: boolean;
  /**
   * The run's --max-duration, as a moment (Date.now()): a request whose turn (a slot, its pace)
   * comes later is handed back not sent (NOT_SENT_PAST_BUDGET); those on the wire are awaited.
   */
  sendBefore?: number;
}

/** What a request whose turn came past ClientOptions.sendBefore is handed back with, as not-sent. */
export const NOT_SENT_PAST_BUDGET = 'the run budget (--max-duration) had run out by its turn';

/** A request the suite chose not to send: evidence of nothing (not-sent is never judged). */
const notSent = (outgoing: OutgoingRequest, message: string): Exchange => ({ request: shownRequest(outgoing), failure: { kind: 'not-sent', message }, durationMs: 0 });

const notSentPastBudget = (outgoing: OutgoingRequest): Exchange => notSent(outgoing, NOT_SENT_PAST_BUDGET);

/** Thrown where a resend's turn comes past ClientOptions.sendBefore. */
class PastBudget extends Error {}

/**
 * The most of an origin's answers so far (retries counted) that may have been waited out (429, 503
 * with Retry-After) for the reserve to apply: a target that limits hard from the start gets no more
 * waiting than the budget; one that starts late in a run gets the reserve too, until past this share.
 */
export const SPORADIC_SHARE = 0.25;

/** The share of an origin's (or operation's) answers in the second before a 429 that were refusals, for a first rate to be learnt of it. */
const FIRST_429_SHARE = 0.2;
/** The fewest answers in that second the share is read over. */
const FIRST_429_ANSWERS = 10;

/** The default of retryWaitBudgetMs: two waits of the longest Retry-After taken, ten of a second. */
export const RETRY_WAIT_BUDGET_MS = 10_000;

/**
 * Sent with every request that names none (RFC 9110 §10.1.5: a user agent SHOULD send one): gateways
 * and WAFs refuse requests without it (AWS WAF's core rule set answers them 403). Not shown in the
 * reports' requests, nor in their curl lines, where curl sends its own.
 */
export const USER_AGENT = `animal-store-conformance/${PACKAGE_VERSION}`;

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
  /** 429s, and 503s with Retry-After, handed back to the caller, the retries spent or not attempted (left unjudged). */
  gaveUp429: number;
  retryAfterSeen: string[];
  /** 503s with a Retry-After (a gateway starting or scaling the service), retried or handed back. */
  unavailable: number;
  /** Requests sent once more after their connection was lost under them (see mayResend). */
  resent: number;
  /** Answers the origin sent on a connection after a request's answer, to no request (IdleCloses.answersUnrequested). */
  unrequestedAnswers: number;
  /** The exchanges such an answer came after, the first few (Exchange.answeredAgain), for http.one-answer. */
  answeredAgain: Exchange[];
  /** 503s without Retry-After from an origin that had answered calmly, each sent again under a lowered cap (OriginCaps) or after a wait (OriginPace). */
  overloaded: number;
  /** Time during which some request waited before a retry, waits side by side counted once (see retryWaitBudgetMs). */
  waitedMs: number;
}

/** An answer this soon after the idle connections were let go under its stalled request shows the origin was waiting on them. */
const UNSTALLED_WITHIN_MS = 500;
/** The share of a stalled answer's time an answer of the same operation that waited on no stall takes, to show the operation that slow. */
const SLOW_ALIKE = 0.5;

/** Exchanges kept per tally that a second answer followed: the first few tell it, and each holds its body. */
const MAX_ANSWERED_AGAIN = 5;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How long the repeat of a refused request (src/http/body-reuse.ts) is waited for: a few times what
 * the first took, at least this long. It only decides whether later ones may share connections.
 */
const REPEAT_MIN_WAIT_MS = 250;

/**
 * The longest a request waits for the first of its kind to show whether the origin reads such bodies
 * (src/http/body-reuse.ts): a few round trips far away; past it, it takes a connection of its own.
 */
const PROOF_HOLD_MAX_MS = 1_000;

/** Settles when the promise does, or after ms at the latest. */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * What a request learnt of the origin as it went: `alongside`, how many others to it were in flight
 * as its answer came (or its new connection was lost); `freshLost`, whether that connection was
 * closed before any answer, handed back to send() where `handBackFreshLoss` says so.
 */
interface SendSeen {
  alongside: number;
  /** The origin's cap cuts when it started (OriginCaps.cutsOf). */
  cutsAtStart?: number;
  /** Whether the idle watch held a connection to the origin as this one was lost. */
  watching?: boolean;
  freshLost: boolean;
  handBackFreshLoss: boolean;
  /**
   * A connection of its own was closed unread while the pool held others to the origin: a limit on
   * connections. From then on it goes on a pooled connection, which the origin has let in.
   */
  throughPool?: boolean;
  /** Whether the connection lost was one of its own (not the pool's). */
  ownLost?: boolean;
  /** Whether a new connection closed unread beside others may still be handed back after a resend (a bound on such hand-backs). */
  handBackLate?: boolean;
  /** Sent in a rest of the whole client (RestGate): it passes the gate that holds the others back. */
  inRest?: boolean;
  /** The rate it was held to as it went, requests a second (OriginPace; Infinity: none). */
  pace?: number;
}

/**
 * How many times a 503 without Retry-After to a request sent beside others is sent again, each time
 * under the cap it lowered: then its answer is judged (OriginCaps).
 */
const OVERLOAD_RESENDS = 2;
/**
 * How many times a request whose new connection was closed unanswered beside others is sent again
 * under the cap that lowered, after waiting this long times the count so far (a busy origin reads
 * the closes of the connections let go late): then it is sent on a connection of its own and judged.
 */
const CONNECTION_RESENDS = 3;
const CONNECTION_RESEND_WAIT_MS = 100;
/**
 * How long a connection the client closed may still count against an origin's limit on connections:
 * the origin counts it until it reads the close, late when it is busy (a loaded gateway, or a server
 * sharing two cores with the suite). A new connection closed unread that soon after is no answer.
 */
const CLOSE_READ_LAG_MS = 1_000;
/** The codes of a connection the origin closed or reset; any other close of undici's is the client's own. */
const CLOSED_BY_ORIGIN = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
/**
 * The waits before a 503 without Retry-After that fewer in flight did not cure (or that came to a
 * request sent alone) is sent again, from an origin that has answered calmly before: a limit on the
 * rate refills as they pass. One that waiting cures sets its origin's rate, or its operation's
 * (OriginPace); one that outlasts them is sent once more in a rest of the whole client (RestGate), and
 * judged on what that gets: refused then, its operation's next 503s are judged as they come; with the
 * run's rests spent, it is handed back held as a limit (Exchange.heldAsLimit), unjudged.
 */
const PACE_WAITS_MS = [100, 300, 900];

/** The longest the idle watch (ClientOptions.watchIdleCloses) holds its slot for an answer: past it, nothing is learnt. */
const IDLE_WATCH_WAIT_MS = 2_000;

const IDEMPOTENT = new Set(['GET', 'HEAD']);
/** A request sent once only (OutgoingRequest.lone) lost to the race with a close: not sent again, so evidence of nothing. */
const LOST_LONE =
  'lost as the origin closed the connection it went out on before any of the answer came, as it may at any time (RFC 9112 §9.5): the origin may never have read it, and this request is sent once only';

/** A request whose new connections were closed unread beside others to its origin, with the run's rests (which would send it alone) spent. */
const LOST_TO_CONNECTION_LIMIT =
  'each new connection it went out on was closed before any of the answer came while others to the origin were open, as a limit on connections closes them (RFC 9112 §9.4), and the run\'s rests, in which it would have gone alone, are spent: no answer of the operation\'s';

/** A request that is neither GET nor HEAD to an origin that closes kept-alive connections unannounced (see closesUnannounced). */
const ALONE: BodyConnection = { ownConnection: true, closeAfter: () => false };
/** On a pooled connection, closed after its answer (undici's reset), as a request with a body not shown read goes. */
const THROUGH_POOL: BodyConnection = { ownConnection: true, closeAfter: () => false };

const closes = (response: ReceivedResponse) => /\bclose\b/i.test(response.headers.connection ?? '');

const connectedOf = (dispatcher: Dispatcher | undefined) => (dispatcher instanceof Pool ? dispatcher.stats.connected : 0);
/** Its connections open with no request on them. */
const freeOf = (dispatcher: Dispatcher | undefined) => (dispatcher instanceof Pool ? dispatcher.stats.free : 0);

/** The request as reports show it: the key replaced by its shown form. */
export function shownRequest(outgoing: OutgoingRequest): SentRequest {
  const sent: SentRequest = { method: outgoing.method, url: outgoing.url, headers: { ...outgoing.headers } };
  if (outgoing.authorization) sent.headers[outgoing.authorization.header ?? 'Authorization'] = outgoing.authorization.shown;
  if (outgoing.body !== undefined) Object.assign(sent, shownBody(outgoing.body));
  return sent;
}

/**
 * One keep-alive connection pool per origin for the whole run (undici's Pool, without the Agent
 * layer above it, or a ProxyAgent for that origin alone where a proxy applies); every body read up
 * to a cap, every request bounded in time.
 */
export class HttpClient {
  readonly stats: ClientStats = { sent: 0, rateLimited: 0, gaveUp429: 0, retryAfterSeen: [], unavailable: 0, resent: 0, unrequestedAnswers: 0, answeredAgain: [], overloaded: 0, waitedMs: 0 };
  private readonly pools = new Map<string, Dispatcher>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly waitingCritical: (() => void)[] = [];
  private nextSlot = 0;
  /** When the latest wait before a retry ends, so that waits overlapping it add only what they outlast it by. */
  private waitingUntil = 0;
  /** Waiting taken from the reserve (OutgoingRequest.reserve) once the budget was spent. */
  private reserveWaitedMs = 0;
  /** Per operation on an origin, so one that hangs or breaks does not stop the others. */
  private readonly health: OperationHealth;
  /** Per origin: the status (429 or 503) whose retries an origin outlasted, until it answers something else (the reserve aside). */
  private readonly givenUpOn = new Map<string, number>();
  /** Per origin: its answers so far, and how many of them were waited out (SPORADIC_SHARE). */
  private readonly answers = new Map<string, { all: number; waitedOut: number }>();
  private readonly deadlines: Deadlines;
  private readonly idleCloses = new IdleCloses();
  /**
   * Origins seen to close a kept-alive connection under a request, idle or right after the answer
   * before it, with no `Connection: close` (an `idle-closed` or `busy-closed` loss, src/http/dispatch.ts,
   * whose resend on a fresh connection was answered). Their requests that are neither GET nor HEAD go
   * on a connection of their own, closed after the answer: none of those meets such a close, nor is
   * sent twice.
   */
  private readonly closesUnannounced = new Set<string>();
  /** Operations (origin and label) whose 503 with Retry-After came again after a rest of the whole client: an outage. */
  private readonly unavailableRested = new Set<string>();
  private readonly bodyReuse = new BodyReuse();
  /** Per origin, the connection left idle to show the origin's idle closes (ClientOptions.watchIdleCloses). */
  private readonly idleWatches = new Map<string, Dispatcher>();
  /** Per origin, when the client last closed a connection to it (let go, destroyed or idle), not the origin. */
  private readonly closedByClient = new Map<string, number>();
  /** Aborted by close(): what goes through node:http is not in the pools it destroys. */
  private readonly closing = new AbortController();
  /** Origins seen to send `100 Continue` unasked: their requests go through node:http (src/http/node-http.ts). */
  private readonly sendUnasked100 = new Set<string>();
  private readonly caps = new OriginCaps();
  private readonly paces = new OriginPace();
  private readonly rests = new RestGate(() => this.active === 0);
  /** The bytes of answers in flight (AnswerBudget): a rest's request goes whatever they are. */
  private readonly answerRoom: AnswerBudget;
  /** Operations (origin and label) whose 503 without Retry-After outlasted PACE_WAITS_MS, until one answers 2xx. */
  private readonly refusesWhenRested = new Set<string>();
  /** Operations whose 503s without Retry-After went on as often, served slower, once their origin was paced (see SlowedRefusals). */
  private readonly slowed = new SlowedRefusals();
  /** Whether 429s still teach rates, and the origins they taught one (see learnFrom429). */
  private readonly taughtBy429 = new TaughtBy429();
  /** Per origin, how long the head of its answers usually takes to come after the request is written, ms (a moving average). */
  private readonly answerMs = new Map<string, number>();
  /** Per origin, the stalled answer that capped it for good (stallWatch): its operation, how long it took, and the lasting cap before. */
  private readonly stallCaps = new Map<string, { label: string; afterMs: number; lastingBefore: number }>();
  /** Connections a pool holds, where fitPool made it other than the concurrency. */
  private readonly poolSizes = new Map<string, number>();

  constructor(readonly options: ClientOptions = DEFAULT_CLIENT_OPTIONS) {
    this.health = new OperationHealth(options.timeoutMs, options.breakAfter);
    this.deadlines = new Deadlines(options.timeoutMs);
    this.answerRoom = new AnswerBudget(ANSWER_BYTES_IN_FLIGHT, options.maxBodyBytes);
    // One listener per request in flight through node:http, each removed as it settles: no leak however many.
    setMaxListeners(0, this.closing.signal);
  }

  /** The lowest rate the client held an origin, or one operation on it, to after a limit on the rate (OriginPace), requests a second. */
  pacedRps(): number | undefined {
    return this.paces.lowest();
  }

  /** The fewest connections at a time an origin was seen to serve (see stallWatch), if any was. */
  servedConnections(): number | undefined {
    const fewest = Math.min(...[...this.pools.keys()].map((origin) => this.caps.lastingOf(origin)));
    return fewest === Infinity ? undefined : fewest;
  }

  /** The shortest idle time after which `origin` has been seen to close a connection (see IdleCloses). */
  idleCloseMs(origin: string): number | undefined {
    return this.idleCloses.of(origin);
  }

  /**
   * One connection to the origin, not pooled: the caller destroys it. Where the origin serves only so
   * many connections at a time (stallWatch), the pool's idle ones are let go first to make room.
   */
  private connectionOfItsOwn(url: URL): Dispatcher {
    const lasting = this.caps.lastingOf(url.origin);
    if (lasting !== Infinity && this.pooledConnections(url.origin) + 1 > lasting) this.fitPool(url.origin, { renew: true });
    return this.dispatcherTo(url.origin, 1);
  }

  /** A pool of `connections` to the origin, its closes of its own noted (closedLately). */
  private dispatcherTo(origin: string, connections: number): Dispatcher {
    const dispatcher = originDispatcher(origin, this.connectionSettings(connections), this.options.network);
    dispatcher.on('disconnect', (_origin, _targets, error) => {
      if (!CLOSED_BY_ORIGIN.has(error?.code ?? '')) this.closedByClient.set(origin, performance.now());
    });
    return dispatcher;
  }

  /** Whether the origin may still count a connection the client closed (CLOSE_READ_LAG_MS). */
  private closedLately(origin: string): boolean {
    return performance.now() - (this.closedByClient.get(origin) ?? -Infinity) < CLOSE_READ_LAG_MS;
  }

  /**
   * For one request (src/http/dispatch.ts StallWatch). A server that serves a fixed number of
   * connections at a time (one, for a single-threaded server with keep-alive) reads nothing from a
   * new connection while those it serves stay open, idle in the pool or the idle watch's included,
   * and only the client can end that (RFC 9112 §9.4 asks a client to limit its connections). So a
   * request waiting first on its connection, with nothing of its answer for STALL_MS and four of the
   * origin's usual answers, lets the idle ones go. An answer that comes at once after shows the origin
   * was waiting on them: it keeps, for good, a cap of the connections it was then serving, those left
   * idle.
   */
  private stallWatch(origin: string, label: string): StallWatch {
    let stalled = false;
    let unstalled: { at: number; serving: number } | undefined;
    return {
      stalled: (waitedMs) => {
        // Only an origin that has answered can be waiting on a connection it served; one slow to answer anything is not stalled.
        const usual = this.answerMs.get(origin);
        if (usual === undefined || waitedMs < 4 * usual) return;
        stalled = true;
        unstalled = this.unstall(origin) ?? unstalled;
      },
      answered: (afterMs) => {
        if (!stalled) {
          this.answeredIn(origin, afterMs);
          this.unlessSlowAlike(origin, label, afterMs);
        }
        if (!unstalled || performance.now() - unstalled.at > UNSTALLED_WITHIN_MS) return;
        this.stallCaps.set(origin, { label, afterMs, lastingBefore: this.caps.lastingOf(origin) });
        this.caps.limitedTo(origin, unstalled.serving, true);
        this.fitPool(origin, { renew: false });
      },
    };
  }

  /**
   * An answer to `label` that waited on no stall: where a stall of the same operation capped the origin,
   * and this answer took half as long as the stalled one or more, the operation is only that slow
   * (a message sent on through a provider), not waiting on the idle connections: the cap goes.
   */
  private unlessSlowAlike(origin: string, label: string, afterMs: number): void {
    const cap = this.stallCaps.get(origin);
    if (!cap || cap.label !== label || afterMs < SLOW_ALIKE * cap.afterMs) return;
    this.stallCaps.delete(origin);
    this.caps.unlimited(origin, cap.lastingBefore);
    this.fitPool(origin);
  }

  /** The head of an answer came so long after its request was written: the origin's usual answer time follows it. */
  private answeredIn(origin: string, ms: number): void {
    const usual = this.answerMs.get(origin);
    this.answerMs.set(origin, usual === undefined ? ms : usual + (ms - usual) / 8);
  }

  /** Lets go the origin's idle connections (the pool's, the idle watch's), if any: when, and how many. */
  private unstall(origin: string): { at: number; serving: number } | undefined {
    const serving = freeOf(this.pools.get(origin)) + freeOf(this.idleWatches.get(origin));
    if (serving === 0) return undefined;
    this.fitPool(origin, { renew: true });
    void this.idleWatches.get(origin)?.destroy().catch(() => undefined);
    return { at: performance.now(), serving };
  }

  /** `tally`: the caller's own counts (one scenario's, where several share the client), kept besides the client's. */
  async send(outgoing: OutgoingRequest, tally?: Omit<ClientStats, 'waitedMs'>): Promise<Exchange> {
    const rest: { reopen?: () => void } = {};
    try {
      return await this.sendUntilAnswered(outgoing, tally, rest);
    } finally {
      rest.reopen?.();
    }
  }

  /** `rest.reopen`: set while a rest of the whole client (RestGate) holds the others back for this request's next send. */
  private async sendUntilAnswered(outgoing: OutgoingRequest, tally: Omit<ClientStats, 'waitedMs'> | undefined, rest: { reopen?: () => void }): Promise<Exchange> {
    let url: URL;
    try {
      url = new URL(outgoing.url);
    } catch (error) {
      return { request: shownRequest(outgoing), failure: classify(error), durationMs: 0 };
    }
    const origin = url.origin;
    const label = (outgoing.operation ?? `${outgoing.method} ${url.pathname}`).replace(/^HEAD /, 'GET ');
    /** 429 retries (attempt), and sends again under a lowered cap, each counted apart. */
    let attempt = 0;
    let overloadResends = 0;
    let connectionResends = 0;
    let freshLosses = 0;
    let paceResends = 0;
    /** The origin's answers lately when this request was first refused, for its rate if waiting cures it. */
    let latelyAtRefusal: LatelyAround | undefined;
    /** A 503 sent again under a lowered cap: what stands if the suite sends nothing more. */
    let previous: Exchange | undefined;
    const seen: SendSeen = { alongside: 0, freshLost: false, handBackFreshLoss: true };
    for (;;) {
      const plan = this.health.plan(origin, label);
      if ('refused' in plan) return previous ?? notSent(outgoing, plan.refused);
      seen.alongside = 0;
      seen.freshLost = false;
      seen.handBackFreshLoss = connectionResends < CONNECTION_RESENDS;
      seen.handBackLate = freshLosses <= CONNECTION_RESENDS + 2;
      seen.inRest = rest.reopen !== undefined;
      let exchange: Exchange | Refusal;
      try {
        exchange = await this.sendOnce(outgoing, url, plan, label, tally, seen);
      } finally {
        rest.reopen?.();
        delete rest.reopen;
      }
      // Past the budget even an answer the suite would have sent again is left unjudged, as the resend was not sent.
      if ('refused' in exchange) return (exchange.refused === NOT_SENT_PAST_BUDGET ? undefined : previous) ?? notSent(outgoing, exchange.refused);
      if (tally) tally.sent++;
      // A new connection closed before any answer, beside others open to the origin: a limit on
      // connections, as a gateway that closes the ones past it has. Sent again under the lower cap, or
      // after a wait where it went alone to an origin that has answered; once those resends are spent
      // (or where neither is the reading), sent alone in a rest of the whole client and judged there.
      if (seen.freshLost) {
        freshLosses++;
        // Or beside one the client closed a moment ago, which the origin may still count.
        const closedLately = this.closedLately(origin);
        const besideOthers = seen.alongside > 0 || this.pooledConnections(origin) > 0 || seen.watching === true || closedLately;
        // Each such loss cuts the cap, a burst's included: the pooled connections left idle hold the
        // origin's connections until the pool is made smaller (a 503 cuts it once per overshoot).
        const mayBeLoad = this.caps.refused(origin, seen.alongside).mayBeLoad;
        // Sent alone, to an origin that has answered (or while the idle watch held a connection to it, or
        // just after the client closed one): it may still count connections let go a moment ago.
        if (mayBeLoad || this.paces.answeredCalm(origin) || seen.watching || closedLately) {
          connectionResends++;
          if (seen.ownLost && this.pooledConnections(origin) > 0) seen.throughPool = true;
          // Alone, beside pooled connections left idle: under a limit on connections they count, so the
          // cap goes to one fewer than those open, leaving room.
          const pooled = this.pooledConnections(origin);
          const besideIdle = !mayBeLoad && pooled > 0;
          if (besideIdle) this.caps.limitedTo(origin, pooled - 1);
          // A pool already as small is replaced all the same (a limit of one connection), its idle one let
          // go; so is the idle watch's connection, which counts as much.
          this.fitPool(origin, { renew: besideIdle });
          void this.idleWatches.get(origin)?.destroy().catch(() => undefined);
          // The origin counts a connection until it has read its close: the ones let go may still count.
          await sleep(CONNECTION_RESEND_WAIT_MS * connectionResends);
        } else connectionResends = CONNECTION_RESENDS;
        for (const stats of this.tallies(tally)) stats.resent++;
        // Judged next, so sent where no other connection of the suite's to the origin is open: in a rest
        // of the whole client, every connection to it let go. A close then is the origin's own answer.
        if (connectionResends >= CONNECTION_RESENDS && !seen.inRest && besideOthers) {
          await this.rests.passed();
          // Let go once the others have landed, so that the rest's quiet gives the origin time to read those closes.
          rest.reopen = await this.rests.rest(() => {
            this.fitPool(origin, { renew: true });
            void this.idleWatches.get(origin)?.destroy().catch(() => undefined);
          });
          if (!rest.reopen) return { request: shownRequest(outgoing), failure: { kind: 'lost-kept-alive', message: LOST_TO_CONNECTION_LIMIT }, durationMs: 0 };
        }
        continue;
      }
      this.recordHealth(origin, label, plan, exchange);
      const status = exchange.response?.status;
      const retryAfter = exchange.response?.headers['retry-after'];
      const waitedOut = isWaitedOut(status, retryAfter);
      if (exchange.response) this.countAnswer(origin, waitedOut);
      // A 429, or a 503 that says when to come back, is waited out below and teaches the caps nothing:
      // gateways send those for a rate, or now and then, which fewer in flight would not help.
      const refusal = status === 503 && !waitedOut;
      // An operation held to a rate of its own was refused while its origin's others were answered: not
      // a limit on requests in flight to the origin, and its refusals teach the caps nothing.
      const mayBeLoad = refusal && !this.paces.refusedAlone(origin, label) && this.caps.refused(origin, seen.alongside, seen.cutsAtStart).mayBeLoad;
      if (refusal) {
        this.fitPool(origin);
        this.paces.refused(origin, label, performance.now() - exchange.durationMs);
      }
      const operation = `${origin} ${label}`;
      if (exchange.response && !waitedOut && this.slowed.answered(origin, label, refusal, seen.pace ?? Infinity)) this.paces.forget(origin, label);
      const failingSlowed = refusal && this.slowed.failsWhenSlowed(origin, label);
      if (exchange.response && !refusal && !waitedOut) {
        this.caps.calm(origin);
        this.fitPool(origin);
        this.paces.calm(origin, label);
        this.taughtBy429.calm();
        // Only a 2xx shows the operation served again: a 401 may come from before what answers 503.
        if (exchange.response.status >= 200 && exchange.response.status < 300) this.refusesWhenRested.delete(operation);
        this.unavailableRested.delete(operation);
        // Waiting cured it: the origin limits a rate (unless this operation's refusals are its own).
        if (latelyAtRefusal && !this.slowed.failsWhenSlowed(origin, label)) {
          const hadOwnRate = this.paces.hasOwnRate(origin, label);
          this.paces.limited(origin, label, latelyAtRefusal);
          if (!hadOwnRate && this.paces.hasOwnRate(origin, label)) {
            this.caps.forgive(origin);
            this.fitPool(origin);
          }
        }
      }
      if (!waitedOut) {
        // A 503 that names no time, to a request sent beside others, may be the origin's limit on
        // requests in flight: "a temporary overload" (RFC 9110 §15.6.4). Sent again, under the cap
        // that answer lowered (which holds it back until fewer are in flight), and judged on what that gets.
        if (mayBeLoad && overloadResends < OVERLOAD_RESENDS && !outgoing.lone && !failingSlowed) {
          overloadResends++;
          previous = exchange;
          for (const stats of this.tallies(tally)) stats.overloaded++;
          continue;
        }
        // Fewer in flight did not cure it, or it went alone: it may be a limit on the rate. Sent again
        // after a wait, from an origin that has answered calmly (or beside another origin a limit
        // refuses, which may share it), unless its operation's 503s outlast a rest.
        const mayBeRate = refusal && !outgoing.lone && (this.paces.answeredCalm(origin) || this.paces.anotherLimited(origin)) && !this.refusesWhenRested.has(operation) && !failingSlowed;
        if (mayBeRate && paceResends < PACE_WAITS_MS.length) {
          const wait = PACE_WAITS_MS[paceResends]!;
          const from = this.waitFrom(wait, false);
          if (from && this.pastBudget(wait)) return notSentPastBudget(outgoing);
          if (from) {
            if (paceResends === 0) latelyAtRefusal = this.paces.latelyAround(origin, label, performance.now() - exchange.durationMs);
            paceResends++;
            previous = exchange;
            for (const stats of this.tallies(tally)) stats.overloaded++;
            await this.waitOut(wait, from);
            continue;
          }
        }
        // The waits did not cure it while the suite's other requests went on (or the run's waiting is
        // spent): sent once more after a rest of the whole client, and judged on what that gets.
        if (mayBeRate && seen.inRest) this.refusesWhenRested.add(operation);
        else if (mayBeRate && this.pastBudget()) return notSentPastBudget(outgoing);
        else if (mayBeRate) {
          if (paceResends === 0) latelyAtRefusal = this.paces.latelyAround(origin, label, performance.now() - exchange.durationMs);
          // Another request's rest may show the operation refused rested meanwhile: this one is judged as it is.
          await this.rests.passed();
          if (this.refusesWhenRested.has(operation)) return exchange;
          rest.reopen = await this.rests.rest();
          // send() lets the others go again once this returns.
          if (rest.reopen && this.refusesWhenRested.has(operation)) return exchange;
          paceResends = PACE_WAITS_MS.length;
          previous = exchange;
          for (const stats of this.tallies(tally)) stats.overloaded++;
          if (rest.reopen) continue;
          // The run's rests are spent: a limit the suite could not wait out says nothing of the rest (§8).
          for (const stats of this.tallies(tally)) stats.gaveUp429++;
          return { ...exchange, heldAsLimit: true };
        }
        if (exchange.response) this.givenUpOn.delete(origin);
        return exchange;
      }
      for (const stats of this.tallies(tally)) {
        if (status === 429) {
          stats.rateLimited++;
          if (retryAfter) stats.retryAfterSeen.push(retryAfter);
        } else stats.unavailable++;
      }
      if (status === 429) this.learnFrom429(origin, label, performance.now() - exchange.durationMs);
      // Without a usable Retry-After (429 only), back off 1 s, then 2 s.
      const wait = retryAfterMs(retryAfter) ?? 1_000 * 2 ** attempt;
      // A reserve request waits from the budget first, then from the reserve, given up on or not.
      const reserved = outgoing.reserve === true && this.sporadic(origin);
      const from = this.waitFrom(wait, reserved);
      const givenUp = this.givenUpOn.get(origin) === status && !reserved;
      if (givenUp || attempt >= this.options.retries429 || wait > this.options.maxRetryAfterMs || !from) {
        // A 503 whose Retry-After was waited out every time (not one the waiting budget left unsent), or
        // one to an operation already so refused: sent once more after a rest of the whole client;
        // refused then too, no rate the suite kept explains it, and it is judged as the 5xx it is.
        const operation = `${origin} ${label}`;
        const waitedOutEachTime = attempt >= this.options.retries429 && wait <= this.options.maxRetryAfterMs && from !== undefined;
        if (status === 503 && !outgoing.lone && (seen.inRest || waitedOutEachTime || this.unavailableRested.has(operation))) {
          if (seen.inRest) this.unavailableRested.add(operation);
          if (!this.unavailableRested.has(operation)) {
            await this.rests.passed();
            if (!this.unavailableRested.has(operation)) rest.reopen = await this.rests.rest();
            if (rest.reopen) {
              previous = exchange;
              continue;
            }
          }
          if (this.unavailableRested.has(operation)) {
            // Until the operation answers something else, its next ones are not waited out again.
            this.givenUpOn.set(origin, status);
            return { ...exchange, unavailableRested: true };
          }
        }
        // Until the origin answers something else again, its 429s (or 503s) are not waited out one by one.
        this.givenUpOn.set(origin, status!);
        // A 429, or a 503 with Retry-After, handed back is left unjudged (src/suite/judge.ts): counted alike.
        this.stats.gaveUp429++;
        if (tally) tally.gaveUp429++;
        return exchange;
      }
      // A wait past the budget is not taken: the request is handed back unsent, as the retry would be.
      if (this.pastBudget(wait)) return notSentPastBudget(outgoing);
      await this.waitOut(wait, from);
      attempt++;
    }
  }

  /**
   * A 429 says too many requests were sent in a given time (RFC 6585 §4): the origin, or the operation
   * where the origin's others were not refused, is held to a rate under what it served calmly in the
   * second before (OriginPace, as a 503 that waiting cured teaches), so that Retry-After waits do not
   * spend the run's waiting budget one after another. First only where a fifth or more of at least
   * FIRST_429_ANSWERS answers in that second were refusals (a limit overshot refuses most of what goes
   * past it; 429s now and then are only waited out); no more once the rates taught did not stop them
   * (TaughtBy429: they come whatever the rate, and the rates are let go).
   */
  private learnFrom429(origin: string, label: string, sentAt: number): void {
    if (!this.taughtBy429.refused((origins) => origins.forEach((taught) => this.paces.forgetOrigin(taught)))) return;
    this.paces.refused(origin, label, sentAt);
    const at = this.paces.latelyAround(origin, label, sentAt);
    const heavy = (lately: Lately) => lately.answers >= FIRST_429_ANSWERS && lately.refusedShare >= FIRST_429_SHARE;
    if (!this.paces.isPaced(origin, label) && !heavy(at.origin) && !heavy(at.operation)) return;
    this.paces.limited(origin, label, at);
    if (this.paces.isPaced(origin, label)) this.taughtBy429.taught(origin);
  }

  /** What a wait of `ms` from now would be taken from (see retryWaitBudgetMs), if anything: waits side by side count once. */
  private waitFrom(ms: number, reserved: boolean): 'budget' | 'reserve' | undefined {
    const budget = this.options.retryWaitBudgetMs ?? RETRY_WAIT_BUDGET_MS;
    const added = this.addedBy(ms);
    if (this.stats.waitedMs + added <= budget) return 'budget';
    return reserved && this.reserveWaitedMs + added <= budget ? 'reserve' : undefined;
  }

  private addedBy(ms: number): number {
    const now = performance.now();
    return now >= this.waitingUntil ? ms : Math.max(0, now + ms - this.waitingUntil);
  }

  private async waitOut(ms: number, from: 'budget' | 'reserve'): Promise<void> {
    const added = this.addedBy(ms);
    if (from === 'budget') this.stats.waitedMs += added;
    else this.reserveWaitedMs += added;
    this.waitingUntil = Math.max(this.waitingUntil, performance.now() + ms);
    await sleep(ms);
  }

  private countAnswer(origin: string, waitedOut: boolean): void {
    let counts = this.answers.get(origin);
    if (!counts) this.answers.set(origin, (counts = { all: 0, waitedOut: 0 }));
    counts.all++;
    if (waitedOut) counts.waitedOut++;
  }

  private sporadic(origin: string): boolean {
    const counts = this.answers.get(origin);
    return counts !== undefined && counts.waitedOut <= counts.all * SPORADIC_SHARE;
  }

  private recordHealth(origin: string, label: string, plan: SendPlan, exchange: Exchange): void {
    const failure = exchange.failure;
    // Headers past the suite's cap are an answer all the same, however little of it was read.
    if ((!failure || failure.kind === 'headers-too-large') && !exchange.response?.truncated) {
      this.health.record(origin, label, plan, { answered: true, durationMs: exchange.durationMs });
      return;
    }
    const timedOut = failure?.kind === 'timeout';
    if (timedOut) exchange.timeoutMs = plan.timeoutMs;
    this.health.record(origin, label, plan, { answered: false, timedOut, kind: failure ? `${failure.kind}: ${failure.message}` : 'a body past the size cap' });
    if (timedOut && plan.shortened) exchange.failure = { kind: 'cut-short', message: this.health.shortWaitReason(origin, label, plan) };
  }

  /**
   * The origin's pool made to hold as many connections as its cap lets requests be in flight (at most
   * the concurrency): a pool of another size replaces it, and the old one closes its idle connections
   * at once, the others as their requests end (under a limit on connections, idle ones count; and a
   * request let out past the pool's connections would wait in its queue with its deadline running).
   * Made smaller only after a new connection was closed unanswered (`connectionLost`: a 503 limits
   * requests in flight, which the cap keeps to), and then replaced even at the same size where
   * `renew` says.
   */
  private fitPool(origin: string, connectionLost?: { renew: boolean }): void {
    const pool = this.pools.get(origin);
    if (!pool) return;
    const size = Math.min(this.caps.capOf(origin), this.options.concurrency);
    const now = this.poolSizes.get(origin) ?? this.options.concurrency;
    if (size < now && !connectionLost) return;
    if (size === now && !connectionLost?.renew) return;
    this.pools.set(origin, this.dispatcherTo(origin, size));
    this.poolSizes.set(origin, size);
    void pool.close().catch(() => undefined);
  }

  /** The connections the origin's pool holds open, busy or idle (none known through a proxy). */
  private pooledConnections(origin: string): number {
    return connectedOf(this.pools.get(origin));
  }

  /** Whether the idle watch's connection to the origin is open (it counts under a limit on connections). */
  private watching(origin: string): boolean {
    return connectedOf(this.idleWatches.get(origin)) > 0;
  }

  private pool(origin: string): Dispatcher {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = this.dispatcherTo(origin, this.options.concurrency);
      this.pools.set(origin, pool);
    }
    return pool;
  }

  private connectionSettings(connections: number) {
    // A server that does not say how long it keeps an idle connection may close it after 5 s (and the
    // request sent on it as it closes is lost): 4 s, as undici's own default, stays under that.
    return { keepAliveTimeout: 4_000, connections, maxHeaderSize: MAX_HEADER_BYTES, connectTimeoutMs: this.options.timeoutMs };
  }

  async close(): Promise<void> {
    this.closing.abort();
    this.deadlines.stop();
    await Promise.all([...this.pools.values(), ...this.idleWatches.values()].map((pool) => pool.destroy().catch(() => undefined)));
    this.pools.clear();
  }

  /** See ClientOptions.watchIdleCloses: in a slot of its own, on a connection left open after it. */
  private watchIdleCloses(url: URL, sentHeaders: Record<string, string>, shown: SentRequest, timeoutMs: number, tally: Omit<ClientStats, 'waitedMs'> | undefined): void {
    const own = this.connectionOfItsOwn(url);
    const bodyless = <T>(fields: Record<string, T>) => Object.fromEntries(Object.entries(fields).filter(([name]) => !/^content-(type|length|encoding)$/i.test(name)));
    const headers = bodyless(sentHeaders);
    const outgoing: OutgoingRequest = { method: 'GET', url: url.href, headers };
    const sent: SentRequest = { method: 'GET', url: shown.url, headers: bodyless(shown.headers) };
    this.idleWatches.set(url.origin, own);
    const connection = { ownConnection: true, repeat: { sentOn: {} }, closeAfter: () => false };
    // What comes after its answer tells of the origin as much as after any other (http.one-answer).
    const stray = this.strayWatch(tally);
    void (async () => {
      await this.acquire();
      this.caps.start(url.origin);
      this.stats.sent++;
      if (tally) tally.sent++;
      const started = performance.now();
      try {
        const response = await dispatchRequest(() => own, this.deadlines, this.idleCloses, this.options.maxBodyBytes, outgoing, url, headers, Math.min(timeoutMs, IDLE_WATCH_WAIT_MS), connection, stray.unrequested, this.stallWatch(url.origin, `${outgoing.method} ${url.pathname}`));
        stray.made({ request: sent, response: decodedResponse(response, this.options.maxBodyBytes), durationMs: performance.now() - started });
      } catch {
        // No answer, or the client closed: nothing is learnt.
      } finally {
        this.release();
        this.caps.landed(url.origin);
      }
    })();
  }

  /** A slot among --concurrency; `inRest`: for the one request a rest sends (RestGate), which the rest holds no other back from. */
  private async acquire(critical = false, inRest = false): Promise<void> {
    for (;;) {
      if (!inRest) await this.rests.passed();
      if (this.active >= this.options.concurrency) await new Promise<void>((resolve) => (critical ? this.waitingCritical : this.waiting).push(resolve));
      this.active++;
      if (inRest || !this.rests.isResting()) break;
      // Handed a slot while a rest began: handed on, and asked for again once the rest is over.
      this.release();
    }
    await this.pace();
  }

  /** Waits for the next request's turn under --max-rps, and under the rates learnt of its origin and operation where they are given (OriginPace). */
  private async pace(origin?: string, label?: string): Promise<void> {
    if (this.options.maxRps > 0) {
      const now = Date.now();
      const slot = Math.max(now, this.nextSlot);
      const sendBefore = this.options.sendBefore ?? Infinity;
      // A turn past the run's budget is not taken: it waits for the budget's end, and is handed back unsent.
      if (slot >= sendBefore) {
        // A timer may fire a little before Date.now() reaches its moment.
        while (Date.now() < sendBefore) await sleep(sendBefore - Date.now());
        return;
      }
      this.nextSlot = slot + 1000 / this.options.maxRps;
      if (slot > now) await sleep(slot - now);
    }
    if (origin && label !== undefined) await this.paces.turn(origin, label);
  }

  /** Whether ClientOptions.sendBefore has passed, or will have `afterMs` from now. */
  private pastBudget(afterMs = 0): boolean {
    return Date.now() + afterMs >= (this.options.sendBefore ?? Infinity);
  }

  /** The client's counts, and the caller's own where it keeps them. */
  private tallies(tally: Omit<ClientStats, 'waitedMs'> | undefined): Omit<ClientStats, 'waitedMs'>[] {
    return tally ? [this.stats, tally] : [this.stats];
  }

  /**
   * For one request: marks its exchange answered again (Exchange.answeredAgain, for http.one-answer)
   * once both the exchange and the bytes that came after its answer are known, in either order.
   */
  private strayWatch(tally: Omit<ClientStats, 'waitedMs'> | undefined): { unrequested: (stray: UnrequestedBytes) => void; made: (exchange: Exchange) => void } {
    let made: Exchange | undefined;
    let came: UnrequestedBytes | undefined;
    const mark = () => {
      if (!made || !came || made.answeredAgain) return;
      made.answeredAgain = came;
      for (const stats of this.tallies(tally)) if (stats.answeredAgain.length < MAX_ANSWERED_AGAIN) stats.answeredAgain.push(made);
    };
    return {
      unrequested: (stray) => {
        came ??= stray;
        for (const stats of this.tallies(tally)) stats.unrequestedAnswers++;
        mark();
      },
      made: (exchange) => {
        made = exchange;
        mark();
      },
    };
  }

  private release(): void {
    this.active--;
    (this.waitingCritical.shift() ?? this.waiting.shift())?.();
  }

  /** `plan` is brought up to date once the request has its slot (OperationHealth.recheck): the caller records what came of it under that. */
  private async sendOnce(outgoing: OutgoingRequest, url: URL, plan: SendPlan, label: string, tally: Omit<ClientStats, 'waitedMs'> | undefined, seen: SendSeen): Promise<Exchange | Refusal> {
    const headers: Record<string, string> = { ...outgoing.headers };
    if (!hasHeader(headers, 'user-agent')) headers['user-agent'] = USER_AGENT;
    if (outgoing.authorization) headers[outgoing.authorization.header ?? 'authorization'] = outgoing.authorization.value;
    const sent = shownRequest(outgoing);
    // Gateway headers go to the configured origins only; reports show the variable a curl line reads.
    for (const gateway of gatewayHeadersFor(url, this.options.network)) {
      headers[gateway.name] = gateway.value;
      sent.headers[gateway.name] = `$${gateway.variable}`;
    }
    if (this.options.watchIdleCloses && !this.idleWatches.has(url.origin)) this.watchIdleCloses(url, headers, sent, plan.timeoutMs, tally);
    const kind = kindOf(url, outgoing, headers);
    // An origin that answers requests never sent may have one of its answers taken for the next request's: each goes alone.
    const alone = () => !outgoing.lone && ((this.closesUnannounced.has(url.origin) && !IDEMPOTENT.has(outgoing.method.toUpperCase())) || this.idleCloses.answersUnrequested(url.origin));
    const turn = this.sendUnasked100.has(url.origin) || alone() ? undefined : this.bodyReuse.turn(url, outgoing, kind);
    if (turn && 'wait' in turn) await within(turn.wait, PROOF_HOLD_MAX_MS);
    // Room for its answer first (AnswerBudget), then a slot; neither is held while it waits on its origin's cap or pace.
    let room: Room | undefined;
    const roomed = async () => (room = await this.answerRoom.reserve(url.origin, label, outgoing.critical));
    if (!seen.inRest) await roomed();
    let answerBytes: number | undefined;
    const made = (exchange: Exchange) => {
      if (exchange.response) answerBytes = exchange.response.truncated ? this.options.maxBodyBytes : exchange.response.body.length;
      return exchange;
    };
    await this.acquire(outgoing.critical, seen.inRest);
    // Under the origin's own cap too (OriginCaps), waited for without holding the client's slot. A rest's
    // request goes whatever the cap: the requests the rest holds back may hold the origin's places.
    if (seen.inRest) this.caps.start(url.origin);
    else while (!this.caps.tryStart(url.origin)) {
      this.release();
      room?.settle();
      await this.caps.whenFreer(url.origin, outgoing.critical);
      await roomed();
      await this.acquire(outgoing.critical, seen.inRest);
    }
    seen.cutsAtStart = this.caps.cutsOf(url.origin);
    // Under the rates learnt of its origin and operation (OriginPace), its turn waited for without the client's slot.
    // A rest spaces its request more than any rate (and the turns queued ahead of it wait on the rest).
    if (this.paces.isPaced(url.origin, label) && !seen.inRest) {
      this.release();
      room?.settle();
      await this.paces.turn(url.origin, label, async () => {
        await roomed();
        await this.acquire(outgoing.critical);
      });
    }
    seen.pace = seen.inRest ? Infinity : this.paces.heldTo(url.origin, label);
    let started = performance.now();
    let own: Dispatcher | undefined;
    let resent = false;
    let sentAlone = false;
    try {
      if (this.pastBudget()) return { refused: NOT_SENT_PAST_BUDGET };
      const current = this.health.recheck(url.origin, label, plan);
      if ('refused' in current) return current;
      Object.assign(plan, current);
      // Checked again once in its slot: an answer to another request may have shown it while this one waited.
      if (this.sendUnasked100.has(url.origin)) {
        this.stats.sent++;
        return made(await this.sendAroundUndici(outgoing, url, headers, sent, plan));
      }
      // Asked again once in its slot: a close another request met while this one waited may have shown it.
      const chosen = alone() ? ALONE : this.bodyReuse.connectionFor(url, outgoing, kind);
      // Where the origin let none of its own in beside the pool's: on a pooled one, closed after its answer (no repeat).
      const connection = seen.throughPool && (chosen === ALONE || chosen.repeat) ? THROUGH_POOL : chosen;
      if (chosen.repeat && connection !== chosen) this.bodyReuse.mayRepeat(url.origin, kind!);
      sentAlone = connection === ALONE;
      // A connection of its own that is left open, for the same request again (see repeatRefusal).
      if (connection.repeat || outgoing.lone || connection === ALONE) own = this.connectionOfItsOwn(url);
      this.stats.sent++;
      const stray = this.strayWatch(tally);
      const dispatch = (via?: Dispatcher) =>
        dispatchRequest((origin) => via ?? own ?? this.pool(origin), this.deadlines, this.idleCloses, this.options.maxBodyBytes, outgoing, url, headers, plan.timeoutMs, connection, stray.unrequested, this.stallWatch(url.origin, label), this.unsettledOf(outgoing));
      /** Sends it once more, on `fresh` (a connection of its own, destroyed after) or the pool, counted as resent. */
      const resendOn = async (fresh: Dispatcher | undefined) => {
        await this.pace(url.origin, label);
        if (this.pastBudget()) throw new PastBudget();
        for (const stats of this.tallies(tally)) stats.resent++;
        resent = true;
        started = performance.now();
        try {
          return await dispatch(fresh);
        } finally {
          if (fresh) void fresh.destroy().catch(() => undefined);
        }
      };
      let response: ReceivedResponse;
      try {
        response = await dispatch();
      } catch (error) {
        if (!this.mayResend(error, outgoing)) throw error;
        // Handed to send() rather than sent again at once on a new connection, which such a limit closes too.
        seen.watching = this.watching(url.origin);
        if (lossOf(error) === 'unused-closed' && !outgoing.lone && seen.handBackFreshLoss && (this.caps.others(url.origin) > 0 || this.paces.answeredCalm(url.origin) || seen.watching || this.closedLately(url.origin))) {
          seen.alongside = this.caps.others(url.origin);
          seen.freshLost = true;
          seen.ownLost = own !== undefined;
          throw error;
        }
        try {
          // After the race with a close, on a connection of its own: lost there, it was lost to no race, and is judged.
          response = await resendOn(lossOf(error) === 'unwritten' || seen.throughPool ? undefined : this.connectionOfItsOwn(url));
          // Connections of their own keep its later POSTs from such closes (not from one before a first request).
          if (isRaceLoss(lossOf(error)) && lossOf(error) !== 'unused-closed') this.closesUnannounced.add(url.origin);
        } catch (again) {
          if (lossOf(again) !== 'unwritten') throw again;
          return { request: sent, failure: { kind: 'not-sent', message: 'the connection it waited on was lost before it was written, twice' }, durationMs: 0 };
        }
      }
      // A 408 may be the notice of a server closing a connection left idle, which the request crossed:
      // "If the client has an outstanding request in transit, it MAY repeat that request" (RFC 9110 §15.5.9).
      const resend408 = response.status === 408 && !resent && !outgoing.lone;
      if (resend408) response = await resendOn(this.connectionOfItsOwn(url));
      seen.alongside = seen.inRest ? 0 : this.caps.others(url.origin);
      const exchange = made({ request: sent, response: decodedResponse(response, this.options.maxBodyBytes), durationMs: performance.now() - started });
      stray.made(exchange);
      this.options.observe?.(exchange);
      // Answered on another connection than the one left open for it, a repeat would prove nothing: the next of its kind may.
      if (own && connection.repeat && resend408) this.bodyReuse.mayRepeat(url.origin, kind!);
      else if (own && connection.repeat) await this.repeatRefusal(own, { url, headers, outgoing, sent }, kind!, exchange, connection.repeat.sentOn.socket, tally);
      return exchange;
    } catch (error) {
      if (error instanceof PastBudget) return notSentPastBudget(outgoing);
      if (own && kind && !outgoing.lone && !sentAlone) this.bodyReuse.mayRepeat(url.origin, kind);
      // A new connection closed unread while others to the origin are open, sent once more already or
      // not: a limit on connections may close it, so it is handed back, to go alone in a rest at last.
      if (lossOf(error) === 'unused-closed' && !outgoing.lone && !seen.inRest && !seen.freshLost && seen.handBackLate && (this.caps.others(url.origin) > 0 || this.pooledConnections(url.origin) > 0 || this.watching(url.origin) || this.closedLately(url.origin))) {
        seen.alongside = this.caps.others(url.origin);
        seen.watching = this.watching(url.origin);
        seen.freshLost = true;
        seen.ownLost = own !== undefined;
      }
      if (lossOf(error) === 'unasked-100') {
        // Any method: undici dropped it once the whole request had gone out, so the origin may see it twice.
        this.sendUnasked100.add(url.origin);
        for (const stats of this.tallies(tally)) stats.resent++;
        await this.pace(url.origin);
        if (this.pastBudget()) return notSentPastBudget(outgoing);
        return made(await this.sendAroundUndici(outgoing, url, headers, sent, plan));
      }
      const loss = resent ? undefined : lossOf(error);
      const failure = isRaceLoss(loss) ? { kind: 'lost-kept-alive' as const, message: LOST_LONE } : classify(error);
      return { request: sent, failure, durationMs: performance.now() - started };
    } finally {
      room?.settle(answerBytes);
      if (own) void own.destroy().catch(() => undefined);
      if (turn && 'proved' in turn) turn.proved();
      this.release();
      this.caps.landed(url.origin);
    }
  }

  private nodeHttpRequest(outgoing: OutgoingRequest, url: URL, headers: Record<string, string>, plan: SendPlan) {
    const request = { method: outgoing.method, url, headers, timeoutMs: plan.timeoutMs, maxBodyBytes: this.options.maxBodyBytes, deadlines: this.deadlines, signal: this.closing.signal };
    return { ...request, ...(outgoing.body !== undefined ? { body: outgoing.body } : {}), ...(this.options.network ? { network: this.options.network } : {}) };
  }

  /** A request to an origin that sends `100 Continue` unasked, in the slot it holds, through node:http. */
  private async sendAroundUndici(outgoing: OutgoingRequest, url: URL, headers: Record<string, string>, sent: SentRequest, plan: SendPlan): Promise<Exchange> {
    const started = performance.now();
    try {
      const response = await sendThroughNodeHttp(this.nodeHttpRequest(outgoing, url, headers, plan));
      const exchange: Exchange = { request: sent, response: decodedResponse(response, this.options.maxBodyBytes), durationMs: performance.now() - started };
      this.options.observe?.(exchange);
      return exchange;
    } catch (error) {
      return { request: sent, failure: classify(error), durationMs: performance.now() - started };
    }
  }

  /** What dispatchRequest calls for an attempt written and left unsettled: the `unsettled` option, told of this request. */
  private unsettledOf(outgoing: OutgoingRequest): (() => void) | undefined {
    const told = this.options.unsettled;
    return told && (() => told(outgoing));
  }

  /**
   * Whether a request lost with its connection is sent once more, and that answer judged: one never
   * written; and one lost to the race with the origin's close of its connection (idle, right after
   * an answer, or before its first request), on a connection of its own, where a loss is judged.
   * RFC 9112 §9.3.1 lets a client send an idempotent request again; a POST is sent again too, as a
   * test that only judged what was answered would otherwise pass a server that drops one input every
   * time: the origin may then see it twice (an animal or a message more, which no clause counts on).
   * Not a request sent once only (the preflight's probe).
   */
  private mayResend(error: unknown, outgoing: OutgoingRequest): boolean {
    const loss = lossOf(error);
    return loss === 'unwritten' || (isRaceLoss(loss) && !outgoing.lone);
  }

  /**
   * Sends a refused request again on the connection it went out on, left open, and, where the
   * origin answers the same (status and Content-Type) on that same connection and keeps it open,
   * lets requests of its kind share pooled connections after that refusal (src/http/body-reuse.ts).
   * In the slot of the request it repeats, so what is in flight stays within the cap; counted with
   * it; judged only for an answer to no request after its own (a creation it makes is told to
   * `observe`, for the trail).
   */
  private async repeatRefusal(
    own: Dispatcher,
    request: { url: URL; headers: Record<string, string>; outgoing: OutgoingRequest; sent: SentRequest },
    kind: string,
    first: Exchange,
    firstSocket: Socket | undefined,
    tally: Omit<ClientStats, 'waitedMs'> | undefined,
  ): Promise<void> {
    const answer = first.response!;
    if (!repeatable(answer.status) || answer.truncated || closes(answer) || !firstSocket || firstSocket.destroyed) {
      // A 2xx shows the kind is read, and a connection the origin closes shows nothing will; anything else, the next may.
      if (!(answer.status >= 200 && answer.status < 300) && !closes(answer)) this.bodyReuse.mayRepeat(request.url.origin, kind);
      return;
    }
    await this.pace(request.url.origin);
    if (this.pastBudget()) return;
    this.stats.sent++;
    if (tally) tally.sent++;
    const sentOn: { socket?: Socket } = {};
    const started = performance.now();
    const waitMs = Math.min(this.options.timeoutMs, Math.max(REPEAT_MIN_WAIT_MS, 4 * first.durationMs));
    const stray = this.strayWatch(tally);
    try {
      const connection = { ownConnection: true, repeat: { sentOn }, closeAfter: () => false };
      const response = await dispatchRequest(() => own, this.deadlines, this.idleCloses, this.options.maxBodyBytes, request.outgoing, request.url, request.headers, waitMs, connection, stray.unrequested);
      const exchange: Exchange = { request: request.sent, response: decodedResponse(response, this.options.maxBodyBytes), durationMs: performance.now() - started };
      stray.made(exchange);
      this.options.observe?.(exchange);
      const same = sentOn.socket === firstSocket && !firstSocket.destroyed && response.status === answer.status && response.headers['content-type'] === answer.headers['content-type'];
      if (same && !closes(response)) this.bodyReuse.keptInStep(request.url.origin, kind, answer.status);
    } catch {
      // No answer in time, or the connection went: requests of this kind keep connections of their own.
    }
  }
}
