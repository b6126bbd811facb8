import { readFile } from 'node:fs/promises';
import { fromPackage } from '../paths.ts';
import { parse as parseYaml } from 'yaml';
import type { OpenAPIV3 } from 'openapi-types';
import { cached } from './cache.ts';
import type { Contract, Deprecation, Operation, OpenPoint, SchemaObject } from './model.ts';

export type { Contract, Deprecation, Operation, OpenPoint, SchemaObject } from './model.ts';
export { operation, parameterSchema } from './model.ts';

export const DEFAULT_SPEC_PATH = fromPackage('spec', 'openapi.yaml');

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** The contract of the OpenAPI document: the build's (spec-cache.json) while it holds for this text. */
export async function loadContract(path = DEFAULT_SPEC_PATH): Promise<Contract> {
  const text = await readFile(path, 'utf8');
  return (path === DEFAULT_SPEC_PATH ? cached<Contract>('contract', text) : undefined) ?? parseContract(text);
}

/** Validates the OpenAPI document with swagger-parser and flattens what the suite needs. */
export async function parseContract(text: string): Promise<Contract> {
  const raw = parseYaml(text) as OpenAPIV3.Document & Record<string, unknown>;
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
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
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [status, mediaSchema((r as OpenAPIV3.ResponseObject).content) ?? null]),
        ),
      };
      const requestSchema = mediaSchema(body?.content);
      if (requestSchema) operations[op.operationId]!.requestSchema = requestSchema;
      const ext = (op as Record<string, unknown>)['x-deprecation'] as
        | { section: string; removal: string; replacement: Deprecation['replacement'] }
        | undefined;
      if (ext) {
        deprecations.push({
          operationId: op.operationId,
          removal: new Date(`${ext.removal}T00:00:00Z`).toISOString(),
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

