#!/usr/bin/env node
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A closed pipe (`| head`) ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const bundle = here('../dist/cli.js');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

// The bundle (npm run build, run on install) when it is at least as new as the sources; else the
// sources themselves through tsx, so an edit to src/ takes effect without a build.
const fresh = existsSync(bundle) && statSync(bundle).mtimeMs >= Math.max(newest(here('../src')), newest(here('../reference')));
let main;
if (fresh) {
  ({ main } = await import(bundle));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli.ts'));
}
process.exitCode = await main(process.argv.slice(2));
