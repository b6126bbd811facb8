import { contentCodings } from '../http/content-coding.ts';
import { describeResponse, header, jsonBody, type Exchange } from '../http/exchange.ts';
import { decodeUtf8, isInt, jsonEqual, repeatedNames } from '../json/lossless.ts';
import type { SchemaObject } from '../contract/model.ts';
import { errorBody, exchange, failed, pets, raw } from './exchanges.ts';
import { combine, defineCheck, definePart, fail, type JudgeEnv, NOT_APPLICABLE, PASS, type Refusable, type Verdict } from './types.ts';

/** A 3xx: the suite follows no redirect to another origin, so such an answer is all it has of the operation there. */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** A response exists; otherwise the check that meets a transport failure fails with it. */
export function transportVerdict(exchange: Exchange): Verdict | undefined {
  if (exchange.failure) return fail('an HTTP response', describeResponse(exchange));
  return undefined;
}

/** Body parsed and valid against the named schema, else a failure naming the problems. */
export function schemaVerdict(exchange: Exchange, env: JudgeEnv, schema: string, ignore?: (problem: string) => boolean): Verdict {
  const body = jsonBody(exchange);
  if (!body.ok) return fail(`a JSON ${schema} body`, `${exchange.response?.status ?? '-'}: ${body.problem}`);
  const problems = env.validators.validate(schema, body.value).filter((p) => !ignore?.(p));
  if (problems.length) return fail(`a body valid as ${schema}`, `${problems.slice(0, 5).join('; ')} in ${describeResponse(exchange)}`);
  return PASS;
}

/** Whether a refusable input got a refusal the spec allows (its Error body is errors.shape's to judge). */
export function refusedAsAllowed(exchange: Exchange, refusable: Refusable | undefined): boolean {
  const status = exchange.response?.status;
  return refusable !== undefined && (status === 400 || (refusable.tooLong && status === 413));
}

/** ", or 400 refusing it (<why>)", added to a refusable input's Expected line. */
export function refusalExpected(refusable: Refusable | undefined): string {
  return refusable ? `, or ${refusable.tooLong ? '400 or 413' : '400'} refusing it (${refusable.why})` : '';
}

/**
 * Records whether an input the spec leaves open was accepted (a status `accepted` holds for) or
 * refused (a 4xx); other answers are for the MUST checks to judge.
 */
export function acceptedOrRefused(exchange: Exchange, label: string, accepted: (status: number) => boolean): Verdict {
  const status = exchange.response?.status;
  if (status !== undefined && accepted(status)) return { outcome: 'observe', value: `${label}: accepted (${status})` };
  if (status !== undefined && status >= 400 && status < 500) return { outcome: 'observe', value: `${label}: refused (${status})` };
  return NOT_APPLICABLE;
}

/** A body that is not UTF-8 is no JSON text (RFC 8259 §8.1): the 400 §4 gives invalid input. */
export function notUtf8Verdict(exchange: Exchange, rule: string): Verdict {
  return exchange.response?.status === 400 ? PASS : fail(`400 for a body whose bytes are not UTF-8 (${rule}): not a JSON text by RFC 8259 §8.1`, describeResponse(exchange));
}

export function isJsonMediaType(contentType: string | undefined): boolean {
  // Content-Type is a singleton (RFC 9110 §5.3, §8.3): sent twice, the client joins the lines with commas, and
  // only lines that all say application/json label the body so; a second one saying text/html leaves it unsaid.
  const lines = (contentType ?? '').match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
  return lines.length > 0 && lines.every((line) => /^application\/json\s*(;|$)/i.test(line.trim()));
}

/** Whether the contract gives this response a JSON body: every error does (§7); a success only where it is shown. */
function bodyIsJson(exchange: Exchange, env: JudgeEnv, status: number): boolean {
  if (status >= 400) return true;
  const responses = exchange.operationId ? env.contract.operations[exchange.operationId]?.responses : undefined;
  if (!responses) return true;
  return Boolean(responses[String(status)] ?? responses[`${String(status)[0]}XX`]);
}

