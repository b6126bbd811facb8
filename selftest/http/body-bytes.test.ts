/**
 * src/http/body-bytes.ts: bodies that are not UTF-8 are shown without losing a byte, and the curl
 * line of one hands curl those very bytes in sh and bash alike (curl replaced by a shell function).
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notUtf8Shown, printfCommand, shownBody } from '../../src/http/body-bytes.ts';
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

/** What `script` writes to stdout in `shell`. */
function run(shell: string, script: string): Buffer {
  return execFileSync(shell, ['-c', script], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 5_000 });
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

describe('printfCommand and the curl line of a body that is not UTF-8', () => {
  it('sh (dash where it is /bin/sh) and bash write the very bytes, NULs, quotes, backslashes and % included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (bytes) => {
        for (const shell of ['sh', 'bash']) expect(run(shell, printfCommand(bytes)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 30, seed: 7 },
    );
    expect(run('sh', printfCommand(Buffer.from('100% \\ it\'s \x00 "x"'))).toString()).toBe('100% \\ it\'s \x00 "x"');
    expect(run('sh', printfCommand(Buffer.from('-n x'))).toString()).toBe('-n x');
    expect(printfCommand(Buffer.from([0xe9, 0x25]))).toBe("printf '\\351%%'");
  });

  it('the pasted line hands curl the recorded bytes on its stdin (--data-binary @-), not their shown form', () => {
    const bytes = Buffer.concat([Buffer.from('{"message":"caf'), Buffer.from([0xe9, 0x00]), Buffer.from('"}')]);
    const line = curlLine({ method: 'POST', url: 'http://127.0.0.1:9/messages', headers: { 'Content-Type': 'application/json' }, ...shownBody(bytes) });
    expect(line).toMatch(/^printf '[^']*' \| curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:9\/messages' .*--data-binary @-$/);
    // curl stands in as a shell function that writes what it reads.
    for (const shell of ['sh', 'bash']) expect(run(shell, `curl() { cat; }; ${line}`).equals(bytes)).toBe(true);
  });
});
