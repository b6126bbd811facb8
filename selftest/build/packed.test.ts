// The package as a user installs it: what it ships must run on its own dependencies, with no build
// tool (tsx, esbuild) installed. The bundles' imports name its dependencies; then a fresh build is
// packed, installed from the tarball into an empty project (offline, from the npm cache that npm ci
// filled, at the versions of package-lock.json) and run there: --help, a real run against the embedded reference server, and, once a
// shipped source is edited, one line and exit 4 rather than checks from a stale bundle.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.ts';
import { tempDir } from '../support/temp-dir.ts';

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { files: string[]; dependencies: Record<string, string> };

const BUILD_TOOLS = ['tsx', 'esbuild', 'typescript'];

/** The packages a bundle imports (`node:` modules left out), by package name. */
function bundleImports(path: string): string[] {
  const code = readFileSync(path, 'utf8');
  const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)"([^".][^"]*)"/g)].map((m) => m[1]!);
  return specifiers.filter((s) => !s.startsWith('node:')).map((s) => s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/'));
}

/**
 * An empty project that depends on the tarball alone, with a lockfile of the versions this
 * repository's package-lock.json holds for the package's own dependencies (dev ones left out): npm
 * ci installs it offline from the tarballs npm ci put in the cache. An install without a lockfile
 * offline would need the registry's package listings, which npm ci never fetches.
 */
function lockedProject(project: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  const own = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string; bin: unknown; engines: unknown; license: string };
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'app', dependencies: { 'animal-store-conformance': spec } },
    'node_modules/animal-store-conformance': { version: own.version, resolved: spec, dependencies: manifest.dependencies, bin: own.bin, engines: own.engines, license: own.license },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && !entry.dev && !entry.devOptional) packages[path] = entry;
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'app', private: true, dependencies: { 'animal-store-conformance': spec } }, null, 2)}\n`);
  writeFileSync(join(project, 'package-lock.json'), `${JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

describe('the package a user installs', () => {
  it('depends on what its bundles import, and on no build tool', () => {
    const dist = join(PACKAGE_ROOT, 'dist');
    const bundles = [join(dist, 'cli.js'), join(dist, 'reference.js'), ...readdirSync(join(dist, 'tests')).filter((n) => n.endsWith('.js')).map((n) => join(dist, 'tests', n))];
    const imported = new Set(bundles.flatMap(bundleImports));
    expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies).sort());
    expect(Object.keys(manifest.dependencies).filter((name) => BUILD_TOOLS.includes(name))).toEqual([]);
  });

  it('installs from its tarball without tsx or esbuild and runs from its dist/: --help, a run, and a refusal once its sources are edited', (context) => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: 'true', ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}) };
    const run = (cwd: string, command: string, args: string[], timeout = 60_000): SpawnSyncReturns<string> => spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout });
    const ok = (result: SpawnSyncReturns<string>, what: string) => expect(result.status, `${what}: ${result.stderr}`).toBe(0);

    // A copy, built there: building in place would pull dist/ from under CLI tests running beside this one.
    const copy = tempDir('packed-src-');
    for (const name of [...manifest.files, 'package.json']) if (existsSync(join(PACKAGE_ROOT, name))) cpSync(join(PACKAGE_ROOT, name), join(copy, name), { recursive: true });
    symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    ok(run(copy, process.execPath, ['bin/build.mjs']), 'npm run build');
    const packs = tempDir('packed-tgz-');
    ok(run(copy, 'npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packs]), 'npm pack');
    const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);

    const project = tempDir('packed-app-');
    lockedProject(project, tarball);
    const install = run(project, 'npm', ['ci', '--offline', '--no-audit', '--no-fund'], 120_000);
    if (install.status !== 0 && /ENOTCACHED/.test(install.stderr)) {
      console.warn('packed: skipped, the npm cache lacks a package of package-lock.json and this test installs offline (npm ci fills the cache)');
      context.skip();
    }
    ok(install, 'npm ci of the tarball');
    const modules = join(project, 'node_modules');
    expect(BUILD_TOOLS.filter((name) => existsSync(join(modules, name)))).toEqual([]);
    expect(existsSync(join(modules, '@esbuild'))).toBe(false);

    const help = run(project, 'npx', ['--no', '--', 'animal-store-conformance', '--help']);
    ok(help, '--help');
    expect(help.stdout).toContain('Usage: animal-store-conformance');

    const reports = join(project, 'reports');
    mkdirSync(reports);
    const conformance = run(project, 'npx', ['--no', '--', 'animal-store-conformance', '--runs', '5', '--seed', '1', '--reports', reports], 120_000);
    ok(conformance, 'a run against the embedded reference server');
    expect(conformance.stdout).toContain('embedded reference server');
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { verdict: string; summary: { pass: number; fail: number } };
    expect(report.verdict).toBe('pass');
    expect(report.summary.pass).toBeGreaterThan(0);

    // An edited source makes dist/cli.js stale, and nothing here can run the sources.
    appendFileSync(join(modules, 'animal-store-conformance/src/cli/help.ts'), '// edited\n');
    const stale = run(project, 'npx', ['--no', '--', 'animal-store-conformance', '--help']);
    expect(stale.status).toBe(4);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toMatch(/^animal-store-conformance: dist\/cli\.js is missing or was built from other sources than those beside it, and tsx, which runs the sources, is not installed/);
  }, 300_000);
});
