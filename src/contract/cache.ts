import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { BUILD_OUTPUTS, isFresh } from '../../bin/fresh.mjs';
import { PACKAGE_ROOT, fromPackage } from '../paths.ts';

/**
 * What `npm run build` parsed and validated once (the contract, the clause catalogue), each kept with
 * the digest of the text it came from, so a run skips swagger-parser and its OpenAPI schema. Used only
 * while the code that made it is as it was then (bin/fresh.mjs) and the text still has that digest.
 */
export const SPEC_CACHE = 'dist/spec-cache.json' as const;

export type SpecCache = Record<string, { sha256: string; value: unknown }>;

let entries: SpecCache | undefined;

export const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

export function cached<T>(name: string, text: string): T | undefined {
  if (!entries) {
    entries = {};
    try {
      if (isFresh(PACKAGE_ROOT, SPEC_CACHE, BUILD_OUTPUTS[SPEC_CACHE])) entries = JSON.parse(readFileSync(fromPackage(SPEC_CACHE), 'utf8')) as SpecCache;
    } catch {
      // An unreadable cache is no cache: the text is parsed and validated as without one.
    }
  }
  const entry = entries[name];
  return entry?.sha256 === digest(text) ? (entry.value as T) : undefined;
}
