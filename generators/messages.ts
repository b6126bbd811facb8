import fc from 'fast-check';
import type { Contract, SchemaObject } from '../src/contract/model.ts';
import { invalidCases, mediaTypeCases, type InvalidCase } from './invalid.ts';
import { fromSchema } from './schema.ts';
import { textEdge } from './text.ts';

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
export function invalidMessageCases(contract: Contract): (InvalidCase & { stated: boolean })[] {
  const valid = newMessage(contract).filter((m) => textEdge(m.message) === undefined);
  return [...invalidCases(newMessageSchema(contract), valid), ...mediaTypeCases(valid)].map((c) => ({ ...c, stated: c.kind !== 'type' && c.kind !== 'null' }));
}

/** Edge messages tried first: Unicode every server must take, then whitespace a server might trim, and texts it may refuse (textEdge). */
export const EDGE_MESSAGES: { message: string }[] = [
  { message: 'Ünïcödé 🐈 名前' },
  { message: '  padded  ' },
  { message: '' },
  { message: 'm'.repeat(10_000) },
  { message: 'a\u0000b' },
  { message: 'lone \ud800 surrogate' },
];
