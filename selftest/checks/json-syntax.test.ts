// src/json/syntax.ts: a text past a bound is told JSON or not without a parser, so one that is not
// JSON fails as that rather than being put down to the suite's own limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBoundsError, JsonDecodeError, parseJson } from '../../src/json/lossless.ts';
import { jsonSyntaxError } from '../../src/json/syntax.ts';

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonSyntaxError', () => {
  it('agrees with JSON.parse on any JSON text and on its every cut and splice (property)', () => {
    const texts = fc.jsonValue().chain((value) => {
      const text = JSON.stringify(value, null, 1) ?? 'null';
      return fc.tuple(fc.nat(text.length), fc.nat(text.length), fc.constantFrom('', ',', ']', '}', ':', '"', 'x', '-', '0', ' ', '[', '{', 'tru')).map(([a, b, insert]) => [text, text.slice(0, a) + insert + text.slice(Math.min(a, b))]);
    });
    fc.assert(
      fc.property(texts, ([whole, changed]) => {
        expect(jsonSyntaxError(whole!)).toBeUndefined();
        expect(jsonSyntaxError(changed!) === undefined, changed).toBe(isJson(changed!));
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads a million levels without a stack', () => {
    expect(jsonSyntaxError('['.repeat(1_000_000) + ']'.repeat(1_000_000))).toBeUndefined();
    expect(jsonSyntaxError('['.repeat(1_000_000))).toBe(1_000_000);
  });
});

describe('a text past a bound', () => {
  it.each([
    ['65 [ and nothing else', '['.repeat(65)],
    ['10,001 commas in an array', `[${','.repeat(10_001)}]`],
    ['an HTML page', `<html><script>var a = {${'x:1,'.repeat(2_000)}}</script></html>`],
  ])('that is not JSON (%s) is refused as not JSON', (_what, text) => {
    expect(() => parseJson(text)).toThrow(JsonDecodeError);
    expect(() => parseJson(text)).not.toThrow(JsonBoundsError);
    expect(() => parseJson(text)).toThrow(/^body is not JSON: unexpected /);
  });

  it('that is JSON is past the bound still', () => {
    expect(() => parseJson('['.repeat(65) + ']'.repeat(65))).toThrow(JsonBoundsError);
  });
});
