import { curlLine } from '../http/curl.ts';
import type { Exchange } from '../http/exchange.ts';
import type { Evidence } from '../report/model.ts';

const EXCERPT_BYTES = 2048;

/** The recorded exchange as reports show it: request, a body excerpt, and the curl line. */
export function evidenceOf(exchange: Exchange): Evidence {
  const evidence: Evidence = { request: exchange.request, curl: curlLine(exchange.request) };
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
