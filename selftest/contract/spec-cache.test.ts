import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, isFresh } from '../../bin/fresh.mjs';
import { cached, digest, SPEC_CACHE } from '../../src/contract/cache.ts';
import { CLAUSES_PATH, loadClauses, parseClauses } from '../../src/contract/clauses.ts';
import { DEFAULT_SPEC_PATH, loadContract, parseContract } from '../../src/contract/load.ts';
import { PACKAGE_ROOT, fromPackage } from '../../src/paths.ts';

describe('the spec cache the build writes (dist/spec-cache.json)', () => {
  const openapi = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
  const clauses = readFileSync(CLAUSES_PATH, 'utf8');

  // After `npm run build` (npm ci runs it); between an edit of src/contract and the next build the cache is stale, and unused.
  const fresh = isFresh(PACKAGE_ROOT, SPEC_CACHE, BUILD_OUTPUTS[SPEC_CACHE]);

  it.skipIf(fresh)('is not used while the code that made it has changed since', () => {
    expect(cached('contract', openapi)).toBeUndefined();
  });

  it.runIf(fresh)('holds exactly what parsing and validating the spec gives', async () => {
    const cache = JSON.parse(readFileSync(fromPackage(SPEC_CACHE), 'utf8')) as Record<string, { sha256: string; value: unknown }>;
    expect(cache.contract?.sha256).toBe(digest(openapi));
    expect(cache.contract?.value).toStrictEqual(await parseContract(openapi));
    expect(cache.clauses?.value).toStrictEqual(parseClauses(clauses));
    expect(await loadContract()).toStrictEqual(cache.contract?.value);
    expect(loadClauses()).toStrictEqual(cache.clauses?.value);
  });

  it.runIf(fresh)('answers only for the text it was made from', () => {
    expect(cached('contract', openapi)).toBeDefined();
    expect(cached('contract', `${openapi}\n# edited`)).toBeUndefined();
    expect(cached('clauses', clauses.replace('MUST', 'SHOULD'))).toBeUndefined();
    expect(cached('nothing', openapi)).toBeUndefined();
  });
});
