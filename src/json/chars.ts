// The char codes of JSON's structural characters (RFC 8259 §2), for the scans that read a text
// without a parser (bounds.ts, syntax.ts).

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const MINUS = 0x2d;

export const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
