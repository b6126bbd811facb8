import { UsageError } from '../errors.ts';
import { INT64_MAX, INT64_MIN } from '../json/lossless.ts';

/** `setting` names where a value came from, as errors show it: `--runs`, `RUNS (environment)`, `RUNS (.env)`. */
export function integer(setting: string, text: string | undefined, fallback: number, min: number, max: number): number {
  // An empty variable is unset (a CI template's blank); an empty flag (`--runs ''`) is a typo, said as one.
  if (text === '' && setting.startsWith('--')) throw new UsageError(`${setting}: expected a whole number, got nothing`);
  if (text === undefined || text === '') return fallback;
  if (!/^-?\d+$/.test(text.trim())) throw new UsageError(`${setting}: expected a whole number, got ${JSON.stringify(text)}`);
  const value = Number(text);
  if (value < min || value > max) throw new UsageError(`${setting}: expected ${min} to ${max}, got ${value}`);
  return value;
}

/** --category-ids: int64 decimals separated by commas, each once; empty means unset. */
export function categoryIds(setting: string, text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return [];
  const ids = new Set<string>();
  for (const item of text.split(',').map((part) => part.trim())) {
    if (!/^-?\d+$/.test(item)) throw new UsageError(`${setting}: expected integers separated by commas (e.g. 1,2,5), got ${JSON.stringify(text)}`);
    const id = BigInt(item);
    if (id < INT64_MIN || id > INT64_MAX) throw new UsageError(`${setting}: ${item} is not an int64 (§2.2)`);
    ids.add(id.toString());
  }
  return [...ids];
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export function isLoopbackUrl(url: string): boolean {
  return isLoopback(new URL(url).hostname);
}

export function baseUrl(setting: string, text: string | undefined, allowInsecure: boolean, forMessages: boolean): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`${setting}: ${JSON.stringify(text)} is not a URL (expected e.g. https://api.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${setting}: only http:// and https:// URLs are supported, got ${url.protocol}`);
  if (url.search || url.hash) throw new UsageError(`${setting}: a base URL takes no query or fragment`);
  if (url.username || url.password) throw new UsageError(`${setting}: put no credentials in the URL; use API_KEY`);
  const path = url.pathname.replace(/\/+$/, '');
  if (!forMessages && /\/v1$/i.test(path)) throw new UsageError(`${setting}: leave /v1 off the base URL (the suite adds it): use ${url.origin}${path.slice(0, -3)}`);
  if (forMessages && /\/messages$/i.test(path)) throw new UsageError(`${setting}: leave /messages off (the suite adds it)`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecure) {
    throw new UsageError(`${setting}: refusing to send the API key over plain http:// to ${url.hostname}; use https:// or --allow-insecure-http`);
  }
  return `${url.origin}${path}`;
}

export function list(value: string | boolean | string[] | undefined): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return items.flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean);
}

/** --shard i/n: the i-th (1-based) of n shares of a run; empty means unsharded. */
export function shard(setting: string, text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > 256 || index < 1 || index > count) throw new UsageError(`${setting}: expected i/n with 1 <= i <= n <= 256 (e.g. 2/4), got ${JSON.stringify(text)}`);
  return { index, count };
}
