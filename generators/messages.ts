import fc from 'fast-check';
import type { Contract, SchemaObject } from '../src/contract/model.ts';
import type { RequestBody } from '../src/http/body-bytes.ts';
import { invalidCases, mediaTypeCases, type InvalidCase } from './invalid.ts';
import { notUtf8Cases, type NotUtf8Body } from './not-utf8.ts';
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
 * The clause an invalid message is judged by: the three 400 conditions §4.5 lists (invalid JSON,
 * message missing, another content type), a message of another type (invalid by the body table
 * only), or a body that is not UTF-8 (invalid JSON by RFC 8259 §8.1, which §4.5 does not spell out).
 */
export type InvalidMessageClause = 'messages.invalid-400' | 'messages.non-string' | 'messages.not-utf8';

export type InvalidMessageCase = InvalidCase & { clause: InvalidMessageClause };

/** Any invalid message request: its body text, bytes, or none. */
export interface InvalidMessageRequest {
  rule: string;
  clause: InvalidMessageClause;
  arbitrary: fc.Arbitrary<{ rule: string; body: RequestBody | undefined; contentType: string | null }>;
}

/** Valid messages but for bytes that are not UTF-8 in their text, judged by messages.not-utf8. */
export function notUtf8MessageCases(): { rule: string; clause: 'messages.not-utf8'; arbitrary: fc.Arbitrary<NotUtf8Body> }[] {
  return notUtf8Cases(coreMessage().map((message) => ({ message })), 'message').map((c) => ({ ...c, clause: 'messages.not-utf8' }));
}

/** Invalid message requests as text (notUtf8MessageCases has the bytes), each with the clause that judges it. */
export function invalidMessageCases(contract: Contract): InvalidMessageCase[] {
  const valid = coreMessage().map((message) => ({ message }));
  return [...invalidCases(newMessageSchema(contract), valid), ...mediaTypeCases(valid)].map((c) => ({ ...c, clause: c.kind === 'type' || c.kind === 'null' ? 'messages.non-string' : 'messages.invalid-400' }));
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
