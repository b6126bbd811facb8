// Response writing, request body reading and content-type checks shared by all routes.

import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Ctx } from './context.ts';
import { allowed, fault, switches, type Deviation } from './deviation.ts';
import { stringify, withExponentIntegers, type JsonOut } from './json.ts';

/** The deviations switched in this module (reference/deviations.ts gathers them into the catalogue). */
export const HTTP_DEVIATIONS = [
  fault('fault-json-bom', 'json.content-type', 'Every JSON body starts with a UTF-8 byte-order mark (EF BB BF), as .NET\'s Encoding.UTF8 preamble writes it; RFC 8259 §8.1 forbids one on the wire.'),
  fault('fault-json-duplicate-status', 'json.unique-names', 'Every Pet is written with "status":"available" first and then its own status, as a serialiser that writes defaults before the values does; a last-wins parser reads the right status, a first-wins one reads "available".'),
  fault('fault-error-missing-code', 'errors.shape', '404 Error bodies lack "code".'),
  fault('fault-error-two-content-types', 'json.content-type', 'Every Error answer carries two Content-Type field lines, application/json from the service and text/html; charset=utf-8 from an error-page filter: a singleton field sent twice with values that disagree (RFC 9110 §5.3).'),
  fault('fault-error-status-mismatch', 'errors.status-field', '400 Error bodies carry "status": 200.'),
  fault('fault-answers-twice', 'http.one-answer', 'Every 5th listing (GET /v1/pets) is followed at once, on its connection, by a second answer (a 404 Error) to no request, as a handler that answers twice would send it: a kept-alive client takes it for the next request\'s answer.'),
  fault('fault-problem-json-on-get', 'errors.shape', 'Error answers to GET requests other than 401 are RFC 9457 application/problem+json bodies ({type, title, status, detail}: no code or message), as a framework default would write; POST errors keep the Error shape.'),
  allowed('allowed-connection-limit', 'Each port keeps at most 4 connections open at once and closes one more as it opens, unread, as a gateway with a cap on connections per client does (the spec shows no such limit, §8): the suite holds more open at its default concurrency.'),
  allowed('allowed-connection-limit-2', 'Each port keeps at most 2 connections open at once and closes one more as it opens, unread (the 2 connections per server RFC 2616 §8.1.4 once asked of a client; the spec shows no limit, §8).'),
  allowed('allowed-connection-limit-1', 'Each port keeps 1 connection open at a time and closes any other as it opens, unread (the spec shows no limit, §8).'),
  allowed('allowed-one-connection-at-a-time', 'Each port serves one connection at a time, as a single-threaded server with keep-alive does (Python\'s http.server HTTPServer speaking HTTP/1.1): a connection opened while another is open waits, accepted but unread, until that one closes (RFC 9112 §9.4 asks clients to limit their connections; the spec shows no limit, §8).'),
  allowed('allowed-other-error-codes', 'Error codes are upper-case (e.g. NOT_FOUND instead of not_found).'),
  allowed('allowed-content-type-no-charset', 'JSON responses carry Content-Type: application/json exactly (no charset parameter).'),
  allowed('allowed-gzip-by-default', 'JSON bodies are gzip-coded unless Accept-Encoding excludes gzip (RFC 9110 §12.5.3: no Accept-Encoding accepts any coding).'),
  allowed('allowed-gzip-always', 'Every JSON body is gzip-coded, even to a request that accepts only identity (RFC 9110 §12.5.3 says it SHOULD not be: a warning).', ['json.content-coding']),
  allowed('allowed-exponent-integers', 'Every integer in a JSON body is written in scientific notation, as a writer of decimal types puts it (Java\'s BigDecimal.toString: 157 as 1.57E+2, 9223372036854775807 as 9.223372036854775807E+18); JSON Schema reads each as the integer it is.'),
  allowed('allowed-closes-every-5th', 'Closes each kept-alive connection after its 5th answer, without Connection: close (RFC 9112 §9.5: a server may close a connection at any time): a request sent on it then meets the close, unread.'),
] as const satisfies readonly Deviation[];

const on = switches(HTTP_DEVIATIONS);

/** allowed-connection-limit: node:net closes each connection past this many open on the port, unread (-2 and -1: 2 and 1). */
const CONNECTION_LIMIT = 4;

