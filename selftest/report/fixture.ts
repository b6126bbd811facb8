/**
 * A realistic RunReport for the report writers' self-tests: several sections, a MUST failure with
 * full evidence and a hostile response body, a second failure, a SHOULD warning, an observation,
 * skips, an engine error (clause and engine level) and a capability profile.
 */
import type { CheckResult, ClauseResult, RunReport } from '../../src/report/model.ts';

const BASE = 'https://api.example.test/v1';
const MESSAGES = 'https://messages.example.test';

/** Everything a hostile server could put in a body: markup, CDATA end, NUL, ESC, emoji, lone surrogates. */
export const HOSTILE_BODY =
  '[{"id":1,"name":"<script>alert(\'owned\')</script>","categoryId":2,' +
  '"note":"]]> & <!-- --> \u0000 nul \u001b[31mred\u001b[0m \u0007bell \u00a0 🐶🐈 \ud800 lone high \udfff lone low \ufffe"}' +
  ',{"id":2,"name":"Rex</pre></details><img src=x onerror=alert(1)>","categoryId":2}]';

export const HOSTILE_MARKERS = {
  script: "<script>alert('owned')</script>",
  img: '<img src=x onerror=alert(1)>',
};

const curl = (method: string, url: string, body?: string): string =>
  `curl -sS -X ${method} '${url}' -H "Authorization: Bearer $API_KEY" -H 'Accept: application/json'` +
  (body ? ` -H 'Content-Type: application/json' --data-raw '${body}'` : '');

const pass = (clause: string, check: string, judged: number): CheckResult => ({ check, clause, outcome: 'pass', judged });

export const LIMIT_FAILURE: CheckResult = {
  check: 'limit-above-maximum-rejected',
  clause: '4.1-limit-max',
  outcome: 'fail',
  expected: '400 with an Error body (limit=101 is above the maximum 100)',
  actual: '200 with 101 animals, no Error body',
  evidence: {
    request: {
      method: 'GET',
      url: `${BASE}/pets?limit=101`,
      headers: { Authorization: 'Bearer $API_KEY', Accept: 'application/json' },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-7f3a9c' },
      bodyExcerpt: HOSTILE_BODY,
      bodyTruncated: true,
    },
    curl: curl('GET', `${BASE}/pets?limit=101`),
  },
  counterexample: '{"limit":101}',
  seed: 1234567,
  path: '14:2:0',
  judged: 37,
};

const CREATE_FAILURE: CheckResult = {
  check: 'missing-required-field-rejected',
  clause: '4.2-create-400',
  outcome: 'fail',
  expected: '400 with an Error body when categoryId is missing',
  actual: '201 Created, animal stored with categoryId null',
  evidence: {
    request: {
      method: 'POST',
      url: `${BASE}/pets`,
      headers: { Authorization: 'Bearer $API_KEY', 'Content-Type': 'application/json' },
      body: '{"name":"a"}',
    },
    response: {
      status: 201,
      headers: { 'content-type': 'application/json', location: '/v1/pets/991' },
      bodyExcerpt: '{"id":991,"name":"a","categoryId":null}',
      bodyTruncated: false,
    },
    curl: curl('POST', `${BASE}/pets`, '{"name":"a"}'),
  },
  counterexample: '{"name":"a"}',
  seed: 1234567,
  path: '3:0',
  judged: 12,
};

const DEPRECATION_WARNING: CheckResult = {
  check: 'deprecation-signalled',
  clause: '4.3-deprecation-signalled',
  outcome: 'warn',
  expected: 'a Deprecation or Sunset header (removal scheduled for 2030-12-05)',
  actual: 'no Deprecation, Sunset or Link rel="deprecation" header',
  evidence: {
    request: { method: 'GET', url: `${BASE}/pets/991`, headers: { Authorization: 'Bearer $API_KEY' } },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      bodyExcerpt: '{"id":991,"name":"a","categoryId":2,"status":"available"}',
      bodyTruncated: false,
    },
    curl: curl('GET', `${BASE}/pets/991`),
  },
  judged: 8,
};

const AUTH_ERROR: CheckResult = {
  check: 'missing-key-401',
  clause: '5-missing-key-401',
  outcome: 'error',
  note: 'the connection was reset before a response arrived; the clause could not be judged',
  evidence: {
    request: { method: 'GET', url: `${BASE}/pets`, headers: { Accept: 'application/json' } },
    transportError: 'ECONNRESET: socket hang up',
    curl: `curl -sS -X GET '${BASE}/pets' -H 'Accept: application/json'`,
  },
  judged: 0,
};

