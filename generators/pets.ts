import fc from 'fast-check';
import type { Contract, SchemaObject } from '../src/contract/model.ts';
import { stringifyJson } from '../src/json/lossless.ts';
import { invalidBodies, invalidCases, type InvalidBody, type InvalidCase } from './invalid.ts';
import { INT64_MAX, INT64_MIN } from './schema.ts';
import { fromSchema } from './schema.ts';
import { textEdge } from './text.ts';

function schema(contract: Contract, name: string): SchemaObject {
  const found = contract.schemas[name];
  if (!found) throw new Error(`the contract has no schema ${name}`);
  return found;
}

/** Valid NewPet values, with and without status, derived from the contract's NewPet schema. */
export function newPet(contract: Contract): fc.Arbitrary<Record<string, unknown>> {
  return fromSchema(schema(contract, 'NewPet')) as fc.Arbitrary<Record<string, unknown>>;
}

/** Valid NewPet values whose name every server must take (textEdge), so an answer is about the rest. */
export function coreNewPet(contract: Contract): fc.Arbitrary<Record<string, unknown>> {
  return newPet(contract).filter((pet) => textEdge(pet.name as string) === undefined);
}

/** NewPet bodies that each break one rule of the NewPet schema or of the body's form. */
export function invalidNewPet(contract: Contract): fc.Arbitrary<InvalidBody> {
  return invalidBodies(schema(contract, 'NewPet'), coreNewPet(contract));
}

/** Every rule a NewPet body can break, each with its own arbitrary. */
export function invalidNewPetCases(contract: Contract): InvalidCase[] {
  return invalidCases(schema(contract, 'NewPet'), coreNewPet(contract));
}

/**
 * Edge values tried before the random ones: int64 limits a double would round, every status as
 * well as none (all under names every server must take), then names a server might trim, truncate,
 * mangle or, as the spec states no constraint on them, refuse.
 */
export function edgeNewPets(contract: Contract): Record<string, unknown>[] {
  const statuses = statusValues(contract);
  return [
    { name: 'Ünïcödé 🐈 名前', categoryId: INT64_MAX, status: statuses[0] },
    { name: 'Rex', categoryId: INT64_MIN, status: statuses[1] },
    { name: 'Rex', categoryId: 2n ** 53n + 1n, status: statuses[2] },
    { name: '  padded name  ', categoryId: 1 },
    { name: '', categoryId: 0 },
    { name: 'x'.repeat(5_000), categoryId: 2 },
    { name: 'a\u0000b', categoryId: 3 },
    { name: 'line\nbreak', categoryId: 4 },
    { name: 'lone \ud800 surrogate', categoryId: 5 },
    { name: 'black cat 🐈\u200d⬛', categoryId: 6 },
  ];
}

/** A valid NewPet with one optional field sent as null; `input` is the NewPet without it. */
export function newPetWithNullOptional(contract: Contract): fc.Arbitrary<{ field: string; input: Record<string, unknown>; body: string }> {
  const { properties = {}, required = [] } = schema(contract, 'NewPet');
  const optional = Object.keys(properties).filter((field) => !required.includes(field));
  return fc.tuple(coreNewPet(contract), fc.constantFrom(...optional)).map(([pet, field]) => {
    const input = Object.fromEntries(Object.entries(pet).filter(([key]) => key !== field));
    return { field, input, body: stringifyJson({ ...input, [field]: null }) };
  });
}

/** A valid NewPet with one field the schema does not list. */
export function newPetWithUnknownField(contract: Contract): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(coreNewPet(contract), fc.constantFrom('color', 'nickname', 'tags')).map(([pet, field]) => ({ ...pet, [field]: 'extra' }));
}

export function statusValues(contract: Contract): string[] {
  return (schema(contract, 'PetStatus').enum ?? []).map(String);
}
