// A bundle counts as fresh while what BUNDLE_SOURCES names is as it was built from (bin/fresh.mjs). Every
// source the build put into a bundle, as its source map lists them, must lie under one of those
// names, or an edit to it would leave the old copy running. (npm ci builds dist/: prepare.)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_SOURCES } from '../../bin/fresh.mjs';
import { PACKAGE_ROOT } from '../../src/paths.ts';

const DIST = join(PACKAGE_ROOT, 'dist');

/** The package's own files a bundle was built from (node_modules left out), relative to the package. */
function bundledSources(maps: string[]): string[] {
  const sources = new Set<string>();
  for (const map of maps) {
    const { sources: listed } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
    for (const source of listed) {
      const path = relative(PACKAGE_ROOT, resolve(join(map, '..'), source));
      if (!path.split('/').includes('node_modules')) sources.add(path);
    }
  }
  return [...sources];
}

const covered = (path: string, names: string[]) => names.some((name) => path === name || path.startsWith(`${name}/`));

const bundles: [keyof typeof BUNDLE_SOURCES, () => string[]][] = [
  ['cli', () => [join(DIST, 'cli.js.map')]],
  ['reference', () => [join(DIST, 'reference.js.map')]],
  ['tests', () => readdirSync(join(DIST, 'tests')).filter((name) => name.endsWith('.js.map')).map((name) => join(DIST, 'tests', name))],
];

describe('BUNDLE_SOURCES against the source maps of npm run build', () => {
  it.each(bundles)('%s: every bundled source is one whose edit makes the bundle stale', (name, maps) => {
    const sources = bundledSources(maps());
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((path) => !covered(path, BUNDLE_SOURCES[name]))).toEqual([]);
  });

  it('the CLI bundle holds bin/fresh.mjs, and counts it', () => {
    expect(bundledSources([join(DIST, 'cli.js.map')])).toContain('bin/fresh.mjs');
    expect(covered('bin/fresh.mjs', BUNDLE_SOURCES.cli)).toBe(true);
  });
});
