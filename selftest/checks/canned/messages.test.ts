import { describe, expect, it } from 'vitest';
import { getCheck } from '../../../src/checks/registry.ts';
import { exchange, messageBody } from '../helpers.ts';
import { judgeEnv } from './canned.ts';

// The messages checks' own cases are in src/checks/messages.ts (run by cases.test.ts).
describe('regressions', () => {
  // Date.parse rolls 30 February over to 2 March; the check must not.
  it('messages.created-at fails createdAt 2026-02-30T10:00:00Z', () => {
    const ex = exchange(202, messageBody({ createdAt: '2026-02-30T10:00:00Z' }));
    expect(getCheck('messages.created-at').judge(ex, { env: judgeEnv() }).outcome).toBe('fail');
  });
});
