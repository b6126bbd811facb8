/**
 * The facts of ../shared/service-spec.md, restated here by hand (not read from spec/openapi.yaml),
 * and a cross-check that reports every place the OpenAPI document departs from them.
 */
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const FACTS = {
  version: '1.0.0',
  operations: [
    { method: 'get', path: '/pets', id: 'listPets', responses: ['200', '401'], deprecated: false },
    { method: 'post', path: '/pets', id: 'createPet', responses: ['201', '400', '401'], deprecated: false },
    { method: 'get', path: '/pets/{petId}', id: 'getPet', responses: ['200', '401', '404'], deprecated: true },
    { method: 'get', path: '/store/orders', id: undefined, responses: ['401'], deprecated: false },
    { method: 'post', path: '/messages', id: undefined, responses: ['400', '401'], deprecated: false },
  ],
  limit: { minimum: 1, maximum: 100, default: 20, type: 'integer', required: false },
  statusEnum: ['available', 'pending', 'sold'],
  removal: '2030-12-05',
  replacement: { method: 'GET', path: '/pets', parameter: 'status' },
  schemas: {
    NewPet: { required: ['name', 'categoryId'], props: { name: ['string'], categoryId: ['integer', 'int64'], status: ['ref:PetStatus'] } },
    Error: { required: ['code', 'message', 'status'], props: { code: ['string'], message: ['string'], status: ['integer'] } },
    NewMessage: { required: ['message'], props: { message: ['string'] } },
    Message: { required: ['id', 'message', 'status', 'createdAt'], props: { id: ['string'], message: ['string'], status: ['string'], createdAt: ['string', 'date-time'] } },
  },
  petIdFormat: 'int64',
  servers: ['{base_url}/v1', '{staging_base_url}/v1'],
  messagesServer: '{messages_base_url}',
  unspecified: ['default-status', 'pagination', 'category-fields', 'name-constraints', 'rate-limits', 'body-size', 'message-success-status', 'invalid-query-response', 'transitions', 'error-codes', 'store-orders-payloads'],
} as const;

function ref(schema: Doc | undefined): string | undefined {
  return typeof schema?.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;
}

