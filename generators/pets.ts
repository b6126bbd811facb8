import fc from 'fast-check';
import type { Contract, SchemaObject } from '../src/contract/model.ts';
import { stringifyJson, type ExactInt } from '../src/json/lossless.ts';
import { invalidBodies, invalidCases, type InvalidBody, type InvalidCase } from './invalid.ts';
import { notUtf8Cases, type NotUtf8Body } from './not-utf8.ts';
import { INT64_MAX, INT64_MIN } from './schema.ts';
import { fromSchema } from './schema.ts';
import { coreName } from './text.ts';

function schema(contract: Contract, name: string): SchemaObject {
  const found = contract.schemas[name];
  if (!found) throw new Error(`the contract has no schema ${name}`);
  return found;
}

/**
 * categoryIds the target is known to accept (tests/support/categories.ts): §2.5 shows no category
 * resource, so a server may refuse one that names no category it knows. At least one.
 */
type Known = readonly ExactInt[];

function knownCategory(known: Known): fc.Arbitrary<ExactInt> {
  if (known.length === 0) throw new Error('a NewPet every server must take needs a categoryId the target accepts');
  return fc.constantFrom(...known);
}

/** NewPet values as the schema allows them: any name, any int64 categoryId. */
function anyNewPet(contract: Contract): fc.Arbitrary<Record<string, unknown>> {
  return fromSchema(schema(contract, 'NewPet')) as fc.Arbitrary<Record<string, unknown>>;
}

/**
 * Valid NewPet values, with and without status, derived from the contract's NewPet schema: about
 * half under a categoryId the target is known to accept, the others under any int64 (which a server
 * may refuse); about half with a core name (nameEdge), the others with any string (which it may
 * refuse too).
 */
export function newPet(contract: Contract, known: Known): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(anyNewPet(contract), fc.option(knownCategory(known), { nil: undefined, freq: 2 }), fc.option(coreName(), { nil: undefined, freq: 2 }))
    .map(([pet, categoryId, name]) => ({ ...pet, ...(categoryId === undefined ? {} : { categoryId }), ...(name === undefined ? {} : { name }) }));
}

/** Valid NewPet values every server must take: a name in the core (nameEdge) and a known categoryId, so an answer is about the rest. */
export function coreNewPet(contract: Contract, known: Known): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(anyNewPet(contract), coreName(), knownCategory(known)).map(([pet, name, categoryId]) => ({ ...pet, name, categoryId }));
}

/** The member Rails-style binders wrap a NewPet under (`params.require(:pet)`). */
const WRAPPED_AS = 'pet';

/** NewPet bodies that each break one rule of the NewPet schema or of the body's form. */
export function invalidNewPet(contract: Contract, known: Known): fc.Arbitrary<InvalidBody> {
  return invalidBodies(schema(contract, 'NewPet'), coreNewPet(contract, known), WRAPPED_AS);
}

/** Every rule a NewPet body can break, each with its own arbitrary. */
export function invalidNewPetCases(contract: Contract, known: Known): InvalidCase[] {
  return invalidCases(schema(contract, 'NewPet'), coreNewPet(contract, known), WRAPPED_AS);
}

/**
 * Edge values tried before the random ones: every status as well as none, under names and
 * categoryIds every server must take (the longest and shortest core names among them);
 * categoryIds a double would round and ones that may name no category (0, negative), under a name
 * every server must take; then names a server might trim, truncate, mangle or, as the spec states
 * no constraint on them, refuse, under known categoryIds.
 */
export function edgeNewPets(contract: Contract, known: Known): Record<string, unknown>[] {
  knownCategory(known);
  const statuses = statusValues(contract);
  const category = (index: number) => known[index % known.length]!;
  return [
    { name: 'Fluffy Tiger', categoryId: category(0), status: statuses[0] },
    { name: 'Rex', categoryId: category(1), status: statuses[1] },
    { name: 'Old Tom', categoryId: category(2), status: statuses[2] },
    { name: 'Rex', categoryId: INT64_MAX, status: statuses[0] },
    { name: 'Rex', categoryId: INT64_MIN, status: statuses[1] },
    { name: 'Rex', categoryId: 2n ** 53n + 1n, status: statuses[2] },
    { name: 'Rex', categoryId: 0 },
    { name: 'Rex', categoryId: -1 },
    { name: '  padded name  ', categoryId: category(0) },
    { name: '', categoryId: category(1) },
    { name: 'x'.repeat(5_000), categoryId: category(2) },
    { name: 'a\u0000b', categoryId: category(3) },
    { name: 'line\nbreak', categoryId: category(4) },
    { name: 'lone \ud800 surrogate', categoryId: category(5) },
    { name: 'black cat 🐈\u200d⬛', categoryId: category(6) },
    { name: 'Ünïcödé 🐈 名前', categoryId: category(7) },
    { name: 'Rex the 2nd', categoryId: category(8) },
    { name: 'Fluffy Tigers', categoryId: category(9) },
    { name: 'Bo', categoryId: category(10) },
    // What breaks a name spliced into SQL, a shell or a LIKE pattern rather than passed as a parameter.
    { name: `O'Brien "Rex" \\ 100% _x_; --`, categoryId: category(11) },
  ];
}

/** NewPets every server must take but for bytes that are not UTF-8 in the name, judged by create.not-utf8. */
export function notUtf8NewPetCases(contract: Contract, known: Known): { rule: string; arbitrary: fc.Arbitrary<NotUtf8Body> }[] {
  return notUtf8Cases(coreNewPet(contract, known), 'name');
}

/** A valid NewPet every server must take with one optional field sent as null; `input` is the NewPet without it. */
export function newPetWithNullOptional(contract: Contract, known: Known): fc.Arbitrary<{ field: string; input: Record<string, unknown>; body: string }> {
  const { properties = {}, required = [] } = schema(contract, 'NewPet');
  const optional = Object.keys(properties).filter((field) => !required.includes(field));
  return fc.tuple(coreNewPet(contract, known), fc.constantFrom(...optional)).map(([pet, field]) => {
    const input = Object.fromEntries(Object.entries(pet).filter(([key]) => key !== field));
    return { field, input, body: stringifyJson({ ...input, [field]: null }) };
  });
}

/** A valid NewPet every server must take, with one field the schema does not list. */
export function newPetWithUnknownField(contract: Contract, known: Known): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(coreNewPet(contract, known), fc.constantFrom('color', 'nickname', 'tags')).map(([pet, field]) => ({ ...pet, [field]: 'extra' }));
}

export function statusValues(contract: Contract): string[] {
  return (schema(contract, 'PetStatus').enum ?? []).map(String);
}
