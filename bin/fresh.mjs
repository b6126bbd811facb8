import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** The oldest modification time of a file, or of the files in a folder tree (Infinity: none). */
function oldest(path) {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  return readdirSync(path).reduce((found, name) => Math.min(found, oldest(join(path, name))), Infinity);
}

/** The newest modification time in a tree, its folders' own counted (removing a file changes only its folder's). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((found, name) => Math.max(found, newest(join(path, name))), stat.mtimeMs);
}

/**
 * What each bundle of bin/build.mjs is built from (folders or files, relative to the package folder);
 * selftest/build/bundle-sources.test.ts holds these to the source maps the build writes.
 */
export const BUNDLE_SOURCES = {
  cli: ['src', 'reference', 'bin/fresh.mjs'],
  reference: ['reference'],
  tests: ['tests', 'src', 'generators'],
};

/**
 * Whether a build output in the package folder `root` (a file, or a folder whose every file counts)
 * is at least as new as the folders it was built from. A published package sets every mtime alike,
 * so it counts as fresh there. CONFORMANCE_FROM_SOURCES=1 makes every output stale.
 */
export function isFresh(root, output, sourceDirs) {
  if (process.env.CONFORMANCE_FROM_SOURCES) return false;
  const built = join(root, output);
  if (!existsSync(built)) return false;
  const builtAt = oldest(built);
  return builtAt !== Infinity && builtAt >= Math.max(...sourceDirs.map((dir) => newest(join(root, dir))));
}

/**
 * The bundle dist/NAME.js (npm run build, run on install) when it is fresh; else undefined, and the
 * caller runs the sources through tsx, so an edit takes effect without a build.
 */
export function freshBundle(name) {
  return isFresh(here('..'), `dist/${name}.js`, BUNDLE_SOURCES[name]) ? here(`../dist/${name}.js`) : undefined;
}
