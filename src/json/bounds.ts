/**
 * Bounds on a JSON text, checked in one pass over it before it is parsed, so that no parser, schema
 * or check ever works on a body no real answer needs. A real answer is at most a page of 100 Pets
 * (a handful of members each, two levels deep) or an Error (three members); the bounds leave a
 * hundredfold room. docs/fault-matrix.md ("Hostile answers") lists them.
 */
export interface JsonBounds {
  /** Arrays and objects open at once. */
  maxDepth: number;
  /** Members of one object. */
  maxMembers: number;
  /** Elements of one array. */
  maxElements: number;
  /** Digits of one number literal (its fraction and exponent included). */
  maxDigits: number;
  /** UTF-8 bytes of the whole text (the client stops reading at --max-body before). */
  maxBytes: number;
}

export const JSON_BOUNDS: JsonBounds = {
  maxDepth: 64,
  maxMembers: 1_000,
  maxElements: 10_000,
  maxDigits: 1_000,
  maxBytes: 64 * 1024 * 1024,
};

const count = (n: number) => n.toLocaleString('en-US');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** A character that may continue a number literal: digits, sign, point, exponent. */
const isNumberPart = (c: number) => isDigit(c) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/**
 * What puts the text past a bound ("the body nests deeper than 64 levels", "an object with 200,000
 * members"), or undefined. Linear in the text, and it keeps no more than maxDepth counters: the
 * text need not be valid JSON (the parser judges that after).
 */
export function boundsProblem(text: string, bounds: JsonBounds = JSON_BOUNDS): string | undefined {
  if (text.length > bounds.maxBytes || (text.length * 3 > bounds.maxBytes && Buffer.byteLength(text) > bounds.maxBytes)) {
    return `a body of ${count(Buffer.byteLength(text))} bytes (the suite parses at most ${count(bounds.maxBytes)})`;
  }
  // Per open container: whether it is an object, and how many items it holds so far (0 while empty).
  const isObject: boolean[] = [];
  const items: number[] = [];
  let depth = 0;
  /** The first container past its bound, counted on to its end. */
  let over: { level: number; object: boolean } | undefined;
  const tooMany = (level: number): string => {
    const object = isObject[level - 1]!;
    const n = items[level - 1]!;
    return object
      ? `an object with ${count(n)} members (the suite reads at most ${count(bounds.maxMembers)})`
      : `an array of ${count(n)} elements (the suite reads at most ${count(bounds.maxElements)})`;
  };
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) continue;
    if (depth > 0 && items[depth - 1] === 0 && c !== CLOSE_ARRAY && c !== CLOSE_OBJECT) items[depth - 1] = 1;
    if (c === QUOTE) {
      // Skip the string, escapes included; an unterminated one ends the text.
      for (i++; i < length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth >= bounds.maxDepth) return over ? tooMany(over.level) : `the body nests deeper than ${count(bounds.maxDepth)} levels`;
      isObject[depth] = c === OPEN_OBJECT;
      items[depth] = 0;
      depth++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth === 0) continue;
      if (over?.level === depth) return tooMany(depth);
      depth--;
    } else if (c === COMMA) {
      if (depth === 0) continue;
      const n = ++items[depth - 1]!;
      if (!over && n > (isObject[depth - 1] ? bounds.maxMembers : bounds.maxElements)) over = { level: depth, object: isObject[depth - 1]! };
    } else if (isDigit(c) || c === 0x2d) {
      let digits = 0;
      for (; i < length && isNumberPart(text.charCodeAt(i)); i++) if (isDigit(text.charCodeAt(i))) digits++;
      if (digits > bounds.maxDigits && !over) return `a number of ${count(digits)} digits (the suite reads at most ${count(bounds.maxDigits)})`;
      i--;
    }
  }
  return over ? tooMany(over.level) : undefined;
}
