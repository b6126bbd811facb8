#!/usr/bin/env node
// Bundles the CLI into dist/cli.js and the standalone reference server into dist/reference.js, so
// both run on plain Node, without a TypeScript loader in the process (tsx there costs about 170 MB
// of RSS, and CPU on every error stack it maps); the conformance tests into dist/tests/, so vitest
// loads a few plain modules instead of transforming every source file on each run; and parses and
// validates the contract once, into dist/spec-cache.json. Dependencies stay external. Last it writes
// dist/build-stamp.json: the digest of the sources each output was built from, taken before building,
// which bin/fresh.mjs compares with the sources as they are when a bundle is about to be used.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { STAMP, stampOf, writeStamp } from './fresh.mjs';

const from = (path) => new URL(path, import.meta.url).pathname;
const root = from('..');

// No output counts as fresh while the build runs, nor after one that fails half-way.
rmSync(from(`../${STAMP}`), { force: true });
const stamp = stampOf(root);

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: 'linked', logLevel: 'warning' };

await build({
  ...common,
  entryPoints: { cli: from('../src/cli.ts'), reference: from('../reference/cli.ts'), 'write-cache': from('../src/contract/write-cache.ts') },
  outdir: from('../dist'),
});

// One module per test file, the code they share in common chunks: one worker context for them all.
rmSync(from('../dist/tests'), { recursive: true, force: true });
await build({
  ...common,
  entryPoints: readdirSync(from('../tests')).filter((name) => name.endsWith('.test.ts') || name === 'sections.ts').map((name) => from(`../tests/${name}`)),
  outdir: from('../dist/tests'),
  splitting: true,
});

const { writeSpecCache } = await import(from('../dist/write-cache.js'));
await writeSpecCache();

writeStamp(root, stamp);
