#!/usr/bin/env node
// Starts the hand-written reference server (reference/cli.ts) through tsx; see --help.
import { register } from 'tsx/esm/api';

register();
await import('../reference/cli.ts');
