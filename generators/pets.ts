import fc from 'fast-check';
import type { Contract, SchemaObject } from '../src/contract/load.ts';
import { invalidBodies, type InvalidBody } from './invalid.ts';
import { fromSchema } from './schema.ts';

function schema(contract: Contract, name: string): SchemaObject {
  const found = contract.schemas[name];
  if (!found) throw new Error(`the contract has no schema ${name}`);
  return found;
}

/** Valid NewPet values, with and without status, derived from the contract's NewPet schema. */
export function newPet(contract: Contract): fc.Arbitrary<Record<string, unknown>> {
  return fromSchema(schema(contract, 'NewPet')) as fc.Arbitrary<Record<string, unknown>>;
}

/** NewPet bodies that each break one rule of the NewPet schema or of the request's form. */
export function invalidNewPet(contract: Contract): fc.Arbitrary<InvalidBody> {
  return invalidBodies(schema(contract, 'NewPet'), newPet(contract));
}

/** A valid NewPet with one field the schema does not list. */
export function newPetWithUnknownField(contract: Contract): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(newPet(contract), fc.constantFrom('color', 'nickname', 'tags')).map(([pet, field]) => ({ ...pet, [field]: 'extra' }));
}

export function statusValues(contract: Contract): string[] {
  return (schema(contract, 'PetStatus').enum ?? []).map(String);
}
