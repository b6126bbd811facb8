#!/usr/bin/env node
// Bundles the CLI into dist/cli.js and the standalone reference server into dist/reference.js, so
// both run on plain Node, without a TypeScript loader in the process (tsx there costs about 170 MB
// of RSS, and CPU on every error stack it maps). Dependencies stay external.
import { build } from 'esbuild';

const from = (path) => new URL(path, import.meta.url).pathname;

await build({
  entryPoints: { cli: from('../src/cli.ts'), reference: from('../reference/cli.ts') },
  outdir: from('../dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
