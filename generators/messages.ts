import fc from 'fast-check';
import type { Contract, SchemaObject } from '../src/contract/model.ts';
import { invalidCases, mediaTypeCases, type InvalidCase } from './invalid.ts';
import { fromSchema } from './schema.ts';
import { coreMessage } from './text.ts';

function newMessageSchema(contract: Contract): SchemaObject {
  const schema = contract.schemas.NewMessage;
  if (!schema) throw new Error('the contract has no schema NewMessage');
  return schema;
}

/** Valid message bodies derived from the NewMessage schema (Unicode, empty, long), about half of them with a core text (messageEdge). */
export function newMessage(contract: Contract): fc.Arbitrary<{ message: string }> {
  const any = fromSchema(newMessageSchema(contract)) as fc.Arbitrary<{ message: string }>;
  return fc.tuple(any, fc.option(coreMessage(), { nil: undefined, freq: 2 })).map(([body, message]) => (message === undefined ? body : { ...body, message }));
}

/**
 * Invalid message requests. `stated` is true for the three 400 conditions §4.5 lists (invalid JSON,
 * message missing, another content type); a message of another type is invalid by the body table only.
 */
export function invalidMessageCases(contract: Contract): (InvalidCase & { stated: boolean })[] {
  const valid = coreMessage().map((message) => ({ message }));
  return [...invalidCases(newMessageSchema(contract), valid), ...mediaTypeCases(valid)].map((c) => ({ ...c, stated: c.kind !== 'type' && c.kind !== 'null' }));
}

/** Edge messages tried first: texts every server must take (the longest core one among them), then whitespace a server might trim, and texts it may refuse (messageEdge). */
export const EDGE_MESSAGES: { message: string }[] = [
  { message: 'Is Rex still available? Call me at 5pm: +1 (555) 010-0199.' },
  { message: `${'Purr '.repeat(19)}Purr!` },
  { message: 'Ünïcödé 🐈 名前' },
  { message: '  padded  ' },
  { message: '' },
  { message: 'm'.repeat(10_000) },
  { message: 'a\u0000b' },
  { message: 'lone \ud800 surrogate' },
];
