import fc from 'fast-check';
import { stringifyJson } from '../src/json/lossless.ts';

/** Byte sequences that are no UTF-8, each a way a decoder may be lax (Unicode §3.9, table 3-7). */
const NOT_UTF8: readonly [string, readonly number[]][] = [
  ['an ISO-8859-1 "é" (0xE9)', [0xe9]],
  ['a lone continuation byte (0x80)', [0x80]],
  ['a two-byte sequence cut short after its first byte (0xC3)', [0xc3]],
  ['an overlong "/" (0xC0 0xAF)', [0xc0, 0xaf]],
  ['a UTF-16 surrogate encoded (0xED 0xA0 0x80)', [0xed, 0xa0, 0x80]],
  ['a byte UTF-8 never uses (0xFF)', [0xff]],
];

/** A JSON body whose bytes are not UTF-8, else valid. */
export interface NotUtf8Body {
  rule: string;
  body: Buffer;
  contentType: string;
}

/**
 * RFC 8259 §11 defines no charset parameter for application/json ("adding one really has no effect on
 * compliant recipients"): a body labelled UTF-16 is still read as UTF-8, where its BOM is no UTF-8.
 */
export const UTF16_CONTENT_TYPE = 'application/json; charset=utf-16';

const MARK = '\u0000not-utf8\u0000';

/**
 * Each byte fault of NOT_UTF8 inside the text of `field` of a valid body, at a point fast-check picks;
 * and the whole valid body in UTF-16 (with its byte order mark) under UTF16_CONTENT_TYPE.
 */
export function notUtf8Cases(valid: fc.Arbitrary<Record<string, unknown>>, field: string): { rule: string; arbitrary: fc.Arbitrary<NotUtf8Body> }[] {
  const utf16Rule = `body in UTF-16 under Content-Type ${UTF16_CONTENT_TYPE}`;
  const utf16 = valid.map((value): NotUtf8Body => ({ rule: utf16Rule, body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(stringifyJson(value), 'utf16le')]), contentType: UTF16_CONTENT_TYPE }));
  return [...NOT_UTF8.map(([what, bytes]) => {
    const rule = `${field} text not UTF-8: ${what}`;
    const arbitrary = fc.tuple(valid, fc.nat()).map(([value, at]): NotUtf8Body => {
      const text = String(value[field]);
      const split = at % (text.length + 1);
      const [before, after] = stringifyJson({ ...value, [field]: MARK }).split(JSON.stringify(MARK)) as [string, string];
      const head = `${before}${JSON.stringify(text.slice(0, split)).slice(0, -1)}`;
      const tail = `${JSON.stringify(text.slice(split)).slice(1)}${after}`;
      return { rule, body: Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]), contentType: 'application/json' };
    });
    return { rule, arbitrary };
  }), { rule: utf16Rule, arbitrary: utf16 }];
}
