#!/usr/bin/env node
import { register } from 'tsx/esm/api';

register();
// A closed pipe (`| head`) ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