export const jsonContentType = definePart({
  description: 'A response with a body the contract shows as JSON labels it Content-Type: application/json',
  judge(exchange, { env }) {
    const response = exchange.response;
    if (!response || response.body.length === 0 || !bodyIsJson(exchange, env, response.status)) return NOT_APPLICABLE;
    const contentType = header(exchange, 'content-type');
    if (isJsonMediaType(contentType)) return PASS;
    return fail('Content-Type: application/json', `Content-Type: ${contentType ?? '(absent)'} on ${response.status}`);
  },
});

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * RFC 8259 §8.1: "Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a
 * networked-transmitted JSON text." The suite's decoder drops one, so the other checks still judge the body.
 */
export const jsonNoBom = definePart({
  description: 'A JSON body does not start with a byte-order mark (RFC 8259 §8.1)',
  judge(exchange, { env }) {
    const response = exchange.response;
    if (!response || response.body.length === 0) return NOT_APPLICABLE;
    if (!bodyIsJson(exchange, env, response.status) && !isJsonMediaType(header(exchange, 'content-type'))) return NOT_APPLICABLE;
    if (!response.body.subarray(0, UTF8_BOM.length).equals(UTF8_BOM)) return PASS;
    return fail('JSON text without a byte-order mark (RFC 8259 §8.1)', `a byte-order mark before the JSON (EF BB BF) on ${describeResponse(exchange, 120)}`);
  },
});

/** RFC 8259 §4: with a name repeated, which value a client keeps depends on its parser. */
export const jsonUniqueNames = defineCheck({
  description: 'The names within each object of a JSON body are unique (RFC 8259 §4)',
  judge(exchange) {
    const body = jsonBody(exchange);
    if (!body.ok || !body.value || typeof body.value !== 'object') return NOT_APPLICABLE;
    const repeated = repeatedNames(body.names, body.value, () => decodeUtf8(exchange.response!.body));
    if (repeated === undefined) return PASS;
    return fail('each name once within an object (RFC 8259 §4)', `${repeated} on ${describeResponse(exchange, 200)}`);
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'a listing of distinct names', ex: exchange(200, pets(3)) },
      { why: 'a name inside a string value, and the same name in sibling objects', ex: exchange(200, raw('[{"id":1,"name":"\\"status\\": x","status":"sold"},{"id":2,"status":"sold"}]')) },
      { why: 'the same name at two depths', ex: exchange(201, raw('{"id":1,"name":"a","tags":{"name":"b"}}')) },
    ],
    fail: [
      {
        why: 'a listing item carrying status twice, as a filter leak a last-wins parser hides',
        ex: exchange(200, raw('[{"id":1,"name":"Rex","categoryId":1,"status":"available","status":"sold"}]')),
        actual: /^a name repeated within an object, with different values: "status": "available" then "sold" on 200 /,
        expected: /RFC 8259 §4/,
      },
      { why: 'an Error repeating code with the same value', ex: exchange(400, raw('{"code":"bad","message":"m","status":400,"code":"bad"}')), actual: /same value/ },
      { why: 'a repeated int64 name, kept exact', ex: exchange(200, raw('{"id":9223372036854775807,"id":1}')), actual: /"id": 9223372036854775807 then 1/ },
    ],
    na: [
      { why: 'a body that is not JSON', ex: exchange(200, raw('{"a":1,"a":')) },
      { why: 'a JSON string', ex: exchange(200, raw('"a"')) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
});

export const errorShape = defineCheck({
  description: 'A 4xx or 5xx other than 401 carries an Error body',
  judge(exchange, { env }) {
    const status = exchange.response?.status;
    if (status === undefined || status < 400 || status === 401) return NOT_APPLICABLE;
    return schemaVerdict(exchange, env, 'Error');
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'a 400 Error', ex: exchange(400, errorBody(400, 'invalid_body', 'name is required')) },
      { why: 'a 404 Error with an extra field (schemas stay open)', ex: exchange(404, { ...errorBody(404, 'not_found'), requestId: 'r1' }) },
    ],
    fail: [
      { why: 'an Error missing code', ex: exchange(400, { message: 'name is required', status: 400 }), actual: /code/ },
      { why: 'an Error missing status', ex: exchange(404, { code: 'not_found', message: 'no such animal' }), actual: /status/ },
      { why: 'status as a string', ex: exchange(400, { code: 'x', message: 'y', status: '400' }) },
      { why: 'an HTML 500', ex: exchange(500, raw('<h1>Internal Server Error</h1>'), { 'content-type': 'text/html' }) },
      { why: 'an empty 404', ex: exchange(404), actual: /empty body/ },
      { why: 'an Error as an array', ex: exchange(400, [errorBody(400)]) },
    ],
    na: [
      { why: 'a 200', ex: exchange(200, pets(1)) },
      { why: 'a 401 (judged by auth.error-body)', ex: exchange(401, { nothing: 'here' }) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
});

export const errorStatusField = defineCheck({
  description: 'An Error body states the HTTP status it came with',
  judge(exchange) {
    const status = exchange.response?.status;
    if (status === undefined || status < 400) return NOT_APPLICABLE;
    const body = jsonBody(exchange);
    if (!body.ok || !body.value || typeof body.value !== 'object' || Array.isArray(body.value)) return NOT_APPLICABLE;
    const field = (body.value as Record<string, unknown>).status;
    if (!isInt(field)) return NOT_APPLICABLE;
    if (BigInt(field) === BigInt(status)) return PASS;
    return fail(`Error.status = ${status}`, `Error.status = ${String(field)} on an HTTP ${status}`);
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'status 400 on a 400', ex: exchange(400, errorBody(400)) },
      { why: 'status 404 on a 404', ex: exchange(404, errorBody(404, 'not_found')) },
    ],
    fail: [
      { why: 'status 200 on a 400', ex: exchange(400, { code: 'x', message: 'y', status: 200 }), actual: /Error\.status = 200 on an HTTP 400/ },
      { why: 'status 404 on a 400', ex: exchange(400, errorBody(404)) },
      { why: 'status 500 on a 401', ex: exchange(401, errorBody(500, 'unauthorized')) },
    ],
    na: [
      { why: 'a 200', ex: exchange(200, { code: 'x', message: 'y', status: 404 }) },
      { why: 'an Error without status (errors.shape judges that)', ex: exchange(400, { code: 'x', message: 'y' }) },
      { why: 'a status that is not an integer', ex: exchange(400, { code: 'x', message: 'y', status: '400' }) },
      { why: 'a body that is not JSON', ex: exchange(400, raw('Bad Request'), { 'content-type': 'text/plain' }) },
    ],
  },
});

