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

/** How a request is sent: on a connection of its own, or on a pooled one, closed after an answer that may have left its body unread. */
export interface BodyConnection {
  ownConnection: boolean;
  /** On a pooled connection: whether the answer with this status must close it. */
  closeAfter(status: number): boolean;
}

const POOLED: BodyConnection = { ownConnection: false, closeAfter: () => false };

/**
 * Which requests with a body may share a keep-alive connection. A server may refuse a body before
 * reading it and then read nothing more on that connection (RFC 9112 §9.6 has it close the
 * connection; not all do): the next request sent there would wait for good. So a request with a body
 * gets a connection of its own until the origin has shown, by answering 2xx to one, that it reads
 * the bodies of requests like it: the same method, credentials and content type (a key the server
 * refuses, or a content type it does not take, never earns it). After that such requests share
 * pooled connections; an answer that does not show the body was read closes its connection and takes
 * the proof back until another 2xx. A body the server stops reading before it is all written is
 * caught by undici itself (an answer that ends while the request is still being written closes the
 * connection).
 */
export class BodyReuse {
  /** Per origin, the kinds of request with a body that the origin has shown it reads. */
  private readonly proven = new Map<string, Set<string>>();

  connectionFor(origin: string, outgoing: OutgoingRequest, headers: Record<string, string>): BodyConnection {
    if (outgoing.body === undefined) return POOLED;
    const kind = kindOf(outgoing, headers);
    const proven = outgoing.body.length <= REUSE_MAX_BODY_CHARS && this.proven.get(origin)?.has(kind) === true;
    return {
      ownConnection: !proven,
      closeAfter: (status) => {
        const read = readItsBody(status);
        if (status >= 200 && status < 300) this.prove(origin, kind);
        else if (!read) this.proven.get(origin)?.delete(kind);
        return proven && !read;
      },
    };
  }

  private prove(origin: string, kind: string): void {
    let kinds = this.proven.get(origin);
    if (!kinds) this.proven.set(origin, (kinds = new Set()));
    kinds.add(kind);
  }
}

/** What a server may gate a body on before reading it: the method, the credentials and the content type. */
function kindOf(outgoing: OutgoingRequest, headers: Record<string, string>): string {
  let authorization = '';
  let contentType = '';
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') authorization = headers[name]!;
    else if (lower === 'content-type') contentType = headers[name]!;
  }
  return `${outgoing.method}\n${authorization}\n${contentType}`;
}
