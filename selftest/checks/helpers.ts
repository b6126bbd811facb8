/** Canned exchanges and the judge env for the checks' self-tests: no network, no clock. */
import { loadContract } from '../../src/contract/load.ts';
import { createValidators } from '../../src/contract/validator.ts';
import type { JudgeEnv } from '../../src/checks/types.ts';
import { NOW } from '../../src/checks/exchanges.ts';

export { errorBody, exchange, failed, messageBody, NOW, pet, pets, Raw, raw, truncated, type Body } from '../../src/checks/exchanges.ts';

/** The judge env, built from spec/openapi.yaml (call once, in beforeAll). */
export async function makeEnv(now: Date = NOW): Promise<JudgeEnv> {
  const contract = await loadContract();
  return { contract, validators: createValidators(contract), now };
}