export const noServerError = defineCheck({
  description: 'No request the suite sends is answered with 5xx',
  judge(exchange) {
    const status = exchange.response?.status;
    if (status === undefined) return NOT_APPLICABLE;
    return status >= 500 ? fail('a status below 500', describeResponse(exchange)) : PASS;
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'a 200', ex: exchange(200, pets(1)) },
      { why: 'a 404', ex: exchange(404, errorBody(404)) },
      { why: 'a 499', ex: exchange(499) },
    ],
    fail: [
      { why: 'a 500', ex: exchange(500, errorBody(500)), actual: /^500/ },
      { why: 'a 503', ex: exchange(503) },
    ],
    na: [{ why: 'a transport failure', ex: failed('reset', 'socket hang up') }],
  },
});

/**
 * The fields of an object body whose values break their schema in the named component schema (a
 * categoryId sent as "7", an int64 beyond its range): the schema's clause fails them, and a check
 * that judges other things leaves them alone. A field that is absent is never among them.
 */
export function brokenFields(env: JudgeEnv, schema: string, value: unknown): Set<string> {
  const fields = new Set<string>();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fields;
  for (const problem of env.validators.validate(schema, value)) {
    const field = /^\/([^/\s]+)/.exec(problem)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (field !== undefined && Object.hasOwn(value, field)) fields.add(field);
  }
  return fields;
}

/**
 * Whether a later representation of an animal (GET by id) agrees with an earlier one (the 201 body,
 * a listing) on the fields Pet defines (§2.1): the required ones must be there, the same, and an
 * optional one shown by both must be the same. Either may leave out an optional field the other
 * shows (§2.1: status is not required of a Pet as returned; nothing says every answer shows it);
 * fields beyond Pet's may differ.
 * A field whose value breaks Pet on either side is left to the clause of the body that carries it
 * (list.200-pets, create.201-pet, get.200-pet); the others still tell whether it is the same animal.
 */
export function samePet(env: JudgeEnv, actual: unknown, expected: Record<string, unknown>): boolean {
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
  const { names, required } = petFields(env);
  const broken = new Set([...brokenFields(env, 'Pet', actual), ...brokenFields(env, 'Pet', expected)]);
  const compared = names.filter((field) => !broken.has(field));
  return compared.length > 0 && compared.every((field) => {
    const [a, b] = [(actual as Record<string, unknown>)[field], expected[field]];
    if (a === undefined || b === undefined) return (a === undefined && b === undefined) || !required.has(field);
    return jsonEqual(a, b);
  });
}

