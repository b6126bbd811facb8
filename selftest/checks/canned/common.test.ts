import { describe, expect, it } from 'vitest';
import { COMMON_CHECKS, getCheck } from '../../../src/checks/registry.ts';
import { errorBody, exchange, pets } from '../helpers.ts';
import { judgeEnv } from './canned.ts';

// The common checks' own cases are in src/checks/common.ts (run by cases.test.ts).
describe('the common checks on a faithful exchange', () => {
  it('pass or stay n/a on a 200 listing and on a 404 Error', () => {
    for (const ex of [exchange(200, pets(3)), exchange(404, errorBody(404, 'not_found'))]) {
      for (const name of COMMON_CHECKS.filter((n) => n !== 'limits.rate-limit')) {
        expect(['pass', 'n/a'], name).toContain(getCheck(name).judge(ex, { env: judgeEnv() }).outcome);
      }
    }
  });
});