export function limitConnections(ctx: Ctx, server: Server): void {
  if (on(ctx, 'allowed-connection-limit')) server.maxConnections = CONNECTION_LIMIT;
  if (on(ctx, 'allowed-connection-limit-2')) server.maxConnections = 2;
  if (on(ctx, 'allowed-connection-limit-1')) server.maxConnections = 1;
  if (on(ctx, 'allowed-one-connection-at-a-time')) serveOneAtATime(server);
}

/** allowed-one-connection-at-a-time: each connection is accepted paused (net.Server's pauseOnConnect) and read only once the one before it has closed. */
export function serveOneAtATime(server: Server): void {
  (server as Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  const waiting: Socket[] = [];
  let serving: Socket | undefined;
  const next = () => {
    while (!serving && waiting.length > 0) {
      const socket = waiting.shift()!;
      if (socket.destroyed) continue;
      serving = socket;
      socket.resume();
    }
  };
  server.on('connection', (socket: Socket) => {
    socket.once('close', () => {
      const at = waiting.indexOf(socket);
      if (at >= 0) waiting.splice(at, 1);
      if (serving === socket) serving = undefined;
      next();
    });
    waiting.push(socket);
    next();
  });
}

export const MAX_BODY_BYTES = 1024 * 1024;
/** After the limit is exceeded the rest of the body is read and discarded up to this many bytes, then the socket is dropped. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

export function jsonContentType(ctx: Ctx): string {
  return on(ctx, 'allowed-content-type-no-charset') ? 'application/json' : 'application/json; charset=utf-8';
}

/** fault-auth-after-validation: the 401 of a request without a valid key, held back until it has passed validation. */
const HELD_REJECTIONS = new WeakMap<ServerResponse, () => void>();

export function holdRejection(res: ServerResponse, reject: () => void): void {
  HELD_REJECTIONS.set(res, reject);
}

/** Sends the held 401 if there is one, and says so: the request passed validation, so nothing more is done for it. */
export function sentHeldRejection(res: ServerResponse): boolean {
  const reject = HELD_REJECTIONS.get(res);
  if (!reject) return false;
  HELD_REJECTIONS.delete(res);
  reject();
  return true;
}

/** Writes a JSON body (already serialised) unless the response is already gone; a held 401 goes instead of an answer below 400. */
export function sendRaw(res: ServerResponse, status: number, contentType: string, body: string | Buffer, headers: OutgoingHttpHeaders = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (status < 400 && sentHeldRejection(res)) return;
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

const ANSWERED = new WeakMap<object, number>();

/**
 * allowed-closes-every-5th: true for a request that comes on a connection after its 5th answer; the
 * connection is then closed under it, unread and unanswered, as if it had been closed as that answer
 * went out and the request had crossed the close (counted by the socket, whatever came of each).
 */
export function closedAfterFifth(ctx: Ctx, req: IncomingMessage, res: ServerResponse): boolean {
  if (!on(ctx, 'allowed-closes-every-5th')) return false;
  const socket = req.socket;
  if ((ANSWERED.get(socket) ?? 0) >= 5) {
    socket.destroy();
    return true;
  }
  res.once('finish', () => ANSWERED.set(socket, (ANSWERED.get(socket) ?? 0) + 1));
  return false;
}

/** Listings answered, per server (its Ctx). */
const LISTINGS = new WeakMap<Ctx, number>();
const SECOND_ANSWER = (() => {
  const body = stringify({ code: 'not_found', message: 'a second answer', status: 404 });
  return `HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
})();

/** fault-answers-twice: every 5th listing's answer is followed on its connection by a second one, written raw as it ends. */
export function answerTwice(ctx: Ctx, req: IncomingMessage, res: ServerResponse): void {
  if (!on(ctx, 'fault-answers-twice') || req.method !== 'GET' || !/^\/v1\/pets(\?|$)/.test(req.url ?? '')) return;
  const listings = (LISTINGS.get(ctx) ?? 0) + 1;
  LISTINGS.set(ctx, listings);
  if (listings % 5 !== 0) return;
  res.once('finish', () => {
    if (!req.socket.destroyed) req.socket.write(SECOND_ANSWER);
  });
}

export function sendJson(res: ServerResponse, ctx: Ctx, status: number, body: JsonOut, headers: OutgoingHttpHeaders = {}): void {
  const text = stringify(body);
  sendCoded(res, ctx, status, jsonContentType(ctx), on(ctx, 'allowed-exponent-integers') ? withExponentIntegers(text) : text, headers);
}

/** sendRaw, gzip-coded under allowed-gzip-by-default where the request accepts it. */
export function sendCoded(res: ServerResponse, ctx: Ctx, status: number, contentType: string, body: string, headers: OutgoingHttpHeaders = {}): void {
  if (on(ctx, 'fault-json-bom') && contentType === jsonContentType(ctx)) body = `\uFEFF${body}`;
  if (on(ctx, 'fault-json-duplicate-status') && contentType === jsonContentType(ctx)) body = body.replace(/"status":"(available|pending|sold)"/g, '"status":"available","status":"$1"');
  if ((on(ctx, 'allowed-gzip-by-default') && acceptsGzip(res.req)) || on(ctx, 'allowed-gzip-always')) {
    sendRaw(res, status, contentType, gzipSync(body), { ...headers, 'Content-Encoding': 'gzip' });
    return;
  }
  sendRaw(res, status, contentType, body, headers);
}

/** RFC 9110 §12.5.3: without Accept-Encoding any coding is acceptable; with it, gzip (or *) must be listed with q > 0. */
function acceptsGzip(req: IncomingMessage): boolean {
  const field = req.headers['accept-encoding'];
  if (field === undefined) return true;
  return field.split(',').some((part) => {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    return (coding === 'gzip' || coding === '*') && !params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
  });
}

/** The Error shape `{code, message, status}`, with the error-body deviations applied here and only here. */
export function errorBody(ctx: Ctx, status: number, code: string, message: string): JsonOut {
  return {
    code: status === 404 && on(ctx, 'fault-error-missing-code') ? undefined : on(ctx, 'allowed-other-error-codes') ? code.toUpperCase() : code,
    message,
    status: status === 400 && on(ctx, 'fault-error-status-mismatch') ? 200 : status,
  };
}

export function sendError(res: ServerResponse, ctx: Ctx, status: number, code: string, message: string, headers: OutgoingHttpHeaders = {}): void {
  if (on(ctx, 'fault-problem-json-on-get') && res.req.method === 'GET' && status !== 401) {
    const problem = { type: `https://reference.invalid/problems/${code}`, title: code.replace(/_/g, ' '), status, detail: message };
    sendCoded(res, ctx, status, 'application/problem+json', stringify(problem), headers);
    return;
  }
  if (on(ctx, 'fault-error-two-content-types')) {
    const body = stringify(errorBody(ctx, status, code, message));
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, [...Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])), ['Content-Type', jsonContentType(ctx)], ['Content-Type', 'text/html; charset=utf-8'], ['Content-Length', String(Buffer.byteLength(body))]].flat());
    res.end(body);
    return;
  }
  sendJson(res, ctx, status, errorBody(ctx, status, code, message), headers);
}

