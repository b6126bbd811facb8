#!/usr/bin/env node
// Bundles the CLI into dist/cli.js so the command runs on plain Node, without a TypeScript loader
// in the process (tsx there costs about 170 MB of RSS). Dependencies stay external.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/cli.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
