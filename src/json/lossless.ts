import { parse, stringify } from 'lossless-json';
import { scanJson, type TopLevel } from './bounds.ts';
import { jsonSyntaxError } from './syntax.ts';

/**
 * JSON with int64 kept exact: integer literals beyond 2^53 become bigint, every other number a
 * plain number (so `1e400` becomes Infinity and fails any integer check).
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON number literal's parts: sign, integer digits, fraction digits, exponent. */
const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** An integer literal, possibly with a zero fraction: exact however long (scanJson bounds its digits). */
const WRITTEN_INTEGER = /^(-?\d+)(?:\.0+)?$/;
/**
 * Digits up to which an integer written with an exponent or a fraction is read exactly: int64 needs
 * 19, and one past it is out of range either way. `1e999` is the double Infinity, not 1,000 digits.
 */
const MAX_EXACT_DIGITS = 20;

/**
 * A number literal read exactly where it is an integer, however written: `7.0`, `7e0` and
 * `0.7e1` are 7, as JSON Schema (draft 6 on) takes them, and a long one stays exact. Any other
 * number is the double JSON.parse reads.
 */
function parseNumber(text: string): number | bigint {
  const written = WRITTEN_INTEGER.exec(text);
  if (written) return exactInteger(written[1]!);
  const parts = NUMBER_PARTS.exec(text);
  if (!parts) return Number.parseFloat(text);
  const [, sign, integer, fraction = '', exponent = '0'] = parts;
  const digits = `${integer}${fraction}`.replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  const scale = Number(exponent) - fraction.length + (digits.length - significant.length);
  if (significant === '' || scale < 0 || significant.length + scale > MAX_EXACT_DIGITS) return Number.parseFloat(text);
  return exactInteger(`${sign}${significant}${'0'.repeat(scale)}`);
}

/** Whether a double may not hold the number a literal writes, an integer read exactly (parseNumber). */
function mayRound(token: string): boolean {
  const e = Math.max(token.indexOf('e'), token.indexOf('E'));
  if (e < 0) return token.length >= 16 && typeof parseNumber(token) === 'bigint';
  // Past 10^40 or below 10^-40 no integer of at most MAX_EXACT_DIGITS digits is written (short of absurd fractions).
  const exponent = Number(token.slice(e + 1));
  return Math.abs(exponent) <= 40 && typeof parseNumber(token) === 'bigint';
}

/** A decimal integer held exactly: a number while a double holds it, else a bigint. */
export function exactInteger(decimal: string): number | bigint {
  const asNumber = Number(decimal);
  return Number.isSafeInteger(asNumber) ? asNumber : BigInt(decimal);
}

/** A JSON string literal, escapes included. */
const STRING_LITERAL = String.raw`"[^"\\]*(?:\\[\s\S][^"\\]*)*"`;
/** A string literal (skipped whole), or a number literal. */
const STRING_OR_NUMBER = new RegExp(String.raw`${STRING_LITERAL}|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`, 'g');
const MARK = '\u0000int64:';

/**
 * The native parser with every number literal a double may round first quoted behind a mark, then
 * turned back into an exact number or bigint. Undefined where it cannot be sure: a string of the text that itself
 * reads as a marked integer, or text the native parser rejects (lossless-json names the problem).
 */
function parseMarkingNumbers(text: string): { value: JsonValue } | undefined {
  let marked = 0;
  let value: JsonValue;
  try {
    const quoted = text.replace(STRING_OR_NUMBER, (token) => {
      if (token.charCodeAt(0) === 0x22 || !mayRound(token)) return token;
      marked++;
      return `"\\u0000int64:${token}"`;
    });
    value = JSON.parse(quoted) as JsonValue;
  } catch {
    return undefined;
  }
  if (marked === 0) return { value };
  const found = { count: 0 };
  value = unmark(value, found);
  return found.count === marked ? { value } : undefined;
}

/** Whether the value holds an integer past 2^53, which a double may have rounded. */
function hasRoundedInteger(value: JsonValue): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (Array.isArray(value)) {
    for (const item of value) if (hasRoundedInteger(item)) return true;
  } else if (value && typeof value === 'object') {
    for (const key in value) if (hasRoundedInteger(value[key]!)) return true;
  }
  return false;
}

function unmark(value: JsonValue, found: { count: number }): JsonValue {
  if (typeof value === 'string') {
    if (!value.startsWith(MARK)) return value;
    found.count++;
    return parseNumber(value.slice(MARK.length));
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i]!, found);
  } else if (value && typeof value === 'object') {
    for (const key in value) value[key] = unmark(value[key]!, found);
  }
  return value;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class JsonDecodeError extends Error {
  override name = 'JsonDecodeError';
}

/** The text is past one of the bounds of bounds.ts: the message says which, and by how much; `top`, the outermost value's shape. */
export class JsonBoundsError extends JsonDecodeError {
  override name = 'JsonBoundsError';
  constructor(
    message: string,
    readonly top?: TopLevel,
  ) {
    super(message);
  }
}

