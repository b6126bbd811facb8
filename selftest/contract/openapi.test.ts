import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_SPEC_PATH, loadContract } from '../../src/contract/load.ts';
import { crossCheck } from './facts.ts';

const raw = () => parse(readFileSync(DEFAULT_SPEC_PATH, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('spec/openapi.yaml', () => {
  it('is a valid OpenAPI 3.0.3 document (swagger-parser)', async () => {
    const doc = raw();
    expect(doc.openapi).toBe('3.0.3');
    await expect(SwaggerParser.validate(doc as never)).resolves.toBeTruthy();
  });

  it('states every fact of the service spec', () => {
    expect(crossCheck(raw())).toEqual([]);
  });

  // Each mutation changes one fact; the cross-check must notice every one.
  const mutations: [string, (doc: Record<string, any>) => void][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
    ['limit maximum 100 -> 101', (d) => (d.paths['/pets'].get.parameters[0].schema.maximum = 101)],
    ['limit minimum 1 -> 0', (d) => (d.paths['/pets'].get.parameters[0].schema.minimum = 0)],
    ['limit default 20 -> 10', (d) => (d.paths['/pets'].get.parameters[0].schema.default = 10)],
    ['enum value renamed', (d) => (d.components.schemas.PetStatus.enum[2] = 'adopted')],
    ['NewPet.categoryId no longer required', (d) => (d.components.schemas.NewPet.required = ['name'])],
    ['Error.status no longer required', (d) => (d.components.schemas.Error.required = ['code', 'message'])],
    ['categoryId int64 -> int32', (d) => (d.components.schemas.NewPet.properties.categoryId.format = 'int32')],
    ['getPet 404 removed', (d) => delete d.paths['/pets/{petId}'].get.responses['404']],
    ['getPet not deprecated', (d) => (d.paths['/pets/{petId}'].get.deprecated = false)],
    ['removal date moved', (d) => (d.paths['/pets/{petId}'].get['x-deprecation'].removal = '2030-12-04')],
    ['createPet 201 -> 200', (d) => { const r = d.paths['/pets'].post.responses; r['200'] = r['201']; delete r['201']; }],
    ['store orders removed', (d) => delete d.paths['/store/orders']],
    ['message field nullable', (d) => (d.components.schemas.NewMessage.properties.message.nullable = true)],
    ['default security dropped', (d) => (d.security = [])],
    ['an open point dropped', (d) => (d['x-unspecified'] = d['x-unspecified'].filter((e: { id: string }) => e.id !== 'default-status'))],
    ['version 1.0.0 -> 1.1.0', (d) => (d.info.version = '1.1.0')],
  ];
  it.each(mutations)('notices when one fact changes: %s', (_name, mutate) => {
    const doc = raw();
    mutate(doc);
    expect(crossCheck(doc).length).toBeGreaterThan(0);
  });

  it('loads into operations, schemas and the removal date the suite reads', async () => {
    const contract = await loadContract();
    expect(Object.keys(contract.operations).sort()).toEqual(['createPet', 'getPet', 'listPets', 'listStoreOrders', 'sendMessage']);
    expect(contract.operations.sendMessage?.server).toBe('messages');
    expect(contract.deprecations[0]?.removal).toBe('2030-12-05T00:00:00.000Z');
  });
});
