// A bundle in dist/ is used only while the sources it was built from are unchanged: the build stamps
// each output with the digest of its sources (dist/build-stamp.json), and bin/fresh.mjs compares that
// with the sources as they are. Content, not mtimes: `npm pack` (1985-10-26 for every file) or a copy
// that flattens mtimes must not make a dist/ built from older sources count as fresh.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, isFresh, STAMP, stampOf, writeStamp } from '../../bin/fresh.mjs';
import { PACKAGE_ROOT } from '../../src/paths.ts';
import { tempDir } from '../support/temp-dir.ts';

/** What `npm pack` gives every file and folder of a tarball. */
const PACKED = new Date('1985-10-26T08:15:00Z');

/** Gives every file and folder under `path` one mtime, as a packed or flattened copy does (symbolic links, node_modules here, left alone). */
function flatten(path: string, at = PACKED): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) for (const name of readdirSync(path)) flatten(join(path, name), at);
  utimesSync(path, at, at);
}

/** An edit that keeps the file's size and mtime: only its content tells. */
function editInPlace(path: string): void {
  const { atime, mtime } = statSync(path);
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text.replace(/.$/s, text.endsWith('x') ? 'y' : 'x'));
  utimesSync(path, atime, mtime);
}

describe('isFresh: a build output against the digest of the sources it was built from', () => {
  /** A package folder whose dist/tests was built (stamped) from src. */
  function built(): string {
    const root = tempDir('fresh-');
    mkdirSync(join(root, 'src/deep'), { recursive: true });
    mkdirSync(join(root, 'dist/tests'), { recursive: true });
    for (const [path, text] of [['src/a.ts', 'export const a = 1;\n'], ['src/deep/b.ts', 'export const b = 2;\n'], ['dist/tests/one.js', '1'], ['dist/tests/two.js', '2']] as const) writeFileSync(join(root, path), text);
    writeStamp(root, stampOf(root, { 'dist/tests': ['src'] }));
    return root;
  }

  it('is fresh after the build, whatever the mtimes: older outputs, or every mtime alike', () => {
    const root = built();
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(true);
    utimesSync(join(root, 'dist/tests/one.js'), PACKED, PACKED);
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(true);
    flatten(root);
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(true);
  });

  it('is stale after a source edit, however deep, even with every mtime made equal', () => {
    const root = built();
    flatten(root);
    appendFileSync(join(root, 'src/deep/b.ts'), '// edited\n');
    flatten(root);
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(false);
  });

  it('is stale after an edit that keeps the size and the mtime of the file', () => {
    const root = built();
    editInPlace(join(root, 'src/a.ts'));
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(false);
  });

  it('is stale once a source file is added, removed or renamed', () => {
    const added = built();
    writeFileSync(join(added, 'src/deep/c.ts'), '');
    expect(isFresh(added, 'dist/tests', ['src'])).toBe(false);
    const removed = built();
    rmSync(join(removed, 'src/deep/b.ts'));
    expect(isFresh(removed, 'dist/tests', ['src'])).toBe(false);
    const renamed = built();
    cpSync(join(renamed, 'src/deep/b.ts'), join(renamed, 'src/deep/c.ts'));
    rmSync(join(renamed, 'src/deep/b.ts'));
    expect(isFresh(renamed, 'dist/tests', ['src'])).toBe(false);
  });

  it('is fresh again once rebuilt', () => {
    const root = built();
    appendFileSync(join(root, 'src/a.ts'), '// edited\n');
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(false);
    writeStamp(root, stampOf(root, { 'dist/tests': ['src'] }));
    flatten(root);
    expect(isFresh(root, 'dist/tests', ['src'])).toBe(true);
  });

  it('is stale when the output, its files, the stamp or its entry is missing, the sources differ, or CONFORMANCE_FROM_SOURCES is set', () => {
    const root = built();
    expect(isFresh(root, 'dist/none.js', ['src'])).toBe(false);
    expect(isFresh(root, 'dist/tests', ['src', 'none'])).toBe(false);
    expect(isFresh(root, 'dist/tests', ['src/deep'])).toBe(false);
    process.env.CONFORMANCE_FROM_SOURCES = '1';
    try {
      expect(isFresh(root, 'dist/tests', ['src'])).toBe(false);
    } finally {
      delete process.env.CONFORMANCE_FROM_SOURCES;
    }
    const unnamed = built();
    writeStamp(unnamed, stampOf(unnamed, { 'dist/other': ['src'] }));
    expect(isFresh(unnamed, 'dist/tests', ['src'])).toBe(false);
    writeFileSync(join(unnamed, STAMP), 'not json');
    expect(isFresh(unnamed, 'dist/tests', ['src'])).toBe(false);
    rmSync(join(unnamed, STAMP));
    expect(isFresh(unnamed, 'dist/tests', ['src'])).toBe(false);
    const empty = built();
    for (const name of ['one.js', 'two.js']) rmSync(join(empty, 'dist/tests', name));
    expect(isFresh(empty, 'dist/tests', ['src'])).toBe(false);
  });
});

describe('npm run build in a copy of the package, its mtimes flattened as npm pack does', () => {
  const run = (root: string, args: string[]) => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    const child = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
    expect(child.status, `${args.join(' ')}: ${child.stderr}`).toBe(0);
    return child.stdout;
  };
  const freshness = (root: string) => Object.fromEntries(Object.entries(BUILD_OUTPUTS).map(([output, sources]) => [output, isFresh(root, output, sources)]));
  const everyOutput = (fresh: boolean) => Object.fromEntries(Object.keys(BUILD_OUTPUTS).map((output) => [output, fresh]));

  it('counts every output fresh after the build, stale after a source edit, fresh again after a rebuild; the stale CLI bundle is not run', () => {
    const root = tempDir('fresh-package-');
    for (const name of ['bin', 'src', 'reference', 'tests', 'generators', 'spec', 'package.json', 'tsconfig.json']) cpSync(join(PACKAGE_ROOT, name), join(root, name), { recursive: true });
    symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');

    run(root, ['bin/build.mjs']);
    flatten(root);
    expect(freshness(root)).toEqual(everyOutput(true));

    // An edit the user would see: the CLI's --help. dist/ still holds the bundles of the old text.
    const cli = join(root, 'src/cli/help.ts');
    writeFileSync(cli, readFileSync(cli, 'utf8').replace("'Checks a deployment of the Animal Store Service", "'Checks (edited) a deployment of the Animal Store Service"));
    flatten(root);
    expect(freshness(root)).toEqual({ ...everyOutput(true), 'dist/cli.js': false, 'dist/tests': false });
    expect(run(root, ['bin/animal-store-conformance.mjs', '--help'])).toContain('Checks (edited) a deployment');

    run(root, ['bin/build.mjs']);
    flatten(root);
    expect(freshness(root)).toEqual(everyOutput(true));
    expect(readFileSync(join(root, 'dist/cli.js'), 'utf8')).toContain('Checks (edited) a deployment');
    expect(run(root, ['bin/animal-store-conformance.mjs', '--help'])).toContain('Checks (edited) a deployment');
  });
});