export const CLAUSES: ClauseResult[] = [
  {
    id: '2.1-pet-shape',
    section: '2.1',
    title: 'A returned Pet has id, name and categoryId',
    sentence: 'An `Pet` is a `NewPet` plus an identifier.',
    level: 'MUST',
    operations: ['listPets', 'getPet', 'createPet'],
    outcome: 'pass',
    checks: [pass('2.1-pet-shape', 'pet-required-fields', 142), pass('2.1-pet-shape', 'pet-field-types', 142)],
  },
  {
    id: '4.1-list-200',
    section: '4.1',
    title: 'GET /pets returns an array of Pet',
    sentence: 'Returns a paginated list of animals.',
    level: 'MUST',
    operations: ['listPets'],
    outcome: 'pass',
    checks: [pass('4.1-list-200', 'list-returns-array', 60)],
  },
  {
    id: '4.1-limit-max',
    section: '4.1',
    title: 'limit above 100 is rejected',
    sentence: 'limit: integer, minimum 1, maximum 100, default 20. Maximum number of animals returned.',
    level: 'MUST',
    operations: ['listPets'],
    outcome: 'fail',
    checks: [LIMIT_FAILURE, pass('4.1-limit-max', 'limit-within-range-accepted', 40)],
  },
  {
    id: '4.1-status-filter',
    section: '4.1',
    title: 'status filters the list',
    sentence: '`status` is usable as a filter when listing.',
    level: 'MUST',
    operations: ['listPets'],
    outcome: 'pass',
    checks: [pass('4.1-status-filter', 'status-filter-matches', 45)],
  },
  {
    id: '4.1-pagination',
    section: '4.1',
    title: 'Pagination mechanism beyond limit',
    sentence: 'Pagination mechanism beyond `limit` (page token, offset, or a wrapper around the array): not shown.',
    level: 'OBSERVE',
    operations: ['listPets'],
    outcome: 'observe',
    checks: [
      {
        check: 'pagination-mechanism',
        clause: '4.1-pagination',
        outcome: 'observe',
        actual: 'plain array; no Link header, no page token, offset ignored',
        note: 'no pagination beyond limit was seen',
        judged: 6,
      },
    ],
  },
  {
    id: '4.2-create-201',
    section: '4.2',
    title: 'POST /pets returns 201 with the created Pet',
    sentence: '201: `Pet` (the created animal, including `id`).',
    level: 'MUST',
    operations: ['createPet'],
    outcome: 'pass',
    checks: [pass('4.2-create-201', 'create-returns-pet-with-id', 30)],
  },
  {
    id: '4.2-create-400',
    section: '4.2',
    title: 'Missing required fields yield 400',
    sentence: '400: `Error` (required fields missing or values invalid).',
    level: 'MUST',
    operations: ['createPet'],
    outcome: 'fail',
    checks: [CREATE_FAILURE],
  },
  {
    id: '4.3-deprecation-signalled',
    section: '4.3',
    title: 'getPet signals its deprecation',
    sentence: 'The operation is marked deprecated. Its removal is scheduled for 5 December 2030.',
    level: 'SHOULD',
    operations: ['getPet'],
    outcome: 'warn',
    checks: [DEPRECATION_WARNING],
  },
  {
    id: '4.4-store-orders',
    section: '4.4',
    title: 'GET /store/orders exists',
    sentence: 'This operation exists.',
    level: 'OBSERVE',
    operations: ['GET /store/orders'],
    outcome: 'skip',
    checks: [
      { check: 'store-orders-exists', clause: '4.4-store-orders', outcome: 'skip', note: 'not exercised: --include-store was not given', judged: 0 },
    ],
  },
  {
    id: '4.5-message-queued',
    section: '4.5',
    title: 'A sent message starts queued',
    sentence: 'The initial value is `queued`, meaning the request may be only queued.',
    level: 'MUST',
    operations: ['POST {messages_base_url}/messages'],
    outcome: 'skip',
    checks: [
      { check: 'message-initial-status', clause: '4.5-message-queued', outcome: 'skip', note: 'messages base URL not reachable in this environment', judged: 0 },
    ],
  },
  {
    id: '5-missing-key-401',
    section: '5',
    title: 'A missing key yields 401 with an Error body',
    sentence: 'A missing or invalid key yields status 401 with an `Error` body.',
    level: 'MUST',
    operations: ['listPets', 'createPet', 'getPet'],
    outcome: 'error',
    checks: [AUTH_ERROR],
  },
  {
    id: '7-error-shape',
    section: '7',
    title: 'Error bodies have code, message, status',
    sentence: 'All error bodies use the `Error` shape (part 2.4): `code`, `message`, `status`.',
    level: 'MUST',
    operations: ['listPets', 'createPet', 'getPet'],
    outcome: 'pass',
    checks: [pass('7-error-shape', 'error-body-shape', 51)],
  },
  {
    id: '8-limit-default',
    section: '8',
    title: 'limit defaults to 20',
    sentence: '`limit` query parameter: Default 20, minimum 1, maximum 100.',
    level: 'MUST',
    operations: ['listPets'],
    outcome: 'pass',
    checks: [pass('8-limit-default', 'default-page-size', 10)],
  },
];