/**
 * True when the Content-Type media type is application/json (any parameters, e.g. charset, allowed);
 * `exact` wants the header to be exactly "application/json" (a fault).
 */
/** `exact`: the header must be `application/json` itself; `caseSensitive`: its media type in lower case. */
export function isJsonContentType(req: IncomingMessage, exact = false, caseSensitive = false): boolean {
  const header = req.headers['content-type'];
  if (header === undefined) return false;
  if (exact) return header === 'application/json';
  const mediaType = (header.split(';', 1)[0] ?? '').trim();
  return (caseSensitive ? mediaType : mediaType.toLowerCase()) === 'application/json';
}

export type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Reads the whole request body, at most MAX_BODY_BYTES. A larger body is drained (discarded) so
 * the 413 can be read by the client, and the connection is dropped if it goes on too long.
 */
export function readBody(req: IncomingMessage): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_DISCARD_BYTES) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult) => {
      if (done) return;
      done = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DISCARD_BYTES) {
        req.socket.destroy();
        finish({ kind: 'aborted' });
      } else if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
      } else {
        chunks.length = 0;
      }
    });
    req.on('end', () => finish(size > MAX_BODY_BYTES ? { kind: 'too-large' } : { kind: 'ok', body: Buffer.concat(chunks) }));
    req.on('error', () => finish({ kind: 'aborted' }));
    req.on('close', () => finish({ kind: 'aborted' }));
  });
}

/** Reads the body and answers 413 itself when too large; returns undefined when nothing more should be done. */
export async function readBodyOrReply(req: IncomingMessage, res: ServerResponse, ctx: Ctx): Promise<Buffer | undefined> {
  const result = await readBody(req);
  if (result.kind === 'ok') return result.body;
  if (result.kind === 'too-large') {
    sendError(res, ctx, 413, 'payload_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`, { Connection: 'close' });
  }
  return undefined;
}
