import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * What each bundle of bin/build.mjs is built from (folders or files, relative to the package folder);
 * selftest/build/bundle-sources.test.ts holds these to the source maps the build writes.
 */
export const BUNDLE_SOURCES = {
  cli: ['src', 'reference', 'bin/fresh.mjs'],
  reference: ['reference'],
  tests: ['tests', 'src', 'generators'],
};

/** Every output the build stamps, with what it is built from. */
export const BUILD_OUTPUTS = {
  'dist/cli.js': BUNDLE_SOURCES.cli,
  'dist/reference.js': BUNDLE_SOURCES.reference,
  'dist/tests': BUNDLE_SOURCES.tests,
  'dist/spec-cache.json': ['src/contract'],
};

/** Where the build writes, for each output, the digest of the sources it was built from. */
export const STAMP = 'dist/build-stamp.json';

/** The files under a source (a file, or a folder tree), relative to `root` with `/` between parts. */
function filesOf(root, source) {
  const path = join(root, source);
  if (!statSync(path).isDirectory()) return [source];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** The sha256 of one source (a file, or a folder tree): every file's path and content, in path order. */
function digestOf(root, source) {
  const hash = createHash('sha256');
  for (const file of filesOf(root, source).sort()) {
    const content = readFileSync(join(root, file));
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

/**
 * Source digests kept once taken, by path, in a process a launcher started (freshBundle sets it up):
 * there the CLI checks dist/cli.js from the launcher's copy of this module, then dist/tests from the
 * copy bundled into dist/cli.js, and would read src/ twice; the run goes by the sources as they were
 * when it began. Elsewhere (npm test edits sources between checks) every check reads them anew.
 */
const DIGESTS = Symbol.for('animal-store-conformance.source-digests');

/**
 * The sha256 of the sources under `root` (folders or files): every file's path and content, so an
 * edit, a new file or a removed one changes it, whatever the files' mtimes say.
 */
export function sourceDigest(root, sources, digests = globalThis[DIGESTS]) {
  const hash = createHash('sha256');
  for (const source of sources) {
    const key = join(root, source);
    const digest = digests?.get(key) ?? digestOf(root, source);
    digests?.set(key, digest);
    hash.update(`${source}\0${digest}\0`);
  }
  return hash.digest('hex');
}

/** What the build records for its outputs: each one's sources and their digest (taken before it builds). */
export function stampOf(root, outputs = BUILD_OUTPUTS) {
  const digests = new Map();
  return Object.fromEntries(Object.entries(outputs).map(([output, sources]) => [output, { sources, sha256: sourceDigest(root, sources, digests) }]));
}

export function writeStamp(root, stamp) {
  writeFileSync(join(root, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
}

/** Whether a build output exists and holds something: a file, or a folder with a file in it. */
function built(path) {
  if (!statSync(path).isDirectory()) return true;
  return readdirSync(path, { recursive: true, withFileTypes: true }).some((entry) => !entry.isDirectory());
}

/**
 * Whether a build output in the package folder `root` (a file, or a folder) was built from the sources
 * as they are now: the build's stamp (STAMP) holds for it the digest of `sources` as they were then.
 * Content, not mtimes: a packed or copied package can give every file one mtime, and a dist/ built
 * from older sources must not count as fresh there. A missing output, stamp or source makes it stale,
 * and so does CONFORMANCE_FROM_SOURCES=1.
 */
export function isFresh(root, output, sources) {
  if (process.env.CONFORMANCE_FROM_SOURCES) return false;
  try {
    if (!built(join(root, output))) return false;
    const stamp = JSON.parse(readFileSync(join(root, STAMP), 'utf8'));
    const sha256 = stamp?.[output]?.sha256;
    return typeof sha256 === 'string' && sha256 === sourceDigest(root, sources);
  } catch {
    return false;
  }
}

/**
 * The bundle dist/NAME.js (npm run build: run by npm ci in a clone, shipped in the package) when it is
 * fresh; else undefined, and the caller runs the sources through tsx (from-sources.mjs), so an edit in
 * a clone takes effect without a build. Neither needs esbuild.
 */
export function freshBundle(name) {
  globalThis[DIGESTS] ??= new Map();
  return isFresh(here('..'), `dist/${name}.js`, BUNDLE_SOURCES[name]) ? here(`../dist/${name}.js`) : undefined;
}
