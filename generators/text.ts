import fc from 'fast-check';
import type { Refusable } from '../src/checks/types.ts';

/**
 * The core every server must take, as the spec states no length or format for a name (§2.5) nor
 * for a message text (§4.5 lists only the JSON, a missing field and the content type as causes of
 * a 400; §8 leaves the body size open): names of NAME_LENGTH.min to NAME_LENGTH.max ASCII letters in
 * words one space apart ("Rex", "Fluffy Tiger"); messages of 1 to MESSAGE_LENGTH printable ASCII
 * characters, words one space apart. A server may refuse anything else (another script, an emoji,
 * a digit in a name, a longer text), but what it takes it must echo.
 */
export const NAME_LENGTH = { min: 3, max: 12 } as const;
export const MESSAGE_LENGTH = 100;

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const VISIBLE_ASCII = Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
const CORE_NAME = /^[A-Za-z]+(?: [A-Za-z]+)*$/;
const CORE_MESSAGE = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]+$/u;

/** Why a text is out of any core whatever its script or length; undefined where it is not. */
function unusual(text: string): Refusable | undefined {
  if (text === '') return { why: 'empty', tooLong: false };
  if (text.includes('\u0000')) return { why: 'a NUL character', tooLong: false };
  if (/\p{Cs}/u.test(text)) return { why: 'a lone surrogate', tooLong: false };
  if (/\p{Cc}/u.test(text)) return { why: 'a control character', tooLong: false };
  if (/[\u2028\u2029]/.test(text)) return { why: 'a line or paragraph separator', tooLong: false };
  if (!PRINTABLE.test(text)) return { why: 'a format, private-use or unassigned character', tooLong: false };
  if (/^\s|\s$/u.test(text)) return { why: 'blank or padded with white space', tooLong: false };
  return undefined;
}

/** Why a server may refuse this name (§2.5: no length or format shown); undefined for the core. */
export function nameEdge(name: string): Refusable | undefined {
  const found = unusual(name);
  if (found) return found;
  const length = [...name].length;
  if (length > NAME_LENGTH.max) return { why: `over ${NAME_LENGTH.max} characters`, tooLong: true };
  if (length < NAME_LENGTH.min) return { why: `under ${NAME_LENGTH.min} characters`, tooLong: false };
  if (!CORE_NAME.test(name)) return { why: 'characters other than ASCII letters and single spaces', tooLong: false };
  return undefined;
}

/** Why a server may refuse this message text (no length or format shown); undefined for the core. */
export function messageEdge(text: string): Refusable | undefined {
  const found = unusual(text);
  if (found) return found;
  if ([...text].length > MESSAGE_LENGTH) return { why: `over ${MESSAGE_LENGTH} characters`, tooLong: true };
  if (!CORE_MESSAGE.test(text)) return { why: 'characters other than printable ASCII and single spaces', tooLong: false };
  return undefined;
}

const words = (alphabet: string, longest: number, most: number) =>
  fc.array(fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: longest }), { minLength: 1, maxLength: most }).map((parts) => parts.join(' '));

/** Names in the core: one to three words of ASCII letters. */
export function coreName(): fc.Arbitrary<string> {
  return words(LETTERS, 8, 3).filter((name) => name.length >= NAME_LENGTH.min && name.length <= NAME_LENGTH.max);
}

/** Message texts in the core: up to eight words of printable ASCII. */
export function coreMessage(): fc.Arbitrary<string> {
  return words(VISIBLE_ASCII, 12, 8).filter((text) => text.length <= MESSAGE_LENGTH);
}
