// Whether a text is JSON at all (RFC 8259 §2), without building any value: for a text past a bound
// of src/json/bounds.ts, which no parser then reads, so that one that is not JSON is judged as such
// and not put down to the suite's own limits. Linear in the text; iterative, however deep.

import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isDigit, MINUS, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './chars.ts';

const SPACE = /[ \t\n\r]*/y;
// eslint-disable-next-line no-control-regex -- a JSON string holds no raw control character: that is what it refuses
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;


/** Where the text stops being JSON (a UTF-16 index), or undefined where it is one JSON value. */
export function jsonSyntaxError(text: string): number | undefined {
  // Per open container, 1 for an object: at most one per two characters.
  const objects = new Uint8Array((text.length >> 1) + 1);
  let depth = 0;
  let at = 0;
  const skip = () => {
    SPACE.lastIndex = at;
    SPACE.test(text);
    at = SPACE.lastIndex;
  };
  const take = (token: RegExp): boolean => {
    token.lastIndex = at;
    if (!token.test(text)) return false;
    at = token.lastIndex;
    return true;
  };
  /** A member's name and its colon; false where they are not there. */
  const name = (): boolean => {
    skip();
    if (!take(STRING)) return false;
    skip();
    if (text.charCodeAt(at) !== COLON) return false;
    at++;
    return true;
  };
  for (;;) {
    // A value is due.
    skip();
    const c = text.charCodeAt(at);
    let closed = false;
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      const object = c === OPEN_OBJECT;
      objects[depth++] = object ? 1 : 0;
      at++;
      skip();
      if (text.charCodeAt(at) === (object ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        depth--;
        at++;
        closed = true;
      } else if (!object || name()) {
        continue;
      } else {
        return at;
      }
    }
    if (!closed && !take(c === QUOTE ? STRING : c === MINUS || isDigit(c) ? NUMBER : LITERAL)) return at;
    // A value is done: a comma, a close, or the end.
    for (;;) {
      skip();
      if (depth === 0) return at === text.length ? undefined : at;
      const object = objects[depth - 1] === 1;
      const next = text.charCodeAt(at);
      if (next === (object ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        depth--;
        at++;
        continue;
      }
      if (next !== COMMA) return at;
      at++;
      if (object && !name()) return at;
      break;
    }
  }
}
