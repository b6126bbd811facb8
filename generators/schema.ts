import fc from 'fast-check';
import type { SchemaObject } from '../src/contract/model.ts';

import { INT64_MAX, INT64_MIN } from '../src/json/lossless.ts';

export { INT64_MAX, INT64_MIN };
const SAFE = 2n ** 53n;

/** Every int64, with the edges (0, ±2^53, the int64 limits) drawn often. */
export function int64(): fc.Arbitrary<number | bigint> {
  const exact = (v: bigint): number | bigint => (v >= -SAFE + 1n && v <= SAFE - 1n ? Number(v) : v);
  return fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 1000 }), weight: 3 },
    { arbitrary: fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map(exact), weight: 3 },
    { arbitrary: fc.constantFrom(0n, SAFE - 1n, SAFE, SAFE + 1n, -SAFE - 1n, INT64_MAX, INT64_MIN, INT64_MAX - 1n).map(exact), weight: 2 },
  );
}

/**
 * Any code point, lone surrogates included. fast-check's own 'binary' unit can map a character back
 * to its index, a table of all 1.1 million code points (~85 MB of heap) built on first use.
 */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));

/** 41 to 20,000 characters: a short random pattern repeated, not 20,000 draws of one character each. */
function longString(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 16 }), fc.integer({ min: 41, max: 20_000 }))
    .map(([pattern, length]) => pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length));
}

/**
 * Strings as the spec leaves them: any length, any Unicode scalar, empty included. Long ones are
 * rare (1 in 50): they come back in every 100-animal listing, which they would otherwise swell.
 */
export function anyString(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 29 },
    { arbitrary: fc.string({ unit: anyCodePoint, maxLength: 40 }), weight: 10 },
    { arbitrary: fc.constantFrom('', ' ', '  padded  ', 'Ünïcödé 🐈‍⬛ 名前', 'a\u0000b', 'line\nbreak', '"quoted" \\ /'), weight: 10 },
    { arbitrary: longString(), weight: 1 },
  );
}

/** A value valid for the schema, built by composition from what the schema states. */
export function fromSchema(schema: SchemaObject): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.allOf) {
    return fc.tuple(...schema.allOf.map((part) => fromSchema(part as SchemaObject))).map((parts) => Object.assign({}, ...parts));
  }
  switch (schema.type) {
    case 'string':
      return anyString();
    case 'integer':
      if (schema.format === 'int64') return int64();
      return fc.integer({ min: schema.minimum ?? -(2 ** 31), max: schema.maximum ?? 2 ** 31 - 1 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(fromSchema(schema.items as SchemaObject), { maxLength: 5 });
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, sub]) => [name, fromSchema(sub as SchemaObject)]),
      );
      const required = schema.required ?? [];
      const only = Object.fromEntries(Object.entries(properties).filter(([name]) => required.includes(name)));
      // Even odds for "optional fields absent", "all present" and any mix: record() alone rarely omits them all.
      return fc.oneof(fc.record(only), fc.record(properties), fc.record(properties, { requiredKeys: required }));
    }
    default:
      throw new Error(`no generator for schema type ${String(schema.type)}`);
  }
}