/** Problems of the raw (not dereferenced) document against FACTS; empty when faithful. */
export function crossCheck(doc: Doc): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  expect(doc.info?.version === FACTS.version, `info.version is ${doc.info?.version}`);
  expect(JSON.stringify((doc.servers ?? []).map((s: Doc) => s.url)) === JSON.stringify(FACTS.servers), 'servers differ from §1');
  expect(Array.isArray(doc.security) && doc.security.some((s: Doc) => 'bearerAuth' in s), 'bearer security is not applied by default (§5.1)');
  expect(doc.components?.securitySchemes?.bearerAuth?.type === 'http' && doc.components.securitySchemes.bearerAuth.scheme === 'bearer', 'bearerAuth is not an http bearer scheme');
  const documented = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item as Doc).filter((k) => ['get', 'post', 'put', 'delete', 'patch'].includes(k)).map((m) => `${m} ${path}`),
  );
  expect(documented.length === FACTS.operations.length, `the document has ${documented.length} operations, the spec ${FACTS.operations.length}`);
  for (const op of FACTS.operations) {
    const item = doc.paths?.[op.path];
    const operation = item?.[op.method];
    if (!operation) {
      problems.push(`${op.method.toUpperCase()} ${op.path} is missing`);
      continue;
    }
    if (op.id) expect(operation.operationId === op.id, `${op.path} operationId is ${operation.operationId}, the spec names ${op.id}`);
    expect((operation.deprecated === true) === op.deprecated, `${op.method} ${op.path} deprecated is ${operation.deprecated}`);
    for (const status of op.responses) expect(status in (operation.responses ?? {}), `${op.method} ${op.path} lacks response ${status}`);
    for (const [status, response] of Object.entries(operation.responses ?? {}) as [string, Doc][]) {
      if (!/^[45]/.test(status)) continue;
      const target = response.$ref ? doc.components?.responses?.[String(response.$ref).split('/').pop()!] : response;
      expect(ref(target?.content?.['application/json']?.schema) === 'Error', `${op.method} ${op.path} ${status} body is not Error (§7)`);
    }
    expect(operation.security === undefined || operation.security.some((s: Doc) => 'bearerAuth' in s), `${op.method} ${op.path} drops bearer auth`);
  }
  const list = doc.paths?.['/pets']?.get;
  const limit = list?.parameters?.find((p: Doc) => p.name === 'limit');
  expect(limit?.in === 'query' && (limit?.required ?? false) === FACTS.limit.required, 'limit is not an optional query parameter');
  expect(limit?.schema?.type === FACTS.limit.type, `limit type is ${limit?.schema?.type}`);
  expect(limit?.schema?.minimum === FACTS.limit.minimum, `limit minimum is ${limit?.schema?.minimum}`);
  expect(limit?.schema?.maximum === FACTS.limit.maximum, `limit maximum is ${limit?.schema?.maximum}`);
  expect(limit?.schema?.default === FACTS.limit.default, `limit default is ${limit?.schema?.default}`);
  const status = list?.parameters?.find((p: Doc) => p.name === 'status');
  expect(status?.in === 'query' && ref(status?.schema) === 'PetStatus', 'status filter does not use PetStatus');
  expect(JSON.stringify(doc.components?.schemas?.PetStatus?.enum) === JSON.stringify(FACTS.statusEnum), 'PetStatus enum differs from §3');
  expect(ref(list?.responses?.['200']?.content?.['application/json']?.schema) === 'Pets', 'GET /pets 200 is not Pets');
  const create = doc.paths?.['/pets']?.post;
  expect(create?.requestBody?.required === true && ref(create?.requestBody?.content?.['application/json']?.schema) === 'NewPet', 'POST /pets body is not a required NewPet');
  expect(ref(create?.responses?.['201']?.content?.['application/json']?.schema) === 'Pet', 'POST /pets 201 is not Pet');
  const get = doc.paths?.['/pets/{petId}']?.get;
  const petId = get?.parameters?.find((p: Doc) => p.name === 'petId');
  expect(petId?.in === 'path' && petId?.required === true && petId?.schema?.type === 'integer' && petId?.schema?.format === FACTS.petIdFormat, 'petId is not a required int64 path parameter');
  expect(ref(get?.responses?.['200']?.content?.['application/json']?.schema) === 'Pet', 'GET /pets/{petId} 200 is not Pet');
  expect(get?.['x-deprecation']?.removal === FACTS.removal, `removal date is ${get?.['x-deprecation']?.removal}, the spec says ${FACTS.removal}`);
  const replacement = get?.['x-deprecation']?.replacement ?? {};
  expect(replacement.method === FACTS.replacement.method && replacement.path === FACTS.replacement.path && replacement.parameter === FACTS.replacement.parameter, 'replacement differs from §4.3');
  const messages = doc.paths?.['/messages'];
  expect(messages?.servers?.[0]?.url === FACTS.messagesServer, 'the message operation is not on {messages_base_url}');
  expect(ref(messages?.post?.requestBody?.content?.['application/json']?.schema) === 'NewMessage', 'POST /messages body is not NewMessage');
  for (const [name, fact] of Object.entries(FACTS.schemas)) {
    const schema = doc.components?.schemas?.[name];
    expect(JSON.stringify([...(schema?.required ?? [])].sort()) === JSON.stringify([...fact.required].sort()), `${name} required is ${JSON.stringify(schema?.required)}`);
    expect(Object.keys(schema?.properties ?? {}).length === Object.keys(fact.props).length, `${name} has other properties than the spec`);
    for (const [prop, [type, format]] of Object.entries(fact.props) as [string, [string, string?]][]) {
      const p = schema?.properties?.[prop];
      if (type.startsWith('ref:')) expect(ref(p) === type.slice(4), `${name}.${prop} is not ${type.slice(4)}`);
      else expect(p?.type === type && p?.format === format && !p?.nullable, `${name}.${prop} is not a non-nullable ${type}${format ? `/${format}` : ''}`);
    }
  }
  const pet = doc.components?.schemas?.Pet;
  const parts = pet?.allOf ?? [];
  expect(ref(parts[0]) === 'NewPet' && parts[1]?.required?.includes('id') && parts[1]?.properties?.id?.type === 'integer' && parts[1]?.properties?.id?.format === 'int64', 'Pet is not NewPet plus a required int64 id (§2.1)');
  expect(doc.components?.schemas?.Pets?.type === 'array' && ref(doc.components?.schemas?.Pets?.items) === 'Pet', 'Pets is not an array of Pet');
  const open = new Set((doc['x-unspecified'] ?? []).map((entry: Doc) => entry.id));
  for (const id of FACTS.unspecified) expect(open.has(id), `x-unspecified lacks ${id}`);
  return problems;
}
