import { errors as undiciErrors } from 'undici';
import type { TransportFailure } from './exchange.ts';

/** Response headers longer than this are a failure (curl's limit is 100 KiB; undici's default 16 KiB). */
export const MAX_HEADER_BYTES = 128 * 1024;

export function classify(error: unknown): { kind: TransportFailure; message: string } {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code ?? '';
  const message = (err.cause?.message ?? err.message ?? String(error)).split('\n')[0] ?? '';
  if (error instanceof NoAnswerInTime) return { kind: 'timeout', message: error.message };
  if (error instanceof NoHttpStatus) return { kind: 'malformed', message: error.message };
  // undici's ProxyAgent refuses a tunnel the proxy did not open with an error named AbortError.
  if (/^Proxy response \(\d{3}\)/.test(err.message ?? '')) return { kind: 'other', message: err.message };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return { kind: 'timeout', message: 'no complete answer within the request timeout' };
  }
  if (code === 'ECONNREFUSED') return { kind: 'refused', message };
  if (isUnaskedUpgrade(err)) return { kind: 'malformed', message: UNASKED_UPGRADE };
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') return { kind: 'headers-too-large', message: `the response headers are longer than ${MAX_HEADER_BYTES / 1024} KiB` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'dns', message };
  // undici's assertions name no cause of their own: what trips them is a status line it cannot take.
  if (code === 'ERR_ASSERTION') return { kind: 'malformed', message: 'not an HTTP/1.1 response (its head failed the HTTP client\'s own checks, as a status below 100 does)' };
  if (isMalformedAnswer(err, code)) return { kind: 'malformed', message: `not an HTTP/1.1 response (${code ? `${code}: ` : ''}${message.replace(/:$/, '')})` };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return { kind: 'reset', message };
  if (/CERT|SSL|TLS/i.test(code) || /certificate|TLS/i.test(message)) return { kind: 'tls', message: code && !message.includes(code) ? `${message} (${code})` : message };
  return { kind: 'other', message: code ? `${code}: ${message}` : message };
}

const UNASKED_UPGRADE =
  '101 Switching Protocols to a request that asked for no upgrade (RFC 9110 §15.2.2: a server must not switch to a protocol the request did not name in Upgrade), and the connection given up';

/** undici's error for a 101 to a request that carried no Upgrade: it gives the connection up. */
export function isUnaskedUpgrade(error: Error): boolean {
  return (error as NodeJS.ErrnoException).code === 'UND_ERR_SOCKET' && error.message === 'bad upgrade';
}

/**
 * What undici's HTTP/1.1 parser (llhttp's HPE_ codes) and its checks of what was parsed (two
 * Content-Lengths, or one its body does not match) throw: the origin answered, with something that is
 * not an HTTP/1.1 response. A status line of 000 trips an assertion, which classify names first.
 */
function isMalformedAnswer(error: Error, code: string): boolean {
  return error.name === 'HTTPParserError' || code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH';
}

/** The request's own deadline passed: what had come by then says which words fit (an interim 1xx has no body). */
export class NoAnswerInTime extends Error {
  override name = 'TimeoutError';
  constructor(timeoutMs: number, status: number) {
    super(
      status >= 200
        ? `the ${status} answer's body did not complete within ${timeoutMs} ms`
        : status
          ? `no final answer within ${timeoutMs} ms, only interim ${status} answers`
          : `no answer within ${timeoutMs} ms`,
    );
  }
}

/** A status line whose code is past 599: three digits, but no HTTP status (RFC 9110 §15). */
export class NoHttpStatus extends Error {
  constructor(status: number) {
    super(`not an HTTP/1.1 response (status ${status}: RFC 9110 §15 has status codes from 100 to 599)`);
  }
}
