import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Contract, SchemaObject } from './load.ts';
import { INT64_MAX, INT64_MIN, someValue } from '../json/lossless.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv, formats: string[]) => Ajv;

/** OpenAPI 3.0 keywords that JSON Schema does not know, dropped before compiling. */
const OAS_ONLY = new Set(['nullable', 'example', 'deprecated', 'readOnly', 'writeOnly', 'discriminator', 'xml', 'externalDocs']);

/** OpenAPI 3.0 Schema Object -> JSON Schema draft-07: `nullable` widens the type, `x-*` dropped. */
export function toJsonSchema(schema: SchemaObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || OAS_ONLY.has(key)) continue;
    if (key === 'properties') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, SchemaObject>).map(([k, v]) => [k, toJsonSchema(v)]));
    } else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = toJsonSchema(value as SchemaObject);
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = (value as SchemaObject[]).map(toJsonSchema);
    } else {
      out[key] = value;
    }
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** What ajv sees: bigint becomes a (rounded, still integral) number; int64 ranges are checked apart. */
function validationView(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(validationView);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, validationView(v)]));
  }
  return value;
}

/** A bigint, or a number beyond the int64 range: an integer a double cannot hold as it stands. */
const isWideInteger = (value: unknown) => typeof value === 'bigint' || (typeof value === 'number' && (value >= 2 ** 63 || value < -(2 ** 63)));

type Report = (pointer: string, problem: string) => void;

/** Lossless int64 range check, walking the schema beside the value. */
function int64Errors(schema: SchemaObject, value: unknown, path: string, report: Report): void {
  const outside =
    typeof value === 'bigint' ? value < INT64_MIN || value > INT64_MAX : typeof value === 'number' && (value >= 2 ** 63 || value < -(2 ** 63));
  if (schema.format === 'int64' && outside) report(path, `must be within the int64 range (got ${value})`);
  for (const part of schema.allOf ?? []) int64Errors(part as SchemaObject, value, path, report);
  if (Array.isArray(value) && 'items' in schema && schema.items) {
    value.forEach((item, i) => int64Errors(schema.items as SchemaObject, item, `${path}/${i}`, report));
  } else if (value && typeof value === 'object' && schema.properties) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (Object.hasOwn(value, key)) int64Errors(sub as SchemaObject, (value as Record<string, unknown>)[key], `${path}/${key}`, report);
    }
  }
}

/** A JSON Pointer into the body; into an array body, with the item's 1-based position too ("/8/id (item 9 of 36)"). */
function located(pointer: string, body: unknown): string {
  const index = /^\/(\d+)(?:\/|$)/.exec(pointer)?.[1];
  return Array.isArray(body) && index !== undefined ? `${pointer} (item ${Number(index) + 1} of ${body.length})` : pointer || '/';
}

export interface Validators {
  /** Problems of `value` against the named component schema; empty when valid. */
  validate(schemaName: string, value: unknown): string[];
  has(schemaName: string): boolean;
}

/** One ajv instance; every component schema compiled once, at start-up. */
export function createValidators(contract: Contract): Validators {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv, ['date-time']);
  // Integrality is the type's job; the int64 range is checked losslessly by int64Errors.
  ajv.addFormat('int64', { type: 'number', validate: () => true });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  const compiled = new Map<string, ValidateFunction>();
  for (const [name, schema] of Object.entries(contract.schemas)) compiled.set(name, ajv.compile(toJsonSchema(schema)));
  return {
    has: (name) => compiled.has(name),
    validate(name, value) {
      const fn = compiled.get(name);
      const schema = contract.schemas[name];
      if (!fn || !schema) throw new Error(`the contract has no schema ${name}`);
      const errors: string[] = [];
      const report: Report = (pointer, problem) => errors.push(`${located(pointer, value)} ${problem}`);
      const wide = someValue(value, isWideInteger);
      if (!fn(wide ? validationView(value) : value)) {
        for (const e of fn.errors ?? []) report(e.instancePath, e.message ?? 'is invalid');
      }
      if (wide) int64Errors(schema, value, '', report);
      return errors;
    },
  };
}
