import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import type { OpenAPIV3 } from 'openapi-types';

export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

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
  /** Response status keys as written in the document: '200', '2XX', 'default'. */
  responses: Record<string, SchemaObject | undefined>;
}

export interface Deprecation {
  operationId: string;
  removal: Date;
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

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Validates the OpenAPI document with swagger-parser and flattens what the suite needs, once. */
export async function loadContract(path = DEFAULT_SPEC_PATH): Promise<Contract> {
  const raw = parseYaml(await readFile(path, 'utf8')) as OpenAPIV3.Document & Record<string, unknown>;
  const document = (await SwaggerParser.validate(structuredClone(raw) as never)) as OpenAPIV3.Document;
  const operations: Record<string, Operation> = {};
  const deprecations: Deprecation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!item) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const mediaSchema = (content?: Record<string, OpenAPIV3.MediaTypeObject>) =>
        content?.['application/json']?.schema as SchemaObject | undefined;
      const body = op.requestBody as OpenAPIV3.RequestBodyObject | undefined;
      operations[op.operationId] = {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        server: item.servers?.length ? 'messages' : 'main',
        deprecated: op.deprecated === true,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])] as OpenAPIV3.ParameterObject[],
        requestSchema: mediaSchema(body?.content),
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [status, mediaSchema((r as OpenAPIV3.ResponseObject).content)]),
        ),
      };
      const ext = (op as Record<string, unknown>)['x-deprecation'] as
        | { section: string; removal: string; replacement: Deprecation['replacement'] }
        | undefined;
      if (ext) {
        deprecations.push({
          operationId: op.operationId,
          removal: new Date(`${ext.removal}T00:00:00Z`),
          section: ext.section,
          replacement: ext.replacement,
        });
      }
    }
  }
  return {
    title: document.info.title,
    version: document.info.version,
    schemas: (document.components?.schemas ?? {}) as Record<string, SchemaObject>,
    operations,
    deprecations,
    unspecified: ((raw as Record<string, unknown>)['x-unspecified'] ?? []) as OpenPoint[],
  };
}

export function operation(contract: Contract, id: string): Operation {
  const op = contract.operations[id];
  if (!op) throw new Error(`the contract has no operation ${id}`);
  return op;
}

export function parameterSchema(op: Operation, name: string): SchemaObject {
  const parameter = op.parameters.find((p) => p.name === name);
  if (!parameter?.schema) throw new Error(`operation ${op.id} has no parameter ${name}`);
  return parameter.schema as SchemaObject;
}
