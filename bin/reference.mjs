#!/usr/bin/env node
// Starts the hand-written reference server (reference/cli.ts); see --help. The bundle when it is
// fresh, else the sources through tsx (see fresh.mjs).
import { freshBundle } from './fresh.mjs';

const bundle = freshBundle('reference');
if (bundle) {
  await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../reference/cli.ts');
}