/**
 * samePet but for the status, which may differ: another client or system may move any animal on at any
 * time, one the suite just created too (§3: "Transitions: not shown").
 */
export function sameBarStatus(env: JudgeEnv, actual: unknown, expected: Record<string, unknown>): boolean {
  const status = typeof actual === 'object' && actual !== null ? (actual as Record<string, unknown>)['status'] : undefined;
  return samePet(env, actual, typeof status === 'string' ? { ...expected, status } : expected);
}

const PET_FIELDS = new WeakMap<object, { names: string[]; required: Set<string> }>();

/** Pet's own fields and the required ones, through its allOf (a NewPet plus an id). */
function petFields(env: JudgeEnv): { names: string[]; required: Set<string> } {
  let fields = PET_FIELDS.get(env.contract);
  if (!fields) {
    const names = new Set<string>();
    const required = new Set<string>();
    const visit = (schema: SchemaObject | undefined): void => {
      if (!schema) return;
      for (const name of Object.keys(schema.properties ?? {})) names.add(name);
      for (const name of schema.required ?? []) required.add(name);
      for (const part of schema.allOf ?? []) visit(part as SchemaObject);
    };
    visit(env.contract.schemas['Pet']);
    fields = { names: [...names], required };
    PET_FIELDS.set(env.contract, fields);
  }
  return fields;
}

/** The check of json.content-type: jsonContentType and jsonNoBom together. */
export const jsonContentTypeClause = combine(jsonContentType, jsonNoBom, {
  ctx: {},
  pass: [
    { why: 'application/json; charset=utf-8', ex: exchange(200, pets(2), { 'content-type': 'application/json; charset=utf-8' }) },
    { why: 'Application/JSON (media types are case-insensitive)', ex: exchange(200, pets(1), { 'content-type': 'Application/JSON' }) },
    { why: 'plain application/json on an Error', ex: exchange(400, errorBody(400)) },
    { why: 'the same application/json line twice', ex: exchange(400, errorBody(400), { 'content-type': 'application/json, application/json' }) },
    { why: 'a quoted parameter holding a comma', ex: exchange(200, pets(1), { 'content-type': 'application/json; profile="a,b"' }) },
    { why: 'a listing starting with [', ex: exchange(200, pets(1)) },
    { why: 'an Error with white space before it', ex: exchange(404, raw(` ${JSON.stringify(errorBody(404))}`)) },
  ],
  fail: [
    { why: 'text/plain', ex: exchange(200, pets(1), { 'content-type': 'text/plain' }), actual: /text\/plain/ },
    { why: 'no Content-Type at all', ex: exchange(200, pets(1), { 'content-type': null }), actual: /absent/ },
    { why: 'text/html on a 404', ex: exchange(404, raw('<h1>Not Found</h1>'), { 'content-type': 'text/html' }) },
    { why: 'application/jsonp is another media type', ex: exchange(200, pets(1), { 'content-type': 'application/jsonp' }) },
    { why: 'two Content-Type lines, the second text/html (a singleton sent twice)', ex: exchange(404, errorBody(404), { 'content-type': 'application/json; charset=utf-8, text/html; charset=utf-8' }) },
    {
      why: 'a listing after a UTF-8 byte-order mark',
      ex: exchange(200, raw(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(pets(1)))]))),
      actual: /^a byte-order mark before the JSON/,
      expected: /RFC 8259 §8\.1/,
    },
    { why: 'an Error after one, whatever its Content-Type', ex: exchange(400, raw(`\uFEFF${JSON.stringify(errorBody(400))}`), { 'content-type': 'text/plain' }) },
  ],
  na: [
    { why: 'an empty body', ex: exchange(204) },
    { why: 'a transport failure', ex: failed() },
    { why: 'an empty body', ex: exchange(204) },
    { why: 'a transport failure', ex: failed() },
    { why: 'a CSV with one from GET /store/orders, whose payload is not shown', ex: { ...exchange(200, raw('\uFEFFid,total'), { 'content-type': 'text/csv' }), operationId: 'listStoreOrders' } },
  ],
});