/** The text of UTF-8 bytes (a leading byte-order mark dropped); throws JsonDecodeError on invalid ones. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new JsonDecodeError('body is not valid UTF-8');
  }
}

/**
 * Parses UTF-8 bytes or text within the bounds of bounds.ts (checked first, in one pass); throws
 * JsonDecodeError naming what is wrong, JsonBoundsError for a text past a bound.
 */
export function parseJson(input: Uint8Array | string): JsonValue {
  return parseJsonCounted(input).value;
}

/** parseJson, with the number of names the text writes (scanJson), for repeatedNames. */
export function parseJsonCounted(input: Uint8Array | string): { value: JsonValue; names: number } {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  const scan = scanJson(text);
  if (scan.problem) {
    // Past a bound no parser reads it: one that is not JSON at all is that, and no limit of the suite's.
    const at = jsonSyntaxError(text);
    if (at !== undefined) throw new JsonDecodeError(`body is not JSON: ${notJsonAt(text, at)}`);
    throw new JsonBoundsError(scan.problem, scan.top);
  }
  return { value: parseScanned(text, scan.inexactNumbers), names: scan.names };
}

/** Where a text stops being JSON, as a parser's message says it. */
function notJsonAt(text: string, at: number): string {
  if (at >= text.length) return `unexpected end of the text at position ${at}`;
  return `unexpected ${JSON.stringify(text.slice(at, at + 12))} at position ${at}`;
}

function parseScanned(text: string, inexactNumbers: boolean): JsonValue {
  let native: JsonValue | undefined;
  try {
    native = JSON.parse(text) as JsonValue;
  } catch {
    // lossless-json names the problem; it throws below.
  }
  // Without a number of 16 digits or an exponent every number is exact as a double; with one, the
  // native values stand unless one is an integer past 2^53, which a double may have rounded.
  if (native !== undefined && (!inexactNumbers || !hasRoundedInteger(native))) return native;
  if (native !== undefined) {
    const parsed = parseMarkingNumbers(text);
    if (parsed) return parsed.value;
  }
  try {
    return parse(text, null, {
      parseNumber,
      onDuplicateKey: ({ newValue }) => newValue,
    }) as JsonValue;
  } catch (error) {
    throw new JsonDecodeError(`body is not JSON: ${(error as Error).message}`);
  }
}

/** Serialises with bigint written as an exact JSON number. */
export function stringifyJson(value: unknown): string {
  // Without a bigint the native serialiser writes the very same text.
  return (someValue(value, (v) => typeof v === 'bigint') ? stringify(value) : JSON.stringify(value)) ?? 'null';
}

/** Whether the value, or any value nested in its arrays and objects, passes the test. */
export function someValue(value: unknown, test: (value: unknown) => boolean): boolean {
  if (test(value)) return true;
  if (Array.isArray(value)) return value.some((item) => someValue(item, test));
  if (value && typeof value === 'object') {
    for (const key in value) if (someValue((value as Record<string, unknown>)[key], test)) return true;
  }
  return false;
}

/** An integer as the suite holds it: a number where a double holds it exactly, else a bigint. */
export type ExactInt = number | bigint;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Whether a value is an int64 held exactly (a number only while it is a safe integer). */
export function isInt64(value: unknown): value is ExactInt {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX;
}

/** A JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isInt(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
}

/** Exact integer equality across number and bigint. */
export function sameInteger(a: unknown, b: unknown): boolean {
  return isInt(a) && isInt(b) && BigInt(a) === BigInt(b);
}

/** Deep equality that treats 5 and 5n as equal. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (isInt(a) || isInt(b)) return sameInteger(a, b) || a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && jsonEqual(ra[k], rb[k]));
  }
  return Object.is(a, b);
}

/** How many names the parsed value holds, nested ones included. */
export function countNames(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + countNames(item), 0);
  if (!value || typeof value !== 'object') return 0;
  let count = 0;
  for (const key in value) count += 1 + countNames((value as Record<string, unknown>)[key]);
  return count;
}

/**
 * How a JSON text repeats a name within one object (RFC 8259 §4: "The names within an object SHOULD
 * be unique"), given how many names it writes (scanJson) and the value it parsed to; undefined where
 * every name is unique. A parser keeps one of the values (the native one the last), so the text
 * holds more names than the value. The text is asked for only then.
 */
export function repeatedNames(written: number, parsed: JsonValue, text: () => string): string | undefined {
  if (written === countNames(parsed)) return undefined;
  const differing = new Set<string>();
  try {
    parse(text(), null, {
      parseNumber,
      onDuplicateKey: ({ key, oldValue, newValue }) => {
        if (differing.size < 3) differing.add(`"${key}": ${stringifyJson(oldValue)} then ${stringifyJson(newValue)}`);
        return newValue;
      },
    });
  } catch {
    return undefined;
  }
  return differing.size ? `a name repeated within an object, with different values: ${[...differing].join('; ')}` : 'a name repeated within an object, with the same value';
}