export function makeReport(overrides: Partial<RunReport> = {}): RunReport {
  const report: RunReport = {
    tool: { name: 'animal-store-conformance', version: '0.1.0' },
    spec: { title: 'Animal Store Service Specification', version: '1.0.0' },
    target: { baseUrl: BASE, messagesBaseUrl: MESSAGES, env: 'staging', embedded: false },
    seed: 1234567,
    runs: 100,
    startedAt: '2025-06-01T09:30:00.000Z',
    durationMs: 48_250,
    now: '2025-06-01T09:30:00.000Z',
    failOn: 'must',
    summary: { pass: 6, fail: 2, warn: 1, partial: 0, skip: 2, observe: 1, error: 1 },
    clauses: structuredClone(CLAUSES),
    capabilities: [
      { id: 'limit-over-max', title: 'limit above 100', value: 'ignored', detail: 'returns 200 and more than 100 items' },
      { id: 'pagination', title: 'Pagination beyond limit', value: 'absent' },
      { id: 'default-status', title: 'status assigned when omitted', value: 'available' },
      { id: 'deprecation-headers', title: 'Deprecation headers on getPet', value: 'absent', detail: 'no Deprecation, Sunset or Link header' },
      { id: 'bearer-case', title: 'Lower-case "bearer" scheme', value: '401', detail: 'the scheme is matched case-sensitively' },
    ],
    engineErrors: [
      'Transport error on GET https://api.example.test/v1/pets (no Authorization): ECONNRESET: socket hang up after 3 attempts',
    ],
    verdict: 'fail',
    exitCode: 1,
  };
  return { ...report, ...overrides };
}

/** A report with n failing MUST clauses, for truncation tests. */
export function makeManyFailures(n: number): RunReport {
  const clauses: ClauseResult[] = Array.from({ length: n }, (_, i) => ({
    id: `4.2-generated-${String(i + 1).padStart(3, '0')}`,
    section: '4.2',
    title: `generated failure ${i + 1}`,
    sentence: '400: `Error` (required fields missing or values invalid).',
    level: 'MUST',
    operations: ['createPet'],
    outcome: 'fail',
    checks: [
      {
        check: `generated-check-${i + 1}`,
        clause: `4.2-generated-${String(i + 1).padStart(3, '0')}`,
        outcome: 'fail',
        expected: '400',
        actual: `201 (case ${i + 1})`,
        judged: 1,
      },
    ],
  }));
  return makeReport({
    clauses,
    summary: { pass: 0, fail: n, warn: 0, partial: 0, skip: 0, observe: 0, error: 0 },
    engineErrors: [],
  });
}

const authHole = (operation: string, method: string, url: string, status: number, body: string) => ({
  operation,
  expected: '401 for Authorization Bearer _',
  actual: `${status} ${body}`,
  evidence: {
    request: { method, url, headers: { Authorization: 'Bearer _', 'Content-Type': 'application/json' }, body: '{"x":1}' },
    response: { status, headers: { 'content-type': 'application/json' }, bodyExcerpt: body, bodyTruncated: false },
    curl: `curl -sS -i -X ${method} '${url}' -H 'Authorization: Bearer _' --data-binary '{"x":1}'`,
  },
  counterexample: `{"operation":"${operation}"}`,
  seed: 1234567,
  path: operation === 'createPet' ? '0:0' : '0:1',
});

