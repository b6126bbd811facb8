import fc from 'fast-check';
import type { Contract, SchemaObject } from '../src/contract/model.ts';
import type { RequestBody } from '../src/http/body-bytes.ts';
import { stringifyJson } from '../src/json/lossless.ts';
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

/** A message request whose body bytes are not UTF-8, else valid. */
export interface NotUtf8Message {
  rule: string;
  body: Buffer;
  contentType: 'application/json';
}

/** Byte sequences that are no UTF-8, each a way a decoder may be lax (Unicode §3.9, table 3-7). */
const NOT_UTF8: readonly [string, readonly number[]][] = [
  ['an ISO-8859-1 "é" (0xE9)', [0xe9]],
  ['a lone continuation byte (0x80)', [0x80]],
  ['a two-byte sequence cut short after its first byte (0xC3)', [0xc3]],
  ['an overlong "/" (0xC0 0xAF)', [0xc0, 0xaf]],
  ['a UTF-16 surrogate encoded (0xED 0xA0 0x80)', [0xed, 0xa0, 0x80]],
  ['a byte UTF-8 never uses (0xFF)', [0xff]],
];

/** `{"message": …}` with the bytes inside the text, at a point fast-check picks. */
export function notUtf8MessageCases(): { rule: string; clause: 'messages.not-utf8'; arbitrary: fc.Arbitrary<NotUtf8Message> }[] {
  return NOT_UTF8.map(([what, bytes]) => {
    const rule = `message text not UTF-8: ${what}`;
    const arbitrary = fc.tuple(coreMessage(), fc.nat()).map(([text, at]): NotUtf8Message => {
      const split = at % (text.length + 1);
      const head = stringifyJson({ message: text.slice(0, split) }).slice(0, -2);
      const tail = `${stringifyJson(text.slice(split)).slice(1)}}`;
      return { rule, body: Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]), contentType: 'application/json' };
    });
    return { rule, clause: 'messages.not-utf8', arbitrary };
  });
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
