import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isDigit, MINUS, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './chars.ts';

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

const LOWER_E = 0x65;
const UPPER_E = 0x45;

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** A character that may continue a number literal: digits, sign, point, exponent. */
const isNumberPart = (c: number) => isDigit(c) || c === MINUS || c === 0x2b || c === 0x2e || c === LOWER_E || c === UPPER_E;

// A run of whitespace or of a string's plain characters is skipped by the regular expression engine,
// several times faster than a loop over char codes: 4 MB of padding is a few milliseconds, not twenty.
const WHITESPACE_RUN = /[ \t\n\r]+/y;
const STRING_RUN = /[^"\\]+/y;

/** Where the run the sticky expression matches at `at` ends. */
function runEnd(run: RegExp, text: string, at: number): number {
  run.lastIndex = at;
  return run.test(text) ? run.lastIndex : at;
}

/** The index of the quote that closes the string opened at `open`, escapes skipped (the text's length if none does). */
function stringEnd(text: string, open: number): number {
  const length = text.length;
  // Most strings are short: a loop is quicker over a few characters, the expression over many.
  const inlineUntil = Math.min(length, open + 33);
  let i = open + 1;
  for (; i < inlineUntil; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i += 2;
    else i = runEnd(STRING_RUN, text, i);
  }
  return length;
}

/** What one pass over a JSON text finds (scanJson). */
export interface JsonScan {
  /** What puts the text past a bound ("the body nests deeper than 64 levels"), if anything. */
  problem?: string;
  /** The names it writes: string literals a colon follows (more than the parsed value holds where one repeats). */
  names: number;
  /** Whether a number literal may be an integer a double rounds: 16 digits or more before any exponent, or an exponent. */
  inexactNumbers: boolean;
  /** The outermost value, where it is an array or an object: which, and its items where they were all counted. */
  top?: TopLevel;
}

/** The shape of a text's outermost value, told without parsing it. */
export interface TopLevel {
  object: boolean;
  /** Its elements or members, where the scan counted them all (not where it stopped at the depth bound). */
  items?: number;
}

/**
 * One pass over the text: whether it is past a bound, how many names it writes, whether a double
 * may round one of its numbers. Linear in the text, keeping no more than maxDepth counters: the text
 * need not be valid JSON (the parser judges that after).
 */
export function scanJson(text: string, bounds: JsonBounds = JSON_BOUNDS): JsonScan {
  // Per open container: whether it is an object, and how many items it holds so far (0 while empty).
  const isObject: boolean[] = [];
  const items: number[] = [];
  let names = 0;
  let inexactNumbers = false;
  /** Whether the scan went on to the end, so that the outermost container's items were all counted. */
  let whole = true;
  const found = (problem?: string): JsonScan => {
    const scan: JsonScan = problem === undefined ? { names, inexactNumbers } : { problem, names, inexactNumbers };
    if (isObject.length > 0) scan.top = whole ? { object: isObject[0]!, items: items[0]! } : { object: isObject[0]! };
    return scan;
  };
  if (text.length > bounds.maxBytes || (text.length * 3 > bounds.maxBytes && Buffer.byteLength(text) > bounds.maxBytes)) {
    return found(`a body of ${count(Buffer.byteLength(text))} bytes (the suite parses at most ${count(bounds.maxBytes)})`);
  }
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
  /** Whether the last token was a string: a colon next makes it a name. */
  let afterString = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      // An indentation is a few characters: the expression only past sixteen.
      const inlineUntil = Math.min(length, i + 16);
      while (i + 1 < inlineUntil && isWhitespace(text.charCodeAt(i + 1))) i++;
      if (isWhitespace(text.charCodeAt(i + 1))) i = runEnd(WHITESPACE_RUN, text, i) - 1;
      continue;
    }
    if (c === COLON) {
      if (afterString) names++;
      afterString = false;
      continue;
    }
    afterString = false;
    if (depth > 0 && items[depth - 1] === 0 && c !== CLOSE_ARRAY && c !== CLOSE_OBJECT) items[depth - 1] = 1;
    if (c === QUOTE) {
      i = stringEnd(text, i);
      afterString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth >= bounds.maxDepth) {
        whole = false;
        return found(over ? tooMany(over.level) : `the body nests deeper than ${count(bounds.maxDepth)} levels (the suite reads at most ${count(bounds.maxDepth)})`);
      }
      isObject[depth] = c === OPEN_OBJECT;
      items[depth] = 0;
      depth++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth === 0) continue;
      if (over?.level === depth) {
        // Past its bound, a container is counted to its end, and the scan stops there.
        whole = depth === 1;
        return found(tooMany(depth));
      }
      depth--;
    } else if (c === COMMA) {
      if (depth === 0) continue;
      const n = ++items[depth - 1]!;
      if (!over && n > (isObject[depth - 1] ? bounds.maxMembers : bounds.maxElements)) over = { level: depth, object: isObject[depth - 1]! };
    } else if (isDigit(c) || c === MINUS) {
      let digits = 0;
      let mantissaDigits = -1;
      for (; i < length; i++) {
        const part = text.charCodeAt(i);
        if (!isNumberPart(part)) break;
        if (isDigit(part)) digits++;
        else if (part === LOWER_E || part === UPPER_E) mantissaDigits = digits;
      }
      if (digits > bounds.maxDigits && !over) {
        whole = false;
        return found(`a number of ${count(digits)} digits (the suite reads at most ${count(bounds.maxDigits)})`);
      }
      if (mantissaDigits >= 0 || digits >= 16) inexactNumbers = true;
      i--;
    }
  }
  return found(over ? tooMany(over.level) : undefined);
}

/** What puts the text past a bound, or undefined (scanJson). */
export function boundsProblem(text: string, bounds: JsonBounds = JSON_BOUNDS): string | undefined {
  return scanJson(text, bounds).problem;
}
