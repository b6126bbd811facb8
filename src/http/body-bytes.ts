/** A request body: text, sent as UTF-8, or bytes as they are, which need not be UTF-8 at all. */
export type RequestBody = string | Uint8Array;

const inRange = (byte: number | undefined, low: number, high: number) => byte !== undefined && byte >= low && byte <= high;

/** The length of the well-formed UTF-8 sequence at `at` (Unicode §3.9, table 3-7), 0 where none starts. */
function sequenceAt(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!;
  if (lead <= 0x7f) return 1;
  const [b1, b2, b3] = [bytes[at + 1], bytes[at + 2], bytes[at + 3]];
  const tail = (byte: number | undefined) => inRange(byte, 0x80, 0xbf);
  if (inRange(lead, 0xc2, 0xdf)) return tail(b1) ? 2 : 0;
  if (lead === 0xe0) return inRange(b1, 0xa0, 0xbf) && tail(b2) ? 3 : 0;
  if (lead === 0xed) return inRange(b1, 0x80, 0x9f) && tail(b2) ? 3 : 0;
  if (inRange(lead, 0xe1, 0xef)) return tail(b1) && tail(b2) ? 3 : 0;
  if (lead === 0xf0) return inRange(b1, 0x90, 0xbf) && tail(b2) && tail(b3) ? 4 : 0;
  if (lead === 0xf4) return inRange(b1, 0x80, 0x8f) && tail(b2) && tail(b3) ? 4 : 0;
  if (inRange(lead, 0xf1, 0xf3)) return tail(b1) && tail(b2) && tail(b3) ? 4 : 0;
  return 0;
}

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

const hexByte = (byte: number) => `\\x${byte.toString(16).padStart(2, '0')}`;

/**
 * The bytes decoded as UTF-8, each byte that starts no well-formed sequence written `\xHH`, and so are
 * control characters other than tab and line breaks (a UTF-16 body's NULs); undefined when all are UTF-8.
 */
export function notUtf8Shown(bytes: Uint8Array): string | undefined {
  let shown = '';
  let start = 0;
  let broken = false;
  for (let at = 0; at < bytes.length; ) {
    const length = sequenceAt(bytes, at);
    if (length > 0) {
      at += length;
      continue;
    }
    broken = true;
    shown += Buffer.from(bytes.subarray(start, at)).toString('utf8') + hexByte(bytes[at]!);
    start = ++at;
  }
  return broken ? (shown + Buffer.from(bytes.subarray(start)).toString('utf8')).replace(CONTROL, (c) => hexByte(c.charCodeAt(0))) : undefined;
}

/**
 * The body as reports show it: text, and for bytes that are not UTF-8 their hex as well (`bodyHex`),
 * so a replay sends them as they went; `body` then writes each byte outside UTF-8 as `\xHH`.
 */
export function shownBody(body: RequestBody): { body: string; bodyHex?: string } {
  if (typeof body === 'string') return { body };
  const shown = notUtf8Shown(body);
  return shown === undefined ? { body: Buffer.from(body).toString('utf8') } : { body: shown, bodyHex: Buffer.from(body).toString('hex') };
}

const printable = (byte: number) => byte >= 0x20 && byte <= 0x7e && byte !== 0x27 && byte !== 0x5c;

/**
 * A POSIX `printf` command that writes these very bytes, NULs included, in any sh (dash as much as
 * bash): each byte outside printable ASCII, the quote, the backslash and a leading '-', as a three-digit octal escape.
 */
export function printfCommand(bytes: Uint8Array): string {
  // A format starting with '-' would be read as an option: that byte goes escaped too.
  const format = Array.from(bytes, (byte, i) => (byte === 0x25 ? '%%' : printable(byte) && !(i === 0 && byte === 0x2d) ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`)).join('');
  return `printf '${format}'`;
}
