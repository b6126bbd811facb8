// Lossless JSON in both directions.
//
// Requests are parsed with lossless-json, so every number arrives as its literal text
// (a LosslessNumber) and int64 values are never squeezed through a double. Responses are
// written by the small serialiser below, which prints bigints as exact integer literals.

import { isLosslessNumber, parse, type LosslessNumber } from 'lossless-json';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export type ParsedJson = null | boolean | string | LosslessNumber | ParsedJson[] | { [key: string]: ParsedJson };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const utf16 = new TextDecoder('utf-16le', { fatal: true });

/**
 * Decodes strict UTF-8 (a byte order mark is kept, so the JSON parser rejects it) and parses.
 * `firstValueOnly`: the first JSON value is taken and whatever follows it ignored, as a stream decoder
 * reading one value does (Go's json.Decoder.Decode). `lenient`: bytes that are not UTF-8 become
 * U+FFFD, as Go's encoding/json and Express's body-parser take them. `encoding` 'utf-16': the body is
 * read as UTF-16 (its byte order mark dropped), as a parser honouring a charset parameter reads it.
 */
export function parseJsonBody(body: Buffer, firstValueOnly = false, lenient = false, encoding: 'utf-8' | 'utf-16' = 'utf-8'): { ok: true; value: ParsedJson } | { ok: false; reason: string } {
  let text: string;
  try {
    text = encoding === 'utf-16' ? utf16.decode(body) : (lenient ? lenientUtf8 : utf8).decode(body);
  } catch {
    return { ok: false, reason: 'request body is not valid UTF-8' };
  }
  try {
    return { ok: true, value: (firstValueOnly ? parseFirstValue(text) : parse(text)) as ParsedJson };
  } catch (error) {
    return { ok: false, reason: `request body is not valid JSON: ${(error as Error).message}` };
  }
}

/** The shortest prefix of `text` ending in `}` or `]` that parses, else the whole text. */
function parseFirstValue(text: string): unknown {
  for (let end = 0; end < text.length; end++) {
    if (text[end] !== '}' && text[end] !== ']') continue;
    try {
      return parse(text.slice(0, end + 1));
    } catch {
      // Not the end of the first value yet.
    }
  }
  return parse(text);
}

export function isJsonObject(value: ParsedJson | undefined): value is { [key: string]: ParsedJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

export function isJsonNumber(value: ParsedJson | undefined): value is LosslessNumber {
  return isLosslessNumber(value);
}

/** Own-property lookup (never the prototype chain). */
export function field(obj: { [key: string]: ParsedJson }, key: string): ParsedJson | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export type IntegerLiteral =
  | { kind: 'int'; value: bigint }
  /** The literal denotes a non-integer value; `truncated` is its integer part, clamped into int64. */
  | { kind: 'fraction'; truncated: bigint }
  /** An integer value outside int64 (1e400 included); `clamped` is the nearest int64. */
  | { kind: 'out-of-range'; clamped: bigint };

const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

function clamp(v: bigint): bigint {
  return v < INT64_MIN ? INT64_MIN : v > INT64_MAX ? INT64_MAX : v;
}

/**
 * Exact value of a JSON number literal as an int64. `1.0` and `1e2` are integer values and
 * accepted; `1.5` is a fraction; `9223372036854775808` and `1e400` are out of range.
 * Works on the decimal digits, never through a double, and never builds huge powers of ten.
 */
export function int64OfLiteral(literal: string): IntegerLiteral {
  const m = NUMBER_LITERAL.exec(literal);
  if (!m) throw new Error(`not a JSON number literal: ${literal}`);
  const negative = m[1] === '-';
  const fraction = m[3] ?? '';
  let digits = ((m[2] ?? '') + fraction).replace(/^0+/, '');
  if (digits === '') return { kind: 'int', value: 0n };
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  // value = digits * 10^scale, with digits not ending in 0
  const scale = BigInt(m[4] ?? '0') - BigInt(fraction.length) + BigInt(trailing);
  const sign = negative ? -1n : 1n;
  if (scale >= 0n) {
    if (BigInt(digits.length) + scale > 19n) return { kind: 'out-of-range', clamped: negative ? INT64_MIN : INT64_MAX };
    const value = sign * BigInt(digits) * 10n ** scale;
    return value < INT64_MIN || value > INT64_MAX ? { kind: 'out-of-range', clamped: clamp(value) } : { kind: 'int', value };
  }
  // scale < 0 and digits has no trailing zero: the value is not an integer.
  const integerDigits = BigInt(digits.length) + scale; // may be <= 0
  if (integerDigits <= 0n) return { kind: 'fraction', truncated: 0n };
  if (integerDigits > 19n) return { kind: 'fraction', truncated: negative ? INT64_MIN : INT64_MAX };
  return { kind: 'fraction', truncated: clamp(sign * BigInt(digits.slice(0, Number(integerDigits)))) };
}

/** Strict decimal int64 text as used in paths and query strings: optional '-', digits only. */
export function int64OfDecimal(text: string): bigint | undefined {
  if (!/^-?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

// ---------------------------------------------------------------------------------------------
// Serialisation

export type JsonOut =
  | null
  | boolean
  | number
  | bigint
  | string
  | readonly JsonOut[]
  | { readonly [key: string]: JsonOut | undefined };

/** JSON.stringify with exact bigints; object properties that are undefined are left out. */
export function stringify(value: JsonOut): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new Error('cannot serialise a non-finite number');
      return JSON.stringify(value);
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v: JsonOut) => stringify(v)).join(',')}]`;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v !== undefined) parts.push(`${JSON.stringify(key)}:${stringify(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/** A JSON string literal, or an integer literal (no fraction, no exponent). */
const STRING_OR_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])(-?)(\d+)(?![.\deE])/g;

/**
 * The JSON text with every integer in scientific notation, as a writer of decimal types puts it
 * (Java's BigDecimal.toString: 157 as 1.57E+2, 9223372036854775807 as 9.223372036854775807E+18).
 */
export function withExponentIntegers(text: string): string {
  return text.replace(STRING_OR_INTEGER, (token, sign: string | undefined, digits: string | undefined) => {
    if (digits === undefined) return token;
    const rest = digits.slice(1).replace(/0+$/, '');
    return `${sign}${digits[0]}${rest ? `.${rest}` : ''}E+${digits.length - 1}`;
  });
}
