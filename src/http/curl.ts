import type { SentRequest } from './exchange.ts';

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A header value may hold `$API_KEY` (or a `$(…)` built from it): those stay in double quotes. */
function headerArg(name: string, value: string): string {
  // curl drops `Name: ` with nothing after it; `Name;` is its form for an empty value.
  if (value === '') return shellQuote(`${name};`);
  if (/\$\{?API_KEY/.test(value)) return `"${name}: ${value}"`;
  return shellQuote(`${name}: ${value}`);
}

/** A copy-paste reproduction of a recorded request; the key is read from $API_KEY. */
export function curlLine(request: SentRequest): string {
  // curl -X HEAD would wait for the body a Content-Length announces; -I sends HEAD and reads none.
  const parts = request.method === 'HEAD' ? ['curl', '-sS', '-I', shellQuote(request.url)] : ['curl', '-sS', '-i', '-X', request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', headerArg(name, value));
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  return parts.join(' ');
}
