import { printfCommand } from './body-bytes.ts';
import { hasHeader, type SentRequest } from './exchange.ts';

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One shell word: as written where no character of it means anything to the shell, else quoted. */
export function shellWord(text: string): string {
  return /^[\w.,:/+-]+$/.test(text) ? text : shellQuote(text);
}

/**
 * A header value may hold `$API_KEY` (or a `$(…)` built from it), or be a gateway header's
 * `$HEADER_…` variable: those stay in double quotes, for the shell to fill in.
 */
function headerArg(name: string, value: string): string {
  // curl drops `Name: ` with nothing after it; `Name;` is its form for an empty value.
  if (value === '') return shellQuote(`${name};`);
  if (/\$\{?API_KEY/.test(value) || /^\$HEADER_[A-Z0-9_]+$/.test(value)) return `"${name}: ${value}"`;
  return shellQuote(`${name}: ${value}`);
}

/** Methods the client sends `Content-Length: 0` for when they carry no body; curl sends none. */
const PAYLOAD_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A copy-paste reproduction of a recorded request; the key is read from $API_KEY. `maxTimeMs`: the
 * wait the suite gave a request that went unanswered, so the pasted line gives up as it did.
 */
export function curlLine(request: SentRequest, maxTimeMs?: number): string {
  // curl -X HEAD would wait for the body a Content-Length announces; -I sends HEAD and reads none.
  const parts = request.method === 'HEAD' ? ['curl', '-sS', '-I', shellQuote(request.url)] : ['curl', '-sS', '-i', '-X', request.method, shellQuote(request.url)];
  if (maxTimeMs !== undefined) parts.splice(2, 0, '--max-time', String(Math.max(1, Math.ceil(maxTimeMs / 1000))));
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', headerArg(name, value));
  // curl sends Accept: */* of its own; `Accept:` takes it out, as the request had none.
  if (!hasHeader(request.headers, 'accept')) parts.push('-H', shellQuote('Accept:'));
  if (request.body !== undefined) {
    // With --data-binary and no Content-Type, curl would add application/x-www-form-urlencoded.
    if (!hasHeader(request.headers, 'content-type')) parts.push('-H', shellQuote('Content-Type:'));
    if (request.bodyHex === undefined) parts.push('--data-binary', shellQuote(request.body));
    else {
      // Bytes that are not UTF-8 come from printf on curl's stdin: a shell word holds no NUL, and sh has no $'…'.
      parts.push('--data-binary', '@-');
      parts.unshift(printfCommand(Buffer.from(request.bodyHex, 'hex')), '|');
    }
  } else if (PAYLOAD_METHODS.has(request.method) && !hasHeader(request.headers, 'content-length')) {
    parts.push('-H', shellQuote('Content-Length: 0'));
  }
  return parts.join(' ');
}