function withoutOperation<T extends { operation: string }>(entry: T): Omit<T, 'operation'> {
  const { operation: _operation, ...rest } = entry;
  return rest;
}

export const AUTH_HOLES = {
  createPet: authHole('createPet', 'POST', `${BASE}/pets`, 201, '{"id":102,"name":"Pet a","categoryId":1}'),
  sendMessage: authHole('sendMessage', 'POST', `${MESSAGES}/messages`, 202, '{"message":"hi","status":"queued"}'),
};

/** One MUST clause that failed on two operations (no key needed on POST /v1/pets nor POST /messages). */
export const AUTH_REQUIRED: ClauseResult = {
  id: 'auth.required',
  section: '5',
  title: 'A missing or invalid key gives 401',
  sentence: 'A missing or invalid key yields status 401 with an `Error` body.',
  level: 'MUST',
  operations: ['listPets', 'createPet', 'getPet', 'listStoreOrders', 'sendMessage'],
  outcome: 'fail',
  checks: [
    {
      check: 'auth.required',
      clause: 'auth.required',
      outcome: 'fail',
      ...withoutOperation(AUTH_HOLES.createPet),
      failures: [AUTH_HOLES.createPet, AUTH_HOLES.sendMessage],
      judged: 40,
    },
    pass('auth.required', 'auth.required', 5),
  ],
};

/** makeReport with AUTH_REQUIRED in place of the errored §5 clause. */
export function makeMultiFailureReport(): RunReport {
  const report = makeReport();
  report.clauses = report.clauses.map((c) => (c.id === '5-missing-key-401' ? structuredClone(AUTH_REQUIRED) : c));
  report.summary = { ...report.summary, fail: report.summary.fail + 1, error: report.summary.error - 1 };
  return report;
}

/** makeReport with 4.1-limit-max accepted by a baseline entry, as the CLI marks it. */
export function makeKnownFailureReport(): RunReport {
  const report = makeReport();
  report.clauses.find((c) => c.id === '4.1-limit-max')!.known = { reason: 'clamps (PETS-123) <b>', expires: '2025-06-30' };
  return report;
}

const noChallenge = (operation: string, method: string, url: string) => ({
  operation,
  expected: 'WWW-Authenticate: Bearer …',
  actual: `no WWW-Authenticate header on the 401 to ${method} ${url}`,
  evidence: {
    request: { method, url, headers: { Accept: 'application/json' } },
    response: { status: 401, headers: { 'content-type': 'application/json' }, bodyExcerpt: '{"code":"unauthorized","message":"no key","status":401}', bodyTruncated: false },
    curl: `curl -sS -i -X ${method} '${url}' -H 'Accept: application/json'`,
  },
});

export const NO_CHALLENGE = {
  listPets: noChallenge('listPets', 'GET', `${BASE}/pets`),
  sendMessage: noChallenge('sendMessage', 'POST', `${MESSAGES}/messages`),
};

/** One SHOULD clause that warned on two operations (a 401 without WWW-Authenticate on GET /v1/pets and POST /messages). */
export const WWW_AUTHENTICATE: ClauseResult = {
  id: 'auth.www-authenticate',
  section: '5',
  title: 'A 401 carries WWW-Authenticate',
  sentence: 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.',
  level: 'SHOULD',
  operations: ['listPets', 'createPet', 'getPet', 'listStoreOrders', 'sendMessage'],
  outcome: 'warn',
  checks: [
    {
      check: 'auth.www-authenticate',
      clause: 'auth.www-authenticate',
      outcome: 'warn',
      ...withoutOperation(NO_CHALLENGE.listPets),
      warnings: [NO_CHALLENGE.listPets, NO_CHALLENGE.sendMessage],
      judged: 12,
    },
  ],
};

/** makeReport with WWW_AUTHENTICATE beside the other §5 clause. */
export function makeMultiWarningReport(): RunReport {
  const report = makeReport();
  const at = report.clauses.findIndex((c) => c.id === '5-missing-key-401');
  report.clauses.splice(at + 1, 0, structuredClone(WWW_AUTHENTICATE));
  report.summary = { ...report.summary, warn: report.summary.warn + 1 };
  return report;
}
