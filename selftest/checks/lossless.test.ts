/** src/json/lossless.ts: int64 exact, non-integers never passed off as integers, bytes checked. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import { isInt, jsonEqual, JsonDecodeError, parseJson, repeatedNames, sameInteger, stringifyJson } from '../../src/json/lossless.ts';
import { scanJson } from '../../src/json/bounds.ts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

describe('parseJson and stringifyJson', () => {
  it('keep the int64 extremes exact both ways', () => {
    const text = '{"max":9223372036854775807,"min":-9223372036854775808,"nearMax":9223372036854775806,"unsafe":9007199254740993}';
    const value = parseJson(text) as Record<string, unknown>;
    expect(value.max).toBe(INT64_MAX);
    expect(value.min).toBe(INT64_MIN);
    expect(value.nearMax).toBe(INT64_MAX - 1n);
    expect(value.unsafe).toBe(2n ** 53n + 1n);
    expect(stringifyJson(value)).toBe(text);
  });

  it('read an integer written with a zero fraction as that integer, a long one exact', () => {
    expect(parseJson('[15.0, 9223372036854775807.0, -9223372036854775808.00, 9007199254740993.0]')).toEqual([15, INT64_MAX, INT64_MIN, 2n ** 53n + 1n]);
    expect(parseJson('[9223372036854775807.5, 1.0e3]')).toEqual([Number('9223372036854775807.5'), 1000]);
  });

  it('keep safe integers as plain numbers', () => {
    expect(parseJson('[0,-1,9007199254740991,-9007199254740991]')).toEqual([0, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]);
  });

  it('round-trip every int64 exactly (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), (n) => {
        const text = stringifyJson({ id: n });
        expect(text).toBe(`{"id":${n}}`);
        expect(sameInteger((parseJson(text) as { id: unknown }).id, n)).toBe(true);
      }),
      { numRuns: 200, seed: 42 },
    );
  });

  it('read an integer written with an exponent exactly, as JSON Schema takes it', () => {
    expect(parseJson('[9007199254740993e0, 9.007199254740993e15, 90071992547409930e-1, 1e18, 9223372036854775807E0, -92233720368547758.08e2]')).toEqual([
      2n ** 53n + 1n,
      2n ** 53n + 1n,
      2n ** 53n + 1n,
      10n ** 18n,
      INT64_MAX,
      INT64_MIN,
    ]);
    expect(parseJson('[7e0, 1.5e1, 0.05e2, 150e-1, 1e-7, 1.5e-1, 1e1000000]')).toEqual([7, 15, 5, 15, 1e-7, 0.15, Infinity]);
    // Past 20 digits (int64 has 19) the double: 1e999 is not built as a thousand digits.
    expect(parseJson('[1e19, 1e20, 1e999, 123456789012345678901234567890]')).toEqual([10n ** 19n, 1e20, Infinity, 123456789012345678901234567890n]);
    expect(parseJson('{"id":157,"categoryId":9007199254740993e0}')).toEqual({ id: 157, categoryId: 2n ** 53n + 1n });
  });

  it('parse 1e400 to Infinity, which is not an integer', () => {
    const value = parseJson('{"categoryId":1e400}') as { categoryId: unknown };
    expect(value.categoryId).toBe(Infinity);
    expect(isInt(value.categoryId)).toBe(false);
    expect(isInt(parseJson('-1e400'))).toBe(false);
  });

  it('parse 1.5 as a non-integer number', () => {
    expect(parseJson('1.5')).toBe(1.5);
    expect(isInt(parseJson('1.5'))).toBe(false);
  });

  it('throw JsonDecodeError on invalid UTF-8 bytes', () => {
    for (const bytes of [[0x22, 0xff, 0x22], [0x22, 0xc3, 0x22], [0x22, 0xed, 0xa0, 0x80, 0x22], [0x22, 0xc0, 0xaf, 0x22]]) {
      expect(() => parseJson(Uint8Array.from(bytes))).toThrow(JsonDecodeError);
    }
    expect(() => parseJson(Buffer.from([0x7b, 0xfe, 0x7d]))).toThrow(/UTF-8/);
  });

  it('decode valid UTF-8 bytes, non-ASCII included', () => {
    expect(parseJson(Buffer.from('{"name":"Ünïcödé 🐈‍⬛ 名前"}', 'utf8'))).toEqual({ name: 'Ünïcödé 🐈‍⬛ 名前' });
  });

  it('throw JsonDecodeError on text that is not JSON', () => {
    for (const text of ['', '{', "{'a':1}", '{"a":1,}', 'name=Rex', 'NaN', '[1,]']) {
      expect(() => parseJson(text), JSON.stringify(text)).toThrow(JsonDecodeError);
    }
  });

  it('give what lossless-json gives, each integer exact however written, long integers and digit-filled strings included (property)', () => {
    // An integer by arithmetic on its mantissa and exponent, where parseJson works on the digits' text.
    const exactly = (n: string): number | bigint => {
      const [, integer = '', fraction = '', exponent = '0'] = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(n) ?? [];
      const mantissa = BigInt(`${n.startsWith('-') ? '-' : ''}${integer}${fraction}`);
      const scale = Number(exponent) - fraction.length;
      const whole = scale >= 0 ? (scale < 1_000 ? mantissa * 10n ** BigInt(scale) : undefined) : mantissa % 10n ** BigInt(-scale) === 0n ? mantissa / 10n ** BigInt(-scale) : undefined;
      // Written with an exponent or a fraction, only an integer of up to 20 digits is read exactly (int64 has 19).
      const written = /^-?\d+(\.0+)?$/.test(n);
      if (whole === undefined || (!written && (whole < 0n ? -whole : whole).toString().length > 20)) return Number(n);
      return Number.isSafeInteger(Number(whole)) ? Number(whole) : whole;
    };
    const reference = (text: string) =>
      losslessParse(text, null, {
        parseNumber: exactly,
        onDuplicateKey: ({ newValue }: { newValue: unknown }) => newValue,
      });
    const int64 = fc.bigInt({ min: INT64_MIN, max: INT64_MAX });
    const leaf = fc.oneof(fc.jsonValue(), int64, int64.map(String), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const document = fc.oneof(leaf, fc.array(leaf), fc.dictionary(fc.string(), leaf));
    fc.assert(
      fc.property(document, (value) => {
        const text = stringifyJson(value);
        expect(jsonEqual(parseJson(text), reference(text)), text.slice(0, 200)).toBe(true);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('write exactly what lossless-json writes, with and without bigints (property)', () => {
    const leaf = fc.oneof(fc.jsonValue(), fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), fc.string({ unit: 'binary' }), fc.constant(undefined));
    const document = fc.oneof(leaf, fc.array(leaf), fc.dictionary(fc.string(), leaf));
    fc.assert(
      fc.property(document, (value) => {
        expect(stringifyJson(value)).toBe(losslessStringify(value) ?? 'null');
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it('read a long integer after a string that holds quotes, backslashes and digits', () => {
    const text = String.raw`{"a":"x\\\"12345678901234567890\\","b":12345678901234567890,"c":[-9223372036854775808,1.2345678901234567e3]}`;
    expect(parseJson(text)).toEqual({ a: 'x\\"12345678901234567890\\', b: 12345678901234567890n, c: [INT64_MIN, 1234.5678901234567] });
  });

  it('never take a string for a marked integer, however it is escaped', () => {
    for (const forged of ['"\\u0000int64:12345678901234567890"', '"\\u0000\\u0069nt64:12345678901234567890"']) {
      const text = `[${forged},12345678901234567890,"a\\u0000b"]`;
      expect(parseJson(text), text).toEqual(['\u0000int64:12345678901234567890', 12345678901234567890n, 'a\u0000b']);
    }
  });

  it('keep the last of duplicate keys', () => {
    expect(parseJson('{"a":1,"a":2}')).toEqual({ a: 2 });
  });
});

describe('jsonEqual', () => {
  it('treats 5 and 5n as equal', () => {
    expect(jsonEqual(5, 5n)).toBe(true);
    expect(jsonEqual(5n, 5)).toBe(true);
    expect(jsonEqual({ id: 5, tags: [1n] }, { id: 5n, tags: [1] })).toBe(true);
  });

  it('tells int64 neighbours apart', () => {
    expect(jsonEqual(INT64_MAX, INT64_MAX - 1n)).toBe(false);
    expect(jsonEqual(2n ** 53n + 1n, 2 ** 53)).toBe(false);
  });

  it('tells a number from the string of its digits', () => {
    expect(jsonEqual(5, '5')).toBe(false);
    expect(jsonEqual('9223372036854775807', INT64_MAX)).toBe(false);
  });

  it('compares objects by keys and values, arrays in order', () => {
    expect(jsonEqual({ a: 1, b: 'x' }, { b: 'x', a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });
});

describe('repeatedNames', () => {
  const repeatedNamesIn = (text: string) => repeatedNames(scanJson(text).names, parseJson(text), () => text);
  const textOf = (value: unknown) => JSON.stringify(value, null, 1);

  it('finds none in any text JSON.stringify writes, names in strings included (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = textOf(value);
        expect(repeatedNamesIn(text)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('finds a name written twice into any object of such a text (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.jsonValue(), (object, again) => {
        const [name] = Object.keys(object);
        const text = `${JSON.stringify(object).slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(again)}}`;
        expect(repeatedNamesIn(`[${text}]`)).toMatch(/^a name repeated within an object/);
      }),
      { numRuns: 300 },
    );
  });

  it('counts every name a text writes, and only names: escaped quotes, colons and braces inside strings included (property)', () => {
    const keysIn = (value: unknown): number =>
      Array.isArray(value) ? value.reduce<number>((sum, item) => sum + keysIn(item), 0) : value && typeof value === 'object' ? Object.entries(value).reduce((sum, [, item]) => sum + 1 + keysIn(item), 0) : 0;
    const tricky = fc.constantFrom('"', '\\', '":', '\\":', '{"a":', ' : ', '\u0000');
    const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.array(tricky).map((parts) => parts.join('')));
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 1 }), tricky) }), fc.constantFrom(undefined, 1, '\t', ' \r\n'), text, (value, indent, extra) => {
        const written = JSON.stringify([value, { [extra]: extra }], null, indent);
        expect(scanJson(written).names).toBe(keysIn(JSON.parse(written)));
      }),
      { numRuns: 300 },
    );
  });

  it('names the differing values, each once', () => {
    const text = '[{"a":1,"a":2,"b":{"c":"x","c":"x"}},{"a":1,"a":2}]';
    expect(repeatedNamesIn(text)).toBe('a name repeated within an object, with different values: "a": 1 then 2');
  });
});
