#!/usr/bin/env node
// Starts the hand-written reference server (reference/cli.ts); see --help. The bundle when it is
// fresh, else the sources through tsx (see fresh.mjs, from-sources.mjs).
import { freshBundle } from './fresh.mjs';
import { importSources } from './from-sources.mjs';

const bundle = freshBundle('reference');
await (bundle ? import(bundle) : importSources('../reference/cli.ts', 'dist/reference.js'));
