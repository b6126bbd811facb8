/**
 * Canned exchanges: what every check's cases (src/checks/types.ts, Cases) are written with, and what
 * the self-tests build exchanges from. No network, no clock.
 */
import type { Exchange, SentRequest, TransportFailure } from '../http/exchange.ts';
import { stringifyJson } from '../json/lossless.ts';

/** A fixed clock: well before the 5 December 2030 removal of GET /pets/{id}. */
export const NOW = new Date('2026-11-22T10:00:00Z');

/** Raw body text, sent as is (no JSON serialisation). */
export class Raw {
  constructor(readonly text: string | Buffer) {}
}

export function raw(text: string | Buffer): Raw {
  return new Raw(text);
}

export type Body = Raw | undefined | null | boolean | number | bigint | string | readonly unknown[] | Record<string, unknown>;

const DEFAULT_REQUEST: SentRequest = { method: 'GET', url: 'https://api.example.test/v1/pets', headers: { authorization: 'Bearer $API_KEY' } };

/**
 * An exchange that got a response. `body`: a JSON value (serialised losslessly with stringifyJson),
 * `raw(text)` for bytes as they are, or undefined for an empty body. A JSON or raw body gets
 * `Content-Type: application/json` unless `headers` names content-type; a header set to null is left out.
 * Header names are lower-cased, as the client records them.
 */
export function exchange(
  status: number,
  body?: Body,
  headers: Record<string, string | null> = {},
  request: Partial<SentRequest> = {},
): Exchange {
  const bytes =
    body === undefined ? Buffer.alloc(0) : body instanceof Raw ? Buffer.from(body.text) : Buffer.from(stringifyJson(body), 'utf8');
  const lower: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  if (bytes.length > 0 && !('content-type' in lower)) lower['content-type'] = 'application/json';
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(lower)) if (value !== null) responseHeaders[name] = value;
  return {
    request: { ...DEFAULT_REQUEST, ...request },
    response: { status, headers: responseHeaders, body: bytes, truncated: false },
    durationMs: 12,
  };
}

/** An exchange whose body went past the size cap. */
export function truncated(status: number, text: string): Exchange {
  const ex = exchange(status, raw(text));
  return { ...ex, response: { ...ex.response!, truncated: true } };
}

/** An exchange that ended in a transport failure: no response at all. */
export function failed(kind: TransportFailure = 'timeout', message = 'no complete answer within the request timeout'): Exchange {
  return { request: { ...DEFAULT_REQUEST }, failure: { kind, message }, durationMs: 10_000 };
}

/** A spec-faithful Error body. */
export function errorBody(status: number, code = 'bad_request', message = 'something is wrong'): Record<string, unknown> {
  return { code, message, status };
}

/** A spec-faithful Pet. */
export function pet(id: number | bigint, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, name: `pet ${String(id)}`, categoryId: 1, status: 'available', ...fields };
}

/** `count` Pets with ids from 1. */
export function pets(count: number, fields: Record<string, unknown> = {}): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => pet(i + 1, fields));
}

/** A spec-faithful Message body (§4.5). */
export function messageBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'msg_01', message: 'Hello, world', status: 'queued', createdAt: '2026-11-22T10:00:00Z', ...fields };
}
