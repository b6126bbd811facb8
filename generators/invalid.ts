import fc from 'fast-check';
import type { SchemaObject } from '../src/contract/model.ts';
import { stringifyJson } from '../src/json/lossless.ts';
import { OTHER_MEDIA_TYPES } from './media-types.ts';
import { INT64_MAX, INT64_MIN } from './schema.ts';

/** A request body that breaks exactly one rule, named in `rule`. */
export type InvalidKind = 'missing' | 'type' | 'null' | 'not-integer' | 'range' | 'enum' | 'not-object' | 'syntax' | 'empty' | 'media-type';

export interface InvalidBody {
  rule: string;
  kind: InvalidKind;
  /** Raw text as sent; undefined sends no body. */
  body: string | undefined;
  /** null sends no Content-Type. */
  contentType: string | null;
}

const RAW = '\u0000raw\u0000';

/** The object as JSON text, with `field` set to a raw JSON literal no JS value prints as. */
function withRaw(base: Record<string, unknown>, field: string, literal: string): string {
  return stringifyJson({ ...base, [field]: RAW }).replace(JSON.stringify(RAW), literal);
}

const JSON_TYPES: Record<string, unknown[]> = {
  string: ['text', ''],
  integer: [7, -3],
  number: [1.25],
  boolean: [true, false],
  object: [{}, { nested: 1 }],
  array: [[], [1, 'a']],
};

/** Values of every JSON type the schema does not allow (integers are numbers too); for a number, also a numeric string, which a lax parser coerces. */
function wrongTypes(schema: SchemaObject): { kind: string; value: unknown }[] {
  const allowed = new Set([schema.type ?? 'string']);
  if (allowed.has('number')) allowed.add('integer');
  const wrong = Object.entries(JSON_TYPES)
    .filter(([kind]) => !allowed.has(kind as never))
    .flatMap(([kind, values]) => values.map((value) => ({ kind, value })));
  if (allowed.has('integer')) wrong.push({ kind: 'string', value: '7' }, { kind: 'string', value: '-3' });
  return wrong;
}

/** The name with its first letter's case turned: `name` as `Name`. */
function otherCase(name: string): string {
  const first = name.charAt(0);
  return (first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase()) + name.slice(1);
}

function caseVariants(value: string): string[] {
  const capital = value.charAt(0).toUpperCase() + value.slice(1);
  return [capital, value.toUpperCase(), ` ${value}`, `${value} `];
}

/** One rule and the bodies that break it (and only it). */
export interface InvalidCase {
  rule: string;
  kind: InvalidKind;
  arbitrary: fc.Arbitrary<InvalidBody>;
}

/** `categoryId` as `category_id`, or undefined for a name with no capital. */
function snakeCase(name: string): string | undefined {
  const snake = name.replace(/[A-Z]/g, (capital) => `_${capital.toLowerCase()}`);
  return snake === name ? undefined : snake;
}

/** A common other name a lenient binder may read a required string member under (`{"text": …}` for `message`). */
const STRING_ALIAS = 'text';

/**
 * Every way to break an object schema one rule at a time, derived from its required list, property
 * types, formats and enums, plus the body-level ways (not an object, not JSON, empty). A list, so a
 * suite can visit every rule, not only those a random draw happens to pick. `wrappedAs`: the name
 * a framework wraps such a body under by convention (Rails' `params.require(:pet)`), besides `data`.
 */
