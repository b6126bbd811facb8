import type { Refusable } from '../src/checks/types.ts';

/**
 * The longest text (in code points) every server must take: even all astral, 50 characters are at
 * most 100 UTF-16 units and 200 UTF-8 bytes, inside limits of 100 characters or 255 bytes.
 */
export const CORE_LENGTH = 50;

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]+$/u;

/**
 * Why a string the spec allows may still be refused, since it states no length or format for it
 * (§2.5, §8); undefined for the core every server must take: 1 to CORE_LENGTH printable
 * characters (letters, marks, digits, punctuation, symbols, spaces), not starting or ending with
 * white space.
 */
export function textEdge(text: string): Refusable | undefined {
  if (text === '') return { why: 'empty', tooLong: false };
  if ([...text].length > CORE_LENGTH) return { why: `over ${CORE_LENGTH} characters`, tooLong: true };
  if (text.includes('\u0000')) return { why: 'a NUL character', tooLong: false };
  if (/\p{Cs}/u.test(text)) return { why: 'a lone surrogate', tooLong: false };
  if (/\p{Cc}/u.test(text)) return { why: 'a control character', tooLong: false };
  if (/[\u2028\u2029]/.test(text)) return { why: 'a line or paragraph separator', tooLong: false };
  if (!PRINTABLE.test(text)) return { why: 'a format, private-use or unassigned character', tooLong: false };
  if (/^\s|\s$/u.test(text)) return { why: 'blank or padded with white space', tooLong: false };
  return undefined;
}
