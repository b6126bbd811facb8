import type { Socket } from 'node:net';
import type { OutgoingRequest } from './client.ts';

/** Past this size a request body always gets a connection of its own. */
export const REUSE_MAX_BODY_CHARS = 64 * 1024;

/**
 * Answers that come after the body was read: a success used it, and these refusals are about what
 * it held (RFC 9110 §15.5.1, §15.5.10, §15.5.21). Any other answer to a request with a body (401,
 * 403, 404 from a router, 413, 415, 429, 503, ...) may come from a gate that never read it.
 */
function readItsBody(status: number): boolean {
  return (status >= 200 && status < 300) || status === 400 || status === 409 || status === 422;
}

/** Refusals a repeat may test (see BodyReuse): not a timeout, nor a rate limit that a repeat would only make worse. */
export function repeatable(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** How a request is sent: on a connection of its own, or on a pooled one, closed after an answer that may have left its body unread. */
export interface BodyConnection {
  ownConnection: boolean;
  /**
   * On a connection of its own that is left open after the answer (no `Connection: close`), so the
   * same request can be sent again on it (see BodyReuse): `socket` is the connection it went out on.
   */
  repeat?: { sentOn: { socket?: Socket } };
  /** On a pooled connection: whether the answer with this status must close it. */
  closeAfter(status: number): boolean;
}

const POOLED: BodyConnection = { ownConnection: false, closeAfter: () => false };
const LONE: BodyConnection = { ownConnection: true, closeAfter: () => false };

/**
 * Which requests with a body may share a keep-alive connection. A server may refuse a body before
 * reading it and then read nothing more on that connection (RFC 9112 §9.6 has it close the
 * connection; not all do): the next request sent there would wait for good. So a request with a body
 * gets a connection of its own until the origin has shown that it keeps the connection in step after
 * requests like it (the same path, method, credentials and content type), in one of two ways:
 * - it answered one 2xx: it reads their bodies (a key the server refuses, or a content type it does
 *   not take, never earns this);
 * - it refused one, and the very same request sent again on that connection got the same refusal
 *   (the status and Content-Type), with the connection kept open: it consumed the refused body
 *   (`repeat`; the first of each kind is sent that way, and the others of the kind wait for it).
 * After that such requests share pooled connections; an answer that does not show the connection is
 * still in step (a status neither shown nor about the body read) closes its connection and takes the
 * proofs back, until the next of the kind shows them again as the first did. A body the server stops
 * reading before it is all written is caught by undici itself (an answer that ends while the request
 * is still being written closes the connection).
 */
export class BodyReuse {
  /** Per origin, the kinds of request with a body that the origin has shown it reads. */
  private readonly proven = new Map<string, Set<string>>();
  /** Per origin and kind, the refusals after which the origin kept the connection in step. */
  private readonly refusals = new Map<string, Map<string, Set<number>>>();
  /** Per origin, the kinds already sent with `repeat` (each once, until its proofs are taken back). */
  private readonly repeated = new Map<string, Set<string>>();
  /** Per origin and kind, the first request of the kind while its answer (and repeat) may still prove it. */
  private readonly proving = new Map<string, Promise<void>>();

  /**
   * Before a request takes its slot. The first request of a kind shows whether the origin reads such
   * bodies: later ones of the kind wait for it (`wait`, a round trip or two) rather than each taking a
   * connection of its own, which far from the target would be most of them. The first gets `proved`,
   * to call once it and its repeat are done, whatever came of them.
   */
  turn(url: URL, outgoing: OutgoingRequest, kind: string | undefined): { wait: Promise<void> } | { proved: () => void } | undefined {
    if (kind === undefined || outgoing.body === undefined || outgoing.lone || outgoing.body.length > REUSE_MAX_BODY_CHARS) return undefined;
    const origin = url.origin;
    const key = `${origin}\n${kind}`;
    const pending = this.proving.get(key);
    if (pending) return { wait: pending };
    if (this.isPooled(origin, kind) || this.repeated.get(origin)?.has(kind)) return undefined;
    let settle!: () => void;
    this.proving.set(key, new Promise<void>((resolve) => (settle = resolve)));
    return {
      proved: () => {
        this.proving.delete(key);
        settle();
      },
    };
  }

  private isPooled(origin: string, kind: string): boolean {
    return this.proven.get(origin)?.has(kind) === true || this.refusals.get(origin)?.has(kind) === true;
  }

  connectionFor(url: URL, outgoing: OutgoingRequest, kind: string | undefined): BodyConnection {
    if (kind === undefined || outgoing.body === undefined) return POOLED;
    if (outgoing.lone) return LONE;
    const origin = url.origin;
    const small = outgoing.body.length <= REUSE_MAX_BODY_CHARS;
    const pooled = small && this.isPooled(origin, kind);
    const repeat = small && !pooled && !setOf(this.repeated, origin).has(kind);
    if (repeat) setOf(this.repeated, origin).add(kind);
    return {
      ownConnection: !pooled,
      ...(repeat ? { repeat: { sentOn: {} } } : {}),
      closeAfter: (status) => {
        if (status >= 200 && status < 300) setOf(this.proven, origin).add(kind);
        const inStep = readItsBody(status) || this.refusals.get(origin)?.get(kind)?.has(status) === true;
        if (!inStep) {
          const retracted = this.proven.get(origin)?.delete(kind) === true;
          // The next of the kind may show it again, as the first did, the others waiting for it.
          if (this.refusals.get(origin)?.delete(kind) === true || retracted) this.repeated.get(origin)?.delete(kind);
        }
        return pooled && !inStep;
      },
    };
  }

  /** The first request of a kind got no answer a repeat could test (a 429, a timeout, ...): the next one may. */
  mayRepeat(origin: string, kind: string): void {
    this.repeated.get(origin)?.delete(kind);
  }

  /** The origin answered a repeat of a refused request as it did the first, on the same open connection. */
  keptInStep(origin: string, kind: string, status: number): void {
    let kinds = this.refusals.get(origin);
    if (!kinds) this.refusals.set(origin, (kinds = new Map()));
    let statuses = kinds.get(kind);
    if (!statuses) kinds.set(kind, (statuses = new Set()));
    statuses.add(status);
  }
}

function setOf(map: Map<string, Set<string>>, origin: string): Set<string> {
  let set = map.get(origin);
  if (!set) map.set(origin, (set = new Set()));
  return set;
}

/**
 * What a server may gate a body on before reading it: the path (a router may refuse an unknown one
 * unread where the handler of a known one reads), the method, the credentials and the content type;
 * none for a request without a body.
 */
export function kindOf(url: URL, outgoing: OutgoingRequest, headers: Record<string, string>): string | undefined {
  if (outgoing.body === undefined) return undefined;
  let authorization = '';
  let contentType = '';
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') authorization = headers[name]!;
    else if (lower === 'content-type') contentType = headers[name]!;
  }
  return `${outgoing.method} ${url.pathname}\n${authorization}\n${contentType}`;
}
