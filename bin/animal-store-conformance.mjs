#!/usr/bin/env node
import { freshBundle } from './fresh.mjs';
import { importSources } from './from-sources.mjs';

// A closed pipe (`| head`) ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// `animal-store-conformance reference …` is the reference server (bin/reference.mjs), so an
// installed package can run it beside the implementation under test.
if (process.argv[2] === 'reference') {
  process.argv.splice(2, 1);
  await import('./reference.mjs');
} else {
  await runCli();
}

async function runCli() {
  // The bundle when it is fresh, else the sources through tsx (see fresh.mjs, from-sources.mjs).
  const bundle = freshBundle('cli');
  const { main } = bundle ? await import(bundle) : await importSources('../src/cli.ts', 'dist/cli.js');
  process.exitCode = await main(process.argv.slice(2));
}
