import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';
import type { ReceivedResponse } from './exchange.ts';

/** The content codings a response's Content-Encoding names, in the order they were applied; identity left out. */
export function contentCodings(response: ReceivedResponse): string[] {
  return (response.headers['content-encoding'] ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

function decode(coding: string, body: Buffer, options: ZlibOptions): Buffer | undefined {
  if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(body, options);
  if (coding === 'br') return brotliDecompressSync(body, options);
  if (coding !== 'deflate') return undefined;
  // RFC 9110 §8.4.1.2 means the zlib format; some servers send raw deflate under the name.
  try {
    return inflateSync(body, options);
  } catch {
    return inflateRawSync(body, options);
  }
}

/**
 * The body as it was before the content codings its Content-Encoding names (RFC 9110 §8.4), so the
 * answer is judged on what the server meant, whether or not the request accepted the coding (a
 * check of its own warns where it did not). At most `maxBytes` decoded: past them it is cut, as a
 * body past the cap is. A coding it does not know, or bytes that do not decode, leave it as it came.
 */
export function decodedResponse(response: ReceivedResponse, maxBytes: number): ReceivedResponse {
  const codings = contentCodings(response);
  if (codings.length === 0 || response.truncated || response.body.length === 0) return response;
  let body = response.body;
  let coding = '';
  try {
    for (coding of codings.reverse()) {
      const decoded = decode(coding, body, { maxOutputLength: maxBytes });
      if (decoded === undefined) return response;
      body = decoded;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { ...response, body: Buffer.alloc(0), truncated: true };
    return { ...response, undecodable: `body does not decode as the ${coding} its Content-Encoding names (${(error as Error).message})` };
  }
  return { ...response, body };
}
