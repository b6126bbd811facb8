import { describe, expect, it } from 'vitest';
import { addFailure, addWarning, capClauseFailures, failuresOf, moreFailuresOf } from '../../src/report/failures.ts';
import type { CheckResult } from '../../src/report/model.ts';
import { AUTH_HOLES, LIMIT_FAILURE, NO_CHALLENGE } from './fixture.ts';

const blank = (): CheckResult => ({ check: 'auth.required', clause: 'auth.required', outcome: 'fail', judged: 2 });

describe('addFailure', () => {
  it('appends a failure on a new operation and mirrors the first in the check\'s own fields', () => {
    const check = blank();
    addFailure(check, AUTH_HOLES.createPet, { replace: false });
    addFailure(check, AUTH_HOLES.sendMessage, { replace: false });
    expect(check.failures?.map((f) => f.operation)).toEqual(['createPet', 'sendMessage']);
    expect(check.actual).toBe(AUTH_HOLES.createPet.actual);
    expect(check.evidence).toEqual(AUTH_HOLES.createPet.evidence);
    expect(check.path).toBe('0:0');
  });

  it('on an operation already listed, replaces it only when asked, and the mirror follows', () => {
    const later = { operation: 'createPet', expected: '401', actual: '200 later', counterexample: '{"later":true}' };
    const kept = blank();
    addFailure(kept, AUTH_HOLES.createPet, { replace: false });
    addFailure(kept, later, { replace: false });
    expect(kept.failures).toEqual([AUTH_HOLES.createPet]);
    const replaced = blank();
    addFailure(replaced, AUTH_HOLES.createPet, { replace: true });
    addFailure(replaced, later, { replace: true });
    expect(replaced.failures).toEqual([later]);
    expect(replaced.actual).toBe('200 later');
    expect(replaced.evidence).toBeUndefined();
    expect(replaced.counterexample).toBe('{"later":true}');
    expect(replaced.path).toBeUndefined();
    expect(replaced.seed).toBeUndefined();
  });

  it('does not let a failure without a counterexample replace one with it', () => {
    const plain = { operation: 'createPet', expected: '401', actual: '201 plain' };
    const check = blank();
    addFailure(check, AUTH_HOLES.createPet, { replace: true });
    addFailure(check, plain, { replace: true });
    expect(check.failures).toEqual([AUTH_HOLES.createPet]);
    const upgraded = blank();
    addFailure(upgraded, plain, { replace: true });
    addFailure(upgraded, AUTH_HOLES.createPet, { replace: true });
    expect(upgraded.failures).toEqual([AUTH_HOLES.createPet]);
    expect(upgraded.counterexample).toBe(AUTH_HOLES.createPet.counterexample);
  });

  it('counts operations past the cap instead of listing them', () => {
    const check = blank();
    for (let i = 0; i < 4; i++) addFailure(check, { operation: `op${i}`, expected: '401', actual: '200' }, { replace: true, max: 2 });
    expect(check.failures?.map((f) => f.operation)).toEqual(['op0', 'op1']);
    expect(check.moreFailures).toBe(2);
  });

  it('drops fields given as undefined', () => {
    const check = blank();
    addFailure(check, { operation: 'listPets', expected: '401', actual: '200', counterexample: undefined }, { replace: false });
    expect(Object.keys(check.failures![0]!)).toEqual(['operation', 'expected', 'actual']);
    expect('counterexample' in check).toBe(false);
  });
});

describe('failuresOf', () => {
  it('is the list when there is one, else the failure the check\'s own fields tell', () => {
    const check = blank();
    addFailure(check, AUTH_HOLES.createPet, { replace: false });
    addFailure(check, AUTH_HOLES.sendMessage, { replace: false });
    expect(failuresOf(check)).toEqual([AUTH_HOLES.createPet, AUTH_HOLES.sendMessage]);
    const [own] = failuresOf(LIMIT_FAILURE);
    expect(own).toEqual({ expected: LIMIT_FAILURE.expected, actual: LIMIT_FAILURE.actual, evidence: LIMIT_FAILURE.evidence, counterexample: '{"limit":101}', seed: 1234567, path: '14:2:0' });
  });
});

describe('addWarning: a check of a SHOULD clause keeps every operation it warned on, as a failing check does', () => {
  const warned = (): CheckResult => ({ check: 'auth.www-authenticate', clause: 'auth.www-authenticate', outcome: 'warn', judged: 2 });

  it('lists one warning per operation, the first on each kept, the first of all mirrored, in warnings and not failures', () => {
    const check = warned();
    addWarning(check, NO_CHALLENGE.listPets, { replace: false });
    addWarning(check, { ...NO_CHALLENGE.listPets, actual: 'seen again' }, { replace: false });
    addWarning(check, NO_CHALLENGE.sendMessage, { replace: false });
    expect(check.warnings).toEqual([NO_CHALLENGE.listPets, NO_CHALLENGE.sendMessage]);
    expect(check.failures).toBeUndefined();
    expect(check.actual).toBe(NO_CHALLENGE.listPets.actual);
    expect(check.evidence).toEqual(NO_CHALLENGE.listPets.evidence);
    expect(failuresOf(check)).toEqual([NO_CHALLENGE.listPets, NO_CHALLENGE.sendMessage]);
  });

  it('counts operations past the cap in moreWarnings, and the clause cap applies to warnings as to failures', () => {
    const check = warned();
    for (let i = 0; i < 4; i++) addWarning(check, { operation: `op${i}`, expected: 'a challenge', actual: 'none' }, { replace: false, max: 2 });
    expect(check.warnings?.map((w) => w.operation)).toEqual(['op0', 'op1']);
    expect(check.moreWarnings).toBe(2);
    expect(check.moreFailures).toBeUndefined();
    expect(moreFailuresOf(check)).toBe(2);
    const first = warned();
    const second = { ...warned(), check: 'other' };
    for (let i = 0; i < 3; i++) addWarning(first, { operation: `op${i}`, actual: 'none' }, { replace: false });
    for (let i = 0; i < 2; i++) addWarning(second, { operation: `other${i}`, actual: 'none' }, { replace: false });
    capClauseFailures([first, second], 3);
    expect(first.warnings?.map((w) => w.operation)).toEqual(['op0', 'op1', 'op2']);
    expect(second.warnings?.map((w) => w.operation)).toEqual(['other0']);
    expect(second.moreWarnings).toBe(1);
  });
});
