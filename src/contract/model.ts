import type { OpenAPIV3 } from 'openapi-types';

/** The contract as the suite uses it: plain data, cheap to hand to every worker. */

export type SchemaObject = OpenAPIV3.SchemaObject;

export interface Operation {
  id: string;
  method: string;
  /** Path relative to the server, e.g. /pets/{petId}. */
  path: string;
  /** Which configured base URL the operation lives on. */
  server: 'main' | 'messages';
  deprecated: boolean;
  parameters: OpenAPIV3.ParameterObject[];
  requestSchema?: SchemaObject;
  /** Response status keys as written in the document: '200', '2XX', 'default'; null where it shows no JSON body. */
  responses: Record<string, SchemaObject | null>;
}

export interface Deprecation {
  operationId: string;
  /** ISO 8601 date-time (kept as text so the contract crosses to workers unchanged). */
  removal: string;
  section: string;
  replacement: { method: string; path: string; parameter: string };
}

export interface OpenPoint {
  id: string;
  section: string;
  text: string;
}

export interface Contract {
  title: string;
  version: string;
  schemas: Record<string, SchemaObject>;
  operations: Record<string, Operation>;
  deprecations: Deprecation[];
  unspecified: OpenPoint[];
}

export function operation(contract: Contract, id: string): Operation {
  const op = contract.operations[id];
  if (!op) throw new Error(`the contract has no operation ${id}`);
  return op;
}

/** GET /pets `limit` as the contract bounds it (§4.1, §8): its minimum, maximum and default. */
export function limitBounds(contract: Contract): { min: number; max: number; fallback: number } {
  const schema = parameterSchema(operation(contract, 'listPets'), 'limit');
  return { min: schema.minimum ?? 1, max: schema.maximum ?? Number.MAX_SAFE_INTEGER, fallback: Number(schema.default) };
}

export function parameterSchema(op: Operation, name: string): SchemaObject {
  const parameter = op.parameters.find((p) => p.name === name);
  if (!parameter?.schema) throw new Error(`operation ${op.id} has no parameter ${name}`);
  return parameter.schema as SchemaObject;
}