export function invalidCases(schema: SchemaObject, valid: fc.Arbitrary<Record<string, unknown>>, wrappedAs?: string): InvalidCase[] {
  const json = (kind: InvalidKind, rule: string, text: string | undefined): InvalidBody => ({ rule, kind, body: text, contentType: 'application/json' });
  const cases: InvalidCase[] = [];
  const add = (kind: InvalidKind, rule: string, arbitrary: fc.Arbitrary<InvalidBody>) => cases.push({ rule, kind, arbitrary });
  for (const field of schema.required ?? []) {
    add('missing', `${field} missing`, valid.map((v) => json('missing', `${field} missing`, stringifyJson(Object.fromEntries(Object.entries(v).filter(([k]) => k !== field))))));
    // Member names are case-sensitive; a binder that matches them ignoring case (Go's encoding/json, by default) takes it.
    // Binders that map snake_case to camelCase, or read a member under a common other name, take it too.
    const sub = schema.properties?.[field] as SchemaObject | undefined;
    const others = [otherCase(field), snakeCase(field), sub?.type === 'string' && field !== STRING_ALIAS && !schema.properties?.[STRING_ALIAS] ? STRING_ALIAS : undefined];
    for (const renamed of others.filter((name) => name !== undefined)) {
      const rule = `${field} missing (given as ${JSON.stringify(renamed)})`;
      add('missing', rule, valid.map((v) => json('missing', rule, stringifyJson(Object.fromEntries(Object.entries(v).map(([k, value]) => [k === field ? renamed : k, value]))))));
    }
  }
  for (const [field, sub] of Object.entries(schema.properties ?? {}) as [string, SchemaObject][]) {
    const literals: [InvalidKind, string, string][] = [];
    for (const { kind, value } of wrongTypes(sub)) literals.push(['type', `${field} of the wrong JSON type (${kind} ${stringifyJson(value)})`, stringifyJson(value)]);
    // An optional field sent as null has a clause of its own (create.null-optional): pets.ts's newPetWithNullOptional sends it.
    if (!sub.nullable && schema.required?.includes(field)) literals.push(['null', `${field} null (not nullable)`, 'null']);
    if (sub.type === 'integer') {
      literals.push(['not-integer', `${field} not an integer (1.5)`, '1.5'], ['not-integer', `${field} not an integer (1e400)`, '1e400']);
      literals.push(['syntax', `malformed JSON (${field} with a leading zero, 07)`, '07']);
      if (sub.format === 'int64') {
        literals.push(['range', `${field} above int64`, (INT64_MAX + 1n).toString()], ['range', `${field} below int64`, (INT64_MIN - 1n).toString()]);
      }
    }
    if (sub.enum) {
      const allowed = sub.enum.map(String);
      for (const value of allowed.flatMap(caseVariants).filter((v) => !allowed.includes(v))) {
        literals.push(['enum', `${field} outside the enum (${JSON.stringify(value)})`, JSON.stringify(value)]);
      }
      literals.push(['enum', `${field} outside the enum ("unknown")`, '"unknown"'], ['enum', `${field} outside the enum ("")`, '""']);
    }
    for (const [kind, rule, literal] of literals) add(kind, rule, valid.map((v) => json(kind, rule, withRaw(v, field, literal))));
  }
  for (const [rule, text] of [['body an array', '[]'], ['body a string', '"x"'], ['body a number', '42'], ['body null', 'null'], ['body true', 'true']] as const) {
    add('not-object', rule, fc.constant(json('not-object', rule, text)));
  }
  // What a handler that takes the first of a batch, or unwraps an envelope, would read as valid.
  add('not-object', 'body an array holding a valid one', valid.map((v) => json('not-object', 'body an array holding a valid one', `[${stringifyJson(v)}]`)));
  for (const wrapper of ['data', ...(wrappedAs === undefined || schema.properties?.[wrappedAs] ? [] : [wrappedAs])]) {
    const rule = `${(schema.required ?? []).join(' and ')} missing (a valid body wrapped in {${JSON.stringify(wrapper)}: …})`;
    add('missing', rule, valid.map((v) => json('missing', rule, stringifyJson({ [wrapper]: v }))));
  }
  const malformed: [string, (text: string) => string][] = [
    ['malformed JSON (truncated)', (text) => text.slice(0, Math.max(1, text.length - 1))],
    ['malformed JSON (trailing comma)', (text) => `${text.slice(0, -1)},}`],
    ['malformed JSON (single quotes)', (text) => text.replace(/"/g, "'")],
    ['malformed JSON (not JSON)', () => 'name=Rex'],
    // A stream decoder that reads one value (Go's json.Decoder.Decode) takes the object and ignores the rest.
    ['malformed JSON (data after the object)', (text) => `${text} x`],
    // What JSON5 and lenient parsers (Jackson's ALLOW_COMMENTS, ALLOW_UNQUOTED_FIELD_NAMES) take.
    ['malformed JSON (a comment)', (text) => `/* c */${text}`],
    ['malformed JSON (names unquoted)', (text) => text.replace(/"([A-Za-z_]\w*)":/g, '$1:')],
  ];
  for (const [rule, breakText] of malformed) add('syntax', rule, valid.map((v) => json('syntax', rule, breakText(stringifyJson(v)))));
  add('empty', 'empty body', fc.constant(json('empty', 'empty body', '')));
  add('empty', 'no body', fc.constant(json('empty', 'no body', undefined)));
  return cases;
}

/**
 * A valid body under each of OTHER_MEDIA_TYPES (only the label is wrong), and written as a form and as
 * XML under their own labels: what a framework's default body parsers (urlencoded, an XML input
 * formatter) read besides JSON.
 */
export function mediaTypeCases(valid: fc.Arbitrary<Record<string, unknown>>): InvalidCase[] {
  const labelled = OTHER_MEDIA_TYPES.map((contentType): InvalidCase => {
    const rule = `Content-Type ${contentType ?? 'missing'} (not application/json)`;
    return { rule, kind: 'media-type', arbitrary: valid.map((v): InvalidBody => ({ rule, kind: 'media-type', body: stringifyJson(v), contentType })) };
  });
  const written = ([['a form body', 'application/x-www-form-urlencoded', formBody], ['an XML body', 'application/xml', xmlBody]] as const).map(([what, contentType, write]): InvalidCase => {
    const rule = `${what} under Content-Type ${contentType} (not application/json)`;
    return { rule, kind: 'media-type', arbitrary: valid.map((v): InvalidBody => ({ rule, kind: 'media-type', body: write(v), contentType })) };
  });
  return [...labelled, ...written];
}

const scalarText = (value: unknown) => (typeof value === 'string' ? value : stringifyJson(value));

/** `name=Rex&categoryId=1`. */
function formBody(value: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(value).map(([key, field]): [string, string] => [key, scalarText(field)])).toString();
}

const XML_ESCAPES: Record<string, string> = { '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' };

/** `<request><name>Rex</name><categoryId>1</categoryId></request>`. */
function xmlBody(value: Record<string, unknown>): string {
  const escape = (text: string) => text.replace(/[<>&"']/g, (c) => `&${XML_ESCAPES[c]};`);
  return `<?xml version="1.0" encoding="UTF-8"?><request>${Object.entries(value).map(([key, field]) => `<${key}>${escape(scalarText(field))}</${key}>`).join('')}</request>`;
}

/** Any one of the invalid cases. */
export function invalidBodies(schema: SchemaObject, valid: fc.Arbitrary<Record<string, unknown>>, wrappedAs?: string): fc.Arbitrary<InvalidBody> {
  return fc.oneof(...invalidCases(schema, valid, wrappedAs).map((c) => c.arbitrary));
}
