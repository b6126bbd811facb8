import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isFresh } from '../../bin/fresh.mjs';
import { cached, digest, SPEC_CACHE } from '../../src/contract/cache.ts';
import { CLAUSES_PATH, loadClauses, parseClauses } from '../../src/contract/clauses.ts';
import { DEFAULT_SPEC_PATH, loadContract, parseContract } from '../../src/contract/load.ts';
import { PACKAGE_ROOT, fromPackage } from '../../src/paths.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('the spec cache the build writes (dist/spec-cache.json)', () => {
  const openapi = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
  const clauses = readFileSync(CLAUSES_PATH, 'utf8');

  // After `npm run build` (npm ci runs it); between an edit of src/contract and the next build the cache is stale, and unused.
  const fresh = isFresh(PACKAGE_ROOT, SPEC_CACHE, ['src/contract']);

  it.skipIf(fresh)('is not used while it is older than the code that made it', () => {
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

describe('isFresh: a build output against the folders it was built from', () => {
  function tree(outputAge: number, sourceAge: number): string {
    const root = tempDir('fresh-');
    mkdirSync(join(root, 'src/deep'), { recursive: true });
    mkdirSync(join(root, 'dist/tests'), { recursive: true });
    const now = Date.now() / 1000;
    for (const [path, age] of [['src/a.ts', 100], ['src/deep/b.ts', sourceAge], ['dist/tests/one.js', 50], ['dist/tests/two.js', outputAge]] as const) {
      writeFileSync(join(root, path), '');
      utimesSync(join(root, path), now - age, now - age);
    }
    for (const folder of ['src', 'src/deep', 'dist', 'dist/tests']) utimesSync(join(root, folder), now - 100, now - 100);
    return root;
  }

  it('is fresh when every output file is at least as new as the newest source', () => {
    expect(isFresh(tree(60, 70), 'dist/tests', ['src'])).toBe(true);
  });

  it('is stale when one source, however deep, is newer than the oldest output file', () => {
    expect(isFresh(tree(60, 10), 'dist/tests', ['src'])).toBe(false);
    expect(isFresh(tree(80, 70), 'dist/tests', ['src'])).toBe(false);
  });

  it('is stale once a source file is removed (only its folder shows it)', () => {
    const root = tree(60, 70);
    rmSync(join(root, 'src/deep/b.ts'));
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(false);
  });

  it('is stale when the output folder holds no file', () => {
    const root = tree(60, 70);
    for (const name of ['one.js', 'two.js']) rmSync(join(root, 'dist/tests', name));
    utimesSync(join(root, 'dist/tests'), Date.now() / 1000, Date.now() / 1000);
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(false);
  });

  it('is stale when the output is missing, or CONFORMANCE_FROM_SOURCES is set', () => {
    const root = tree(60, 70);
    expect(isFresh(root, 'dist/none.js', ['src'])).toBe(false);
    process.env.CONFORMANCE_FROM_SOURCES = '1';
    try {
      expect(isFresh(root, 'dist/tests', ['src'])).toBe(false);
    } finally {
      delete process.env.CONFORMANCE_FROM_SOURCES;
    }
  });
});
