/** Shared by the generators' self-tests: the contract, its validators, and "is this body invalid?". */
import type { Contract } from '../../src/contract/model.ts';
import { loadContract } from '../../src/contract/load.ts';
import { createValidators, type Validators } from '../../src/contract/validator.ts';
import { JsonDecodeError, parseJson } from '../../src/json/lossless.ts';
import type { InvalidBody } from '../../generators/index.ts';

export const SEED = 20261122;

export interface Env {
  contract: Contract;
  validators: Validators;
}

export async function makeEnv(): Promise<Env> {
  const contract = await loadContract();
  return { contract, validators: createValidators(contract) };
}

/**
 * Why a request body is invalid by the contract, or undefined when it is valid: the Content-Type is not
 * application/json, or there is no body, or the body is not JSON, or the schema reports a problem.
 */
export function invalidity(validators: Validators, schema: string, body: InvalidBody): string | undefined {
  if (body.contentType !== 'application/json') return `Content-Type ${String(body.contentType)}`;
  if (body.body === undefined || body.body === '') return 'no body';
  let parsed: unknown;
  try {
    parsed = parseJson(body.body);
  } catch (error) {
    if (error instanceof JsonDecodeError) return `not JSON: ${error.message}`;
    throw error;
  }
  const problems = validators.validate(schema, parsed);
  return problems.length ? problems.join('; ') : undefined;
}

/** The body alone, judged as if it had been sent as application/json. */
export function bodyInvalidity(validators: Validators, schema: string, body: InvalidBody): string | undefined {
  return invalidity(validators, schema, { ...body, contentType: 'application/json' });
}
