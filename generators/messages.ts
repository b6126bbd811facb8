import fc from 'fast-check';
import type { Contract, SchemaObject } from '../src/contract/load.ts';
import { invalidBodies, type InvalidBody } from './invalid.ts';
import { fromSchema } from './schema.ts';

function newMessageSchema(contract: Contract): SchemaObject {
  const schema = contract.schemas.NewMessage;
  if (!schema) throw new Error('the contract has no schema NewMessage');
  return schema;
}

/** Valid message bodies (Unicode, empty, long), derived from the NewMessage schema. */
export function newMessage(contract: Contract): fc.Arbitrary<{ message: string }> {
  return fromSchema(newMessageSchema(contract)) as fc.Arbitrary<{ message: string }>;
}

/**
 * Invalid message requests. `stated` is true for the three 400 conditions §4.5 lists (invalid JSON,
 * message missing, another content type); a message of another type is invalid by the body table only.
 */
export function invalidMessage(contract: Contract): fc.Arbitrary<InvalidBody & { stated: boolean }> {
  return invalidBodies(newMessageSchema(contract), newMessage(contract)).map((body) => ({
    ...body,
    stated: body.kind !== 'type' && body.kind !== 'null',
  }));
}
