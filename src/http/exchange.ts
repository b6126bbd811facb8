import type { TopLevel } from '../json/bounds.ts';
import { isJsonObject, parseJsonCounted, JsonBoundsError, JsonDecodeError, type JsonValue } from '../json/lossless.ts';

/** What was sent, as it may be shown: the key never appears, only `$API_KEY`. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The body's bytes in hex, only where they are not UTF-8: `body` then writes each byte outside UTF-8 as `\xHH` (src/http/body-bytes.ts). */
  bodyHex?: string;
}

export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body was longer than the cap and was abandoned there. */
  truncated: boolean;
  /** Why the body, kept as it came, does not decode under the content coding its Content-Encoding names. */
  undecodable?: string;
}

/** `malformed`: the origin answered, with bytes that are not an HTTP/1.1 response (src/http/transport-failure.ts). */
export type TransportFailure =
  | 'timeout'
  | 'reset'
  | 'refused'
  | 'dns'
  | 'tls'
  | 'body-too-large'
  | 'headers-too-large'
  | 'malformed'
  | 'not-sent'
  | 'cut-short'
  | 'lost-kept-alive'
  | 'left-out'
  | 'other';

/**
 * A request the suite chose not to send (`not-sent`), sent with less than the full timeout and had no
 * answer within it (`cut-short`), or lost as the origin closed the idle connection it went out on
 * (`lost-kept-alive`, a request sent once only: see src/http/dispatch.ts lossOf), or to an operation the settings
 * leave out (`left-out`, --skip createPet): evidence of nothing, for or against any clause.
 */
export function isNoEvidence(exchange: Exchange): boolean {
  const kind = exchange.failure?.kind;
  return kind === 'not-sent' || kind === 'cut-short' || kind === 'lost-kept-alive' || kind === 'left-out';
}

/** One request and what came of it. */
export interface Exchange {
  /** The contract operation the request was sent to, when the suite knows it. */
  operationId?: string;
  request: SentRequest;
  response?: ReceivedResponse;
  failure?: { kind: TransportFailure; message: string };
  durationMs: number;
  /** When (ms since the epoch) the request that got this answer went out, where the suite sent it for an operation (src/suite/request.ts). */
  sentAt?: number;
  /** The wait the request was given, when it went unanswered within it. */
  timeoutMs?: number;
  /**
   * Set after the fact, when more came on the connection after this answer with no request on it,
   * within a second (src/http/dispatch.ts): how long after, and the connection's last bytes. Judged
   * by http.one-answer.
   */
  answeredAgain?: { afterMs: number; lastBytes: string };
  /**
   * A 503 without Retry-After the client took for a limit on the rate it could neither wait out nor
   * rest for, its rests spent (src/http/rest-gate.ts): judged as a 429 is, a rate limit (§8).
   */
  heldAsLimit?: true;
  /**
   * A 503 with Retry-After that waiting it out did not cure, sent once more after a rest of the whole
   * client and refused then too (or its operation's was): the operation's own answer, an outage, and
   * judged as any 5xx is, not as a limit on the rate.
   */
  unavailableRested?: true;
}

/**
 * `names`: how many names the text writes (more than `value` holds where one repeats). The decoded
 * text is not kept: a body may be megabytes of padding, and exchanges live as long as their scenario.
 */
export type ParsedBody = { ok: true; value: JsonValue; names: number } | { ok: false; problem: string; pastBound?: { top?: TopLevel } };

const PARSED = Symbol('parsed body');

/** The response body as lossless JSON, parsed at most once per exchange. */
export function jsonBody(exchange: Exchange): ParsedBody {
  const holder = exchange as Exchange & { [PARSED]?: ParsedBody };
  const cached = holder[PARSED];
  if (cached) return cached;
  let result: ParsedBody;
  const response = exchange.response;
  if (!response) result = { ok: false, problem: 'no response' };
  else if (response.truncated) result = { ok: false, problem: `body larger than the ${response.body.length}-byte cap` };
  else if (response.body.length === 0) result = { ok: false, problem: 'empty body' };
  else if (response.undecodable) result = { ok: false, problem: response.undecodable };
  else {
    try {
      result = { ok: true, ...parseJsonCounted(response.body) };
    } catch (error) {
      if (!(error instanceof JsonDecodeError)) throw error;
      result = { ok: false, problem: error.message, ...(error instanceof JsonBoundsError ? { pastBound: error.top ? { top: error.top } : {} } : {}) };
    }
  }
  holder[PARSED] = result;
  return result;
}

/** The response body when it is a JSON object (not an array, not null), else undefined. */
export function jsonObject(exchange: Exchange): Record<string, unknown> | undefined {
  const body = jsonBody(exchange);
  return body.ok && isJsonObject(body.value) ? body.value : undefined;
}

export function header(exchange: Exchange, name: string): string | undefined {
  return exchange.response?.headers[name.toLowerCase()];
}

/** Whether request headers as written (any case) hold `name` (lower case). */
export function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((written) => written.toLowerCase() === name);
}

/** A short account of what came back, for an Actual line. */
export function describeResponse(exchange: Exchange, maxBody = 300): string {
  if (exchange.failure) return `no usable response (${exchange.failure.kind}: ${exchange.failure.message})`;
  const response = exchange.response;
  if (!response) return 'no response';
  const text = response.body.subarray(0, maxBody).toString('utf8');
  const more = response.body.length > maxBody || response.truncated ? '…' : '';
  return `${response.status}${text ? ` ${text}${more}` : ' (empty body)'}`;
}
