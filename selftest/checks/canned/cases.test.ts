import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import { cannedTests } from './canned.ts';

describe.each(Object.entries(FAMILIES))('the %s checks on their canned cases', (_family, checks) => {
  cannedTests(checks);
});