/** Whether a request named identity as the one content coding it accepts (as every request the suite sends to an operation does). */
function asksIdentity(exchange: Exchange): boolean {
  const field = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
  return field !== undefined && field.trim().toLowerCase() === 'identity';
}

/** Judged on every exchange (a common check); the body of a coded answer is judged decoded (src/http/content-coding.ts). */
export const jsonContentCoding = defineCheck({
  description: 'An answer to a request that accepts only identity carries no content coding',
  judge(exchange) {
    const response = exchange.response;
    if (!response || response.body.length === 0 || !asksIdentity(exchange)) return NOT_APPLICABLE;
    const codings = contentCodings(response);
    return codings.length === 0 ? PASS : fail('no Content-Encoding (the request sent Accept-Encoding: identity)', `Content-Encoding: ${response.headers['content-encoding']} (the body was decoded to judge it)`);
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'no Content-Encoding', ex: asking(exchange(200, pets(1))) },
      { why: 'Content-Encoding: identity', ex: asking(exchange(200, pets(1), { 'content-encoding': 'identity' })) },
    ],
    fail: [
      { why: 'gzip', ex: asking(exchange(200, pets(1), { 'content-encoding': 'gzip' })), actual: /^Content-Encoding: gzip/ },
      { why: 'br on an Error', ex: asking(exchange(404, errorBody(404), { 'content-encoding': 'br' })) },
    ],
    na: [
      { why: 'a request that accepts any coding', ex: exchange(200, pets(1), { 'content-encoding': 'gzip' }) },
      { why: 'an answer without a body', ex: asking(exchange(204, undefined, { 'content-encoding': 'gzip' })) },
      { why: 'no answer', ex: asking(failed()) },
    ],
  },
});

/** The exchange with its request sent as the suite sends one to an operation. */
function asking(answer: Exchange): Exchange {
  return { ...answer, request: { ...answer.request, headers: { ...answer.request.headers, 'Accept-Encoding': 'identity' } } };
}

/**
 * RFC 9112 §9.3.2: answers go in the order the requests came. A second answer to one request, on a
 * kept-alive connection, is taken for the next request's and shifts every later one. It shows only
 * once the connection is idle, after the request was judged: the client marks the exchange then, and
 * the scenario judges it again (src/suite/scenario.ts).
 */
/** The most of a connection's last bytes an Actual of http.one-answer quotes. */
const STRAY_SHOWN_CHARS = 160;

export const oneAnswer = defineCheck({
  description: 'A request gets one answer: no other comes on its connection after it, to no request (RFC 9112 §9.3.2)',
  judge(exchange) {
    if (!exchange.response) return NOT_APPLICABLE;
    const stray = exchange.answeredAgain;
    if (stray === undefined) return PASS;
    const last = stray.lastBytes.slice(-STRAY_SHOWN_CHARS);
    return fail(
      'one answer to this request (RFC 9112 §9.3.2: answers in the order the requests came)',
      `${Math.round(stray.afterMs)} ms after this answer, more came on its connection with no request on it: another answer, or bytes past this one's framing (a kept-alive client takes them for the next request's answer); the connection's last bytes: ${JSON.stringify(last)}; this answer: ${describeResponse(exchange, 200)}`,
    );
  },
  cases: {
    ctx: {},
    pass: [{ why: 'an answer with nothing after it', ex: exchange(200, pets(1)) }],
    fail: [
      {
        why: 'another answer 3 ms after it, to no request',
        ex: { ...exchange(200, pets(1)), answeredAgain: { afterMs: 3, lastBytes: 'HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\n\r\n{}' } },
        actual: /^3 ms after this answer, more came on its connection with no request on it: .*"HTTP\/1\.1 404 Not Found\\r\\ncontent-length: 2\\r\\n\\r\\n\{\}"/,
      },
      { why: 'a byte past the answer', ex: { ...exchange(200, pets(1)), answeredAgain: { afterMs: 0, lastBytes: 'x' } }, actual: /last bytes: "x"/ },
    ],
    na: [{ why: 'no answer', ex: failed() }],
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const COMMON_CLAUSE_CHECKS = {
  'http.one-answer': oneAnswer,
  'json.content-coding': jsonContentCoding,
  'json.content-type': jsonContentTypeClause,
  'json.unique-names': jsonUniqueNames,
  'errors.shape': errorShape,
  'errors.status-field': errorStatusField,
  'errors.no-5xx': noServerError,
} as const;
