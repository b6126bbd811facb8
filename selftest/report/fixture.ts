/**
 * A realistic RunReport for the report writers' self-tests, its clauses those of the catalogue
 * (spec/clauses.yaml), each judged by its one check: several sections, a MUST failure with full
 * evidence and a hostile response body, a second failure, a SHOULD warning, an observation, skips,
 * an engine error (clause and engine level) and a capability profile.
 */
import { loadClauses } from '../../src/contract/clauses.ts';
import type { CheckResult, ClauseResult, RunReport } from '../../src/report/model.ts';
import { clauseHead } from '../../src/run/collect.ts';

const CATALOGUE = loadClauses();

/** The catalogue's clause `id` as a run reports it, judged by `check` (a pass judged on `judged` exchanges when a number). */
function clause(id: string, check: Omit<CheckResult, 'check' | 'clause'> | number): ClauseResult {
  const found = CATALOGUE.find((c) => c.id === id);
  if (!found) throw new Error(`fixture: spec/clauses.yaml has no clause ${id}`);
  const result: CheckResult = typeof check === 'number' ? { check: id, clause: id, outcome: 'pass', judged: check } : { ...check, check: id, clause: id };
  return { ...clauseHead(found), outcome: result.outcome, checks: [result] };
}

/** The clause `id` of a report (the fixture's clauses are looked up by id, not position). */
export function clauseIn(report: RunReport, id: string): ClauseResult {
  const found = report.clauses.find((c) => c.id === id);
  if (!found) throw new Error(`the report has no clause ${id}`);
  return found;
}

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

export const LIMIT_FAILURE: CheckResult = {
  check: 'list.limit-max',
  clause: 'list.limit-max',
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

const CREATE_FAILURE = {
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
} as const;

const LOCATION_WARNING = {
  outcome: 'warn',
  expected: 'a Location header naming the created animal',
  actual: '201 without a Location header',
  evidence: {
    request: {
      method: 'POST',
      url: `${BASE}/pets`,
      headers: { Authorization: 'Bearer $API_KEY', 'Content-Type': 'application/json' },
      body: '{"name":"b","categoryId":2}',
    },
    response: {
      status: 201,
      headers: { 'content-type': 'application/json' },
      bodyExcerpt: '{"id":992,"name":"b","categoryId":2,"status":"available"}',
      bodyTruncated: false,
    },
    curl: curl('POST', `${BASE}/pets`, '{"name":"b","categoryId":2}'),
  },
  judged: 8,
} as const;

const AUTH_ERROR = {
  outcome: 'error',
  note: 'the connection was reset before a response arrived; the clause could not be judged',
  evidence: {
    request: { method: 'GET', url: `${BASE}/pets`, headers: { Accept: 'application/json' } },
    transportError: 'ECONNRESET: socket hang up',
    curl: `curl -sS -X GET '${BASE}/pets' -H 'Accept: application/json'`,
  },
  judged: 0,
} as const;

/** In section order, as a run reports them. */
export const CLAUSES: ClauseResult[] = [
  clause('create.echo', 142),
  clause('list.200-pets', 60),
  clause('list.status-filter', 45),
  clause('list.invalid-query-handling', {
    outcome: 'observe',
    actual: 'limit=0 gives 400; limit=101 gives 200',
    note: 'limit=0 is refused with 400; limit=101 is taken',
    judged: 6,
  }),
  clause('create.invalid-400', CREATE_FAILURE),
  clause('create.location', LOCATION_WARNING),
  clause('get.200-pet', 30),
  clause('orders.access', { outcome: 'skip', note: 'not exercised: --include-store was not given', judged: 0 }),
  clause('messages.status-queued', { outcome: 'skip', note: 'messages base URL not reachable in this environment', judged: 0 }),
  clause('auth.required', AUTH_ERROR),
  clause('errors.shape', 51),
  clause('list.limit-max', LIMIT_FAILURE),
  clause('list.limit-default', 10),
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

/** A report whose first n clauses of the catalogue fail, for truncation tests. */
export function makeManyFailures(n: number): RunReport {
  if (n > CATALOGUE.length) throw new Error(`fixture: the catalogue has only ${CATALOGUE.length} clauses`);
  const clauses = CATALOGUE.slice(0, n).map((c, i) => clause(c.id, { outcome: 'fail', expected: '400', actual: `201 (case ${i + 1})`, judged: 1 }));
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
export const AUTH_REQUIRED: ClauseResult = clause('auth.required', {
  outcome: 'fail',
  ...withoutOperation(AUTH_HOLES.createPet),
  failures: [AUTH_HOLES.createPet, AUTH_HOLES.sendMessage],
  judged: 40,
});

/** makeReport with AUTH_REQUIRED failing where the §5 clause errored. */
export function makeMultiFailureReport(): RunReport {
  const report = makeReport();
  report.clauses = report.clauses.map((c) => (c.id === 'auth.required' ? structuredClone(AUTH_REQUIRED) : c));
  report.summary = { ...report.summary, fail: report.summary.fail + 1, error: report.summary.error - 1 };
  return report;
}

/** makeReport with list.limit-max accepted by a baseline entry, as the CLI marks it. */
export function makeKnownFailureReport(): RunReport {
  const report = makeReport();
  clauseIn(report, 'list.limit-max').known = { reason: 'clamps (PETS-123) <b>', expires: '2025-06-30' };
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
export const WWW_AUTHENTICATE: ClauseResult = clause('auth.www-authenticate', {
  outcome: 'warn',
  ...withoutOperation(NO_CHALLENGE.listPets),
  warnings: [NO_CHALLENGE.listPets, NO_CHALLENGE.sendMessage],
  judged: 12,
});

/** makeReport with WWW_AUTHENTICATE beside the other §5 clause. */
export function makeMultiWarningReport(): RunReport {
  const report = makeReport();
  const at = report.clauses.findIndex((c) => c.id === 'auth.required');
  report.clauses.splice(at + 1, 0, structuredClone(WWW_AUTHENTICATE));
  report.summary = { ...report.summary, warn: report.summary.warn + 1 };
  return report;
}
