import { curlLine } from '../http/curl.ts';
import type { Exchange } from '../http/exchange.ts';
import type { Evidence, FailureEvidence } from '../report/model.ts';

const EXCERPT_BYTES = 2048;

/** The recorded exchange as reports show it: request, a body excerpt, and the curl line. */
export function evidenceOf(exchange: Exchange): Evidence {
  const evidence: Evidence = { request: exchange.request, curl: curlLine(exchange.request, exchange.failure?.kind === 'timeout' ? exchange.timeoutMs : undefined) };
  const response = exchange.response;
  if (response) {
    evidence.response = {
      status: response.status,
      headers: response.headers,
      bodyExcerpt: response.body.subarray(0, EXCERPT_BYTES).toString('utf8'),
      bodyTruncated: response.truncated || response.body.length > EXCERPT_BYTES,
    };
  }
  if (exchange.failure) evidence.transportError = `${exchange.failure.kind}: ${exchange.failure.message}`;
  return evidence;
}

/** The operation an exchange was sent to: its operationId, else its method and path. */
export function operationOf(exchange: Exchange): string {
  if (exchange.operationId) return exchange.operationId;
  let path = exchange.request.url;
  try {
    path = new URL(exchange.request.url).pathname;
  } catch {
    // Not a URL the suite could parse: shown as it was sent.
  }
  return `${exchange.request.method} ${path}`;
}

/** One failing verdict on an exchange, as reports show it. */
export function failureOf(exchange: Exchange, verdict: { expected: string; actual: string }): FailureEvidence {
  return { operation: operationOf(exchange), expected: verdict.expected, actual: verdict.actual, evidence: evidenceOf(exchange) };
}
