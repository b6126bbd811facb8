/**
 * src/http/body-bytes.ts: bodies that are not UTF-8 are shown without losing a byte, and the curl
 * line of one hands curl those very bytes (bash expands it, with `printf` in place of curl).
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ansiCQuoted, curlDataArgument, notUtf8Shown, shownBody } from '../../src/http/body-bytes.ts';
import { curlLine } from '../../src/http/curl.ts';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const isUtf8 = (bytes: Uint8Array) => {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** The bytes bash gives `printf %s` for a shell word. */
function bytesOf(word: string): Buffer {
  return execFileSync('bash', ['-c', `printf '%s' ${word}`], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 5_000 });
}

/** The bytes a shown body stands for: each `\\xHH` that byte, the text between in UTF-8. */
const bytesFrom = (shown: string) => Buffer.concat(shown.split(/\\x([0-9a-f]{2})/).map((part, i) => (i % 2 === 1 ? Buffer.from([parseInt(part, 16)]) : Buffer.from(part))));

/** Bytes near UTF-8's edges: lead bytes, continuation bytes and the bytes around the ranges table 3-7 draws. */
const edgyBytes = fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff)), { maxLength: 12 }).map((bytes) => Uint8Array.from(bytes));

describe('notUtf8Shown', () => {
  it('finds no fault exactly where a strict decoder finds none, and keeps every byte it writes out', () => {
    fc.assert(
      fc.property(fc.oneof(edgyBytes, fc.string({ unit: 'grapheme' }).map((text) => new Uint8Array(Buffer.from(text)))), (bytes) => {
        const shown = notUtf8Shown(bytes);
        expect(shown === undefined).toBe(isUtf8(bytes));
        // A backslash of the body's own would read as the start of an escape.
        if (shown !== undefined && !bytes.includes(0x5c)) expect(bytesFrom(shown).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 2_000, seed: 42 },
    );
  });

  it('writes each byte outside UTF-8 as \\xHH and decodes the rest', () => {
    const cases: [number[], string][] = [
      [[0x63, 0x61, 0x66, 0xe9], 'caf\\xe9'],
      [[0xc3, 0xa9, 0x80], 'é\\x80'],
      [[0xc0, 0xaf, 0x41], '\\xc0\\xafA'],
      [[0xed, 0xa0, 0x80], '\\xed\\xa0\\x80'],
      [[0xf0, 0x9f, 0x90, 0x88, 0xff], '🐈\\xff'],
      [[0xe2, 0x82], '\\xe2\\x82'],
      [[0xff, 0xfe, 0x7b, 0x00, 0x09, 0x00], '\\xff\\xfe{\\x00\t\\x00'],
    ];
    for (const [bytes, shown] of cases) expect(notUtf8Shown(Uint8Array.from(bytes)), shown).toBe(shown);
  });
});

describe('shownBody', () => {
  it('keeps text as it is, and gives bytes that are not UTF-8 in hex beside their shown form', () => {
    expect(shownBody('{"message":"é"}')).toEqual({ body: '{"message":"é"}' });
    expect(shownBody(Buffer.from('{"message":"é"}'))).toEqual({ body: '{"message":"é"}' });
    expect(shownBody(Buffer.from([0x7b, 0xe9, 0x7d]))).toEqual({ body: '{\\xe9}', bodyHex: '7be97d' });
  });
});

describe('ansiCQuoted and the curl line of a body that is not UTF-8', () => {
  it('bash turns the quoted word back into the very bytes, quotes and backslashes included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (bytes) => {
        // printf %s stops at a NUL, as the shell's words do.
        const word = Uint8Array.from(bytes.filter((byte) => byte !== 0));
        expect(bytesOf(ansiCQuoted(word)).equals(Buffer.from(word))).toBe(true);
      }),
      { numRuns: 30, seed: 7 },
    );
    expect(bytesOf(ansiCQuoted(Buffer.from(`it's a \\ "quote"`))).toString()).toBe(`it's a \\ "quote"`);
  });

  it("gives curl the very bytes through bash, NULs included (a file from bash's printf where a word would end at one)", () => {
    const sentBy = (argument: string) => (argument.startsWith('@') ? execFileSync('bash', ['-c', `cat ${argument.slice(1)}`], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 5_000 }) : bytesOf(argument));
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.nat(), (bytes, at) => {
        const withNul = Uint8Array.from([...bytes.subarray(0, at % bytes.length), 0, ...bytes.subarray(at % bytes.length)]);
        const argument = curlDataArgument(withNul);
        expect(argument.startsWith('@<(printf ')).toBe(true);
        expect(sentBy(argument).equals(Buffer.from(withNul))).toBe(true);
      }),
      { numRuns: 30, seed: 11 },
    );
    expect(sentBy(curlDataArgument(Buffer.from('100% \\ it\'s \x00 "x"'))).toString()).toBe('100% \\ it\'s \x00 "x"');
    expect(curlDataArgument(Buffer.from([0xe9]))).toBe("$'\\xe9'");
  });

  it('sends the recorded bytes, not their shown form', () => {
    const bytes = Buffer.concat([Buffer.from('{"message":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const line = curlLine({ method: 'POST', url: 'http://127.0.0.1:9/messages', headers: { 'Content-Type': 'application/json' }, ...shownBody(bytes) });
    expect(line).toContain(`--data-binary $'{"message":"caf\\xe9"}'`);
    const word = line.slice(line.indexOf('--data-binary ') + '--data-binary '.length);
    expect(bytesOf(word).equals(bytes)).toBe(true);
  });
});
