import { describeResponse, header, jsonBody, jsonObject, type Exchange } from '../http/exchange.ts';
import { exactInteger, isInt, isJsonObject, jsonEqual, sameInteger, stringifyJson } from '../json/lossless.ts';
import { acceptedOrRefused, isRedirect, schemaVerdict } from './common.ts';
import { errorBody, exchange, failed, pets, raw } from './exchanges.ts';
import { isNoPetRoute } from './get.ts';
import { combine, defineCheck, definePart, fail, type JudgeEnv, NOT_APPLICABLE, PASS, type Verdict } from './types.ts';

/** `invalid`: what else is wrong with the request (a query, body or path); the key is judged first all the same. */
export const auth401 = definePart<{ variant: string; invalid?: string }>({
  description: 'A missing or invalid Authorization is answered with 401, whatever else is wrong with the request',
  judge(exchange, { variant, invalid }) {
    if (variant === undefined) return NOT_APPLICABLE;
    const status = exchange.response?.status;
    if (status === 401) return PASS;
    if (isNoPetRoute(exchange)) return NOT_APPLICABLE;
    const besides = invalid ? `, whatever else is wrong (here ${invalid}): §7 gives 401 on all operations` : '';
    return fail(`401 for Authorization ${variant}${besides}`, describeResponse(exchange));
  },
});

export const auth401Body = defineCheck({
  description: 'A 401 carries an Error body',
  judge(exchange, { env }) {
    if (exchange.response?.status !== 401) return NOT_APPLICABLE;
    return schemaVerdict(exchange, env, 'Error');
  },
  cases: {
    ctx: {},
    pass: [{ why: 'a 401 Error', ex: exchange(401, errorBody(401, 'unauthorized', 'missing or invalid API key')) }],
    fail: [
      { why: 'an empty 401', ex: exchange(401), actual: /empty body/ },
      { why: 'a 401 Error missing status', ex: exchange(401, { code: 'unauthorized', message: 'no key' }) },
      { why: 'a plain-text 401', ex: exchange(401, raw('Unauthorized'), { 'content-type': 'text/plain' }) },
    ],
    na: [
      { why: 'a 200', ex: exchange(200, pets(1)) },
      { why: 'a 403', ex: exchange(403) },
    ],
  },
});

/**
 * Whether the contract shows no success for the exchange's operation: its responses are then not
 * shown (§4.4), so a 403 may deny the key's account the operation without rejecting the key.
 */
function responsesOpen(exchange: Exchange, env: JudgeEnv): boolean {
  const responses = exchange.operationId ? env.contract.operations[exchange.operationId]?.responses : undefined;
  return responses !== undefined && !Object.keys(responses).some((code) => code.startsWith('2'));
}

/** Where the operation's responses are not shown, a 403 passes here and orders.access records it. */
export const authValidKeyAccepted = defineCheck({
  description: 'Authorization: Bearer <API_KEY> is never answered with 401, nor with 403 where the operation\'s responses are shown',
  judge(exchange, { env }) {
    const status = exchange.response?.status;
    // A redirect the suite does not follow (to another origin: a login page, say) neither takes nor refuses the key here.
    if (status === undefined || isRedirect(status)) return NOT_APPLICABLE;
    const mayForbid = responsesOpen(exchange, env);
    if (status === 401 || (status === 403 && !mayForbid)) {
      return fail(mayForbid ? 'a status other than 401 for the valid key' : 'a status other than 401 and 403 for the valid key', describeResponse(exchange));
    }
    return PASS;
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'a 200', ex: exchange(200, pets(1)) },
      { why: 'a 404', ex: exchange(404, errorBody(404)) },
      { why: 'a 403 where the responses are not shown (§4.4)', ex: { ...exchange(403, errorBody(403)), operationId: 'listStoreOrders' } },
    ],
    fail: [
      { why: 'a 401', ex: exchange(401, errorBody(401)), actual: /^401/ },
      { why: 'a 403', ex: exchange(403, errorBody(403)) },
      { why: 'a 403 where the contract shows a success (listPets)', ex: { ...exchange(403, errorBody(403)), operationId: 'listPets' } },
      { why: 'a 401 where the responses are not shown (§4.4)', ex: { ...exchange(401, errorBody(401)), operationId: 'listStoreOrders' }, expected: /other than 401 for/ },
    ],
    na: [
      { why: 'a transport failure', ex: failed() },
      { why: 'a 307 to another origin (a login page), not followed', ex: exchange(307, undefined, { location: 'https://login.example.test/' }) },
    ],
  },
});

/**
 * Records whether the valid key is taken under another spelling of the Bearer form: the scheme in
 * lower case (RFC 9110 §11.1: "a case-insensitive token") or two spaces before the token (RFC 6750
 * §2.1: 1*SP). §5 shows only `Bearer <API_KEY>`, so either answer is allowed.
 */
export const authSchemeVariant = defineCheck<{ variant: string }>({
  description: 'Records whether "bearer <API_KEY>" and "Bearer  <API_KEY>" are taken for the valid key',
  judge(exchange, { variant }) {
    return acceptedOrRefused(exchange, variant, (status) => status >= 200 && status < 300);
  },
  cases: {
    ctx: { variant: 'bearer <API_KEY>' },
    observe: [
      { why: 'a 200', ex: exchange(200, pets(1)), value: 'bearer <API_KEY>: accepted (200)' },
      { why: 'a 401', ex: exchange(401, errorBody(401)), value: 'bearer <API_KEY>: refused (401)' },
    ],
    na: [
      { why: 'a 500 (errors.no-5xx judges it)', ex: exchange(500, errorBody(500)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
});

export const authWwwAuthenticate = defineCheck({
  description: 'A 401 carries a WWW-Authenticate challenge',
  judge(exchange) {
    if (exchange.response?.status !== 401) return NOT_APPLICABLE;
    const challenge = header(exchange, 'www-authenticate');
    if (challenge && /\S/.test(challenge)) return PASS;
    return fail('WWW-Authenticate: Bearer …', 'no WWW-Authenticate header on the 401');
  },
  cases: {
    ctx: {},
    pass: [{ why: 'a 401 with a Bearer challenge', ex: exchange(401, errorBody(401), { 'www-authenticate': 'Bearer realm="animal-store"' }) }],
    fail: [
      { why: 'a 401 without the header', ex: exchange(401, errorBody(401)), actual: /no WWW-Authenticate/ },
      { why: 'a 401 with a blank header', ex: exchange(401, errorBody(401), { 'www-authenticate': '   ' }) },
    ],
    na: [{ why: 'a 200', ex: exchange(200, pets(1)) }],
  },
});

/**
 * What an alias would serve without credentials: by default the listing (any JSON array); `petId`, the
 * animal of that id; `keyedBody`, the body the operation's own path answered the key with (GET
 * /v1/store/orders, whose payload is not shown, §4.4: only the same bytes again show it served);
 * `echoes`, members of the body a POST sent that its answer would show (the created Pet's name and
 * categoryId, §4.2; the message, §4.5: "Echo of the submitted text"), beside an id.
 */
export interface AliasServes {
  petId?: string;
  keyedBody?: string;
  echoes?: Record<string, unknown>;
  /** Instead of any JSON array, only one holding this animal, as the key's listing showed it (another host may answer [] to any path). */
  listingHolding?: { id: string; name: string };
}

/**
 * `refused`: the name only creates refused with 401 gave an animal; a listing or a GET with the key
 * showing one shows it stored all the same. Not finding it shows nothing.
 */
function refusedCreateStored(exchange: Exchange, name: string): Verdict {
  const body = exchange.response?.status === 200 ? jsonBody(exchange) : undefined;
  if (!body?.ok) return NOT_APPLICABLE;
  const listing = Array.isArray(body.value);
  const items: unknown[] = listing ? (body.value as unknown[]) : [body.value];
  const stored = items.find((item) => isJsonObject(item) && item['name'] === name);
  if (stored === undefined) return NOT_APPLICABLE;
  const shown = listing ? `200, a listing of ${items.length} holding ${stringifyJson(stored)}` : describeResponse(exchange);
  return fail(`no animal named ${JSON.stringify(name)}: each create of it was refused with 401 (§5.1: every operation requires bearer authentication)`, `${shown} (an animal of a refused create, stored)`);
}

function sameId(id: unknown, text: string): boolean {
  return isInt(id) ? sameInteger(id, exactInteger(text)) : id === text;
}

export const authAliasNotServed = definePart<{ alias?: string; serves?: AliasServes; refused?: string }>({
  description: 'Without credentials, another spelling of a path (a trailing slash, upper case, a doubled slash) serves nothing of the operation, and HEAD of an operation served by GET no 2xx; a create refused with 401 stores nothing',
  judge(exchange, { alias, serves, refused }) {
    if (refused !== undefined) return refusedCreateStored(exchange, refused);
    const status = exchange.response?.status;
    if (alias === undefined || status === undefined) return NOT_APPLICABLE;
    // A 401 shows the spelling guarded; any other answer that serves nothing of the operation (a 404, a
    // redirect, another page) says nothing of the operation's own authentication, and counts for none.
    if (status === 401) return PASS;
    if (status < 200 || status > 299) return NOT_APPLICABLE;
    // A HEAD has no body to look at; its 2xx says the GET would have been served (RFC 9110 §9.3.2).
    if (exchange.request.method === 'HEAD') return fail(`no 2xx for ${alias} without credentials (401, or 404, 405, a redirect)`, describeResponse(exchange));
    if (serves?.keyedBody !== undefined) {
      if (exchange.response!.body.toString('utf8') !== serves.keyedBody) return NOT_APPLICABLE;
      return fail(`nothing at ${alias} without credentials of what GET with the key answered (401, or 404, 405, a redirect)`, `${describeResponse(exchange)} (the same body the key was answered)`);
    }
    if (serves?.echoes !== undefined) {
      const shown = jsonObject(exchange);
      if (!shown || !Object.entries(serves.echoes).every(([name, value]) => jsonEqual(shown[name], value))) return NOT_APPLICABLE;
      // A catch-all echoing the request names no id; what was taken (a Pet, a Message) does.
      if (shown['id'] === undefined || shown['id'] === null) return NOT_APPLICABLE;
      return fail(`nothing taken at ${alias} without credentials (401, or 404, 405, a redirect)`, `${describeResponse(exchange)} (what was sent, taken)`);
    }
    if (serves?.petId !== undefined) {
      const id = jsonObject(exchange)?.id;
      if (!sameId(id, serves.petId)) return NOT_APPLICABLE;
      return fail(`no animal at ${alias} without credentials (401, or 404, 405, a redirect)`, describeResponse(exchange));
    }
    // Any JSON array is data served without a key, whether or not each item is a valid Pet.
    const body = jsonBody(exchange);
    if (!body.ok || !Array.isArray(body.value)) return NOT_APPLICABLE;
    const holding = serves?.listingHolding;
    if (holding && !body.value.some((item: unknown) => isJsonObject(item) && sameId(item['id'], holding.id) && item['name'] === holding.name)) return NOT_APPLICABLE;
    return fail(`no listing at ${alias} without credentials (401, or 404, 405, a redirect)`, describeResponse(exchange));
  },
});

/** The check of auth.required: auth401 and authAliasNotServed together. */
export const authRequired = combine(auth401, authAliasNotServed, {
  ctx: { variant: 'absent' },
  pass: [
    { why: 'a 401', ex: exchange(401, errorBody(401, 'unauthorized'), { 'www-authenticate': 'Bearer' }) },
    { why: 'a 401 for a body that is not JSON either', ctx: { variant: 'absent', invalid: 'a body that is not JSON' }, ex: exchange(401, errorBody(401, 'unauthorized')) },
    { ctx: { alias: 'GET /v1/pets/' }, why: 'a 401', ex: exchange(401, errorBody(401, 'unauthorized')) },
    { why: 'a 401 to HEAD (no body)', ctx: { alias: 'HEAD /v1/pets' }, ex: exchange(401, undefined, {}, { method: 'HEAD' }) },
  ],
  fail: [
    { why: 'a 200 without a key', ex: exchange(200, pets(1)), actual: /^200/ },
    { why: 'a 403 (the spec says 401)', ex: exchange(403, errorBody(403, 'forbidden')) },
    { why: 'a transport failure', ex: failed(), actual: /timeout/ },
    {
      why: 'a 400 for an invalid query without a key (validated before authenticated)',
      ctx: { variant: 'absent', invalid: 'limit=0 (below the minimum 1)' },
      ex: exchange(400, errorBody(400, 'invalid_query')),
      expected: /^401 for Authorization absent, whatever else is wrong \(here limit=0 \(below the minimum 1\)\): §7 gives 401 on all operations$/,
      actual: /^400/,
    },
    { why: 'a 404 for an unknown petId with a wrong key (tells a caller without a key which ids exist)', ctx: { variant: 'key with a suffix', invalid: 'petId 9223372036854775807' }, ex: exchange(404, errorBody(404, 'not_found')), actual: /^404/ },
    { ctx: { alias: 'GET /v1/pets/' }, why: 'the listing without credentials', ex: exchange(200, pets(2)), actual: /^200/ },
    { ctx: { alias: 'GET /v1/pets/' }, why: 'an empty listing without credentials', ex: exchange(200, []) },
    { ctx: { alias: 'GET /v1/pets/' }, why: 'a listing whose items are no valid Pet', ex: exchange(200, [{ id: '1', name: 7 }]) },
    { why: 'the listing at /v1/PETS', ctx: { alias: 'GET /v1/PETS' }, ex: exchange(200, pets(1), {}, { url: 'https://api.example.test/v1/PETS' }), expected: /GET \/v1\/PETS/ },
    { why: 'a 200 to HEAD, which has no body to tell', ctx: { alias: 'HEAD /v1/pets' }, ex: exchange(200, undefined, { 'content-type': 'application/json', 'content-length': '120' }, { method: 'HEAD' }), expected: /no 2xx for HEAD \/v1\/pets/, actual: /^200/ },
    { why: 'a 204 to HEAD of an id', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(204, undefined, {}, { method: 'HEAD' }) },
    { why: 'the animal at an alias of its id', ctx: { alias: 'GET /v1/PETS/1', serves: { petId: '1' } }, ex: exchange(200, pets(1)[0]), expected: /^no animal at GET \/v1\/PETS\/1/ },
    { why: 'an int64 id past 2^53 told exactly', ctx: { alias: 'GET /v1/pets/9007199254740993/', serves: { petId: '9007199254740993' } }, ex: exchange(200, raw('{"id":9007199254740993,"name":"a","status":"available"}')) },
    { why: 'the body the key was answered', ctx: { alias: 'GET /v1/store/orders/', serves: { keyedBody: '[]' } }, ex: exchange(200, []), actual: /the same body the key was answered/ },
    { why: 'a 200 to HEAD of the orders', ctx: { alias: 'HEAD /v1/store/orders' }, ex: exchange(200, undefined, {}, { method: 'HEAD' }) },
    { why: 'the animal created at an alias', ctx: { alias: 'POST /v1/pets/', serves: { echoes: { name: 'Pet A', categoryId: 1 } } }, ex: exchange(201, { id: 9, name: 'Pet A', categoryId: 1 }), expected: /^nothing taken at POST \/v1\/pets\//, actual: /^201.*taken\)$/s },
    { why: 'the message taken at an alias', ctx: { alias: 'POST /messages?via=alias', serves: { echoes: { message: 'hi' } } }, ex: exchange(202, { id: 'm1', message: 'hi', status: 'queued', createdAt: '2026-01-01T00:00:00Z' }) },
    { why: 'the listing at a .json format suffix', ctx: { alias: 'GET /v1/pets.json' }, ex: exchange(200, pets(1), {}, { url: 'https://api.example.test/v1/pets.json' }), expected: /GET \/v1\/pets\.json/ },
    { why: 'the animal at a matrix parameter of its id', ctx: { alias: 'GET /v1/pets/1;x=1', serves: { petId: '1' } }, ex: exchange(200, pets(1)[0]), expected: /^no animal at GET \/v1\/pets\/1;x=1/ },
    { ctx: { alias: 'GET /v1/pets on the message host', serves: { listingHolding: { id: '2', name: 'pet 2' } } }, why: 'a listing holding the animal the key\'s listing showed, on the other host', ex: exchange(200, pets(3)), expected: /^no listing at GET \/v1\/pets on the message host/ },
    { ctx: { alias: 'POST /v1/pets on the message host', serves: { echoes: { name: 'Pet A', categoryId: 1 } } }, why: 'the animal created on the other host', ex: exchange(201, { id: 9, name: 'Pet A', categoryId: 1 }) },
    { ctx: { refused: 'Refused 5e1f' }, why: 'a listing with the key showing an animal of a create refused with 401', ex: exchange(200, [...pets(2), { id: 9, name: 'Refused 5e1f', categoryId: 1 }]), expected: /^no animal named "Refused 5e1f"/, actual: /^200, a listing of 3 holding \{"id":9,"name":"Refused 5e1f","categoryId":1\} \(an animal of a refused create, stored\)$/ },
    { ctx: { refused: 'Refused 5e1f' }, why: 'a GET with the key of an animal of a create refused with 401', ex: exchange(200, { id: 9, name: 'Refused 5e1f', categoryId: 1 }) },
  ],
  na: [
    { ctx: { alias: 'GET /v1/pets on the message host', serves: { listingHolding: { id: '2', name: 'Pet 2' } } }, why: 'a catch-all [] on the other host', ex: exchange(200, []) },
    { ctx: { alias: 'GET /v1/pets on the message host', serves: { listingHolding: { id: '2', name: 'Pet 2' } } }, why: 'an array without that animal on the other host', ex: exchange(200, [{ id: 2, name: 'Other' }]) },
    { ctx: { alias: 'POST /v1/pets on the message host', serves: { echoes: { name: 'Pet A', categoryId: 1 } } }, why: 'an echo of the request (no id), as a catch-all answers', ex: exchange(200, { name: 'Pet A', categoryId: 1 }) },
    { ctx: { refused: 'Refused 5e1f' }, why: 'a listing without the refused name (absence shows nothing)', ex: exchange(200, pets(2)) },
    { ctx: { refused: 'Refused 5e1f' }, why: 'a 404 for an id past the highest', ex: exchange(404, errorBody(404, 'not_found')) },
    { ctx: { refused: 'Refused 5e1f' }, why: 'another animal by its id', ex: exchange(200, { id: 9, name: 'Refused 5e1', categoryId: 1 }) },
    { why: 'a router\'s 404 for a petId that is no int64, before authentication (a typed route: no route of getPet\'s)', ctx: { variant: 'absent', invalid: 'petId abc (not an int64)' }, ex: { ...exchange(404, raw('404 page not found'), { 'content-type': 'text/plain' }, { url: 'https://api.example.test/v1/pets/abc' }), operationId: 'getPet' } },
    { ctx: { alias: 'GET /v1/pets/' }, why: 'a transport failure', ex: failed() },
    { ctx: { alias: 'GET /v1/pets/' }, why: 'a plain 404 (the alias is not served: nothing of the operation judged)', ex: exchange(404, raw('Not Found'), { 'content-type': 'text/plain' }) },
    { ctx: { alias: 'GET /v1/pets/' }, why: 'a 301 to /v1/pets', ex: exchange(301, undefined, { location: '/v1/pets' }) },
    { ctx: { alias: 'GET /v1/pets/' }, why: 'a 200 that is no listing (some other page)', ex: exchange(200, raw('<h1>Animal Store</h1>'), { 'content-type': 'text/html' }) },
    { why: 'a 405 to HEAD', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(405, undefined, { allow: 'GET' }, { method: 'HEAD' }) },
    { why: 'a 404 to HEAD of an id', ctx: { alias: 'HEAD /v1/pets/3' }, ex: exchange(404, undefined, {}, { method: 'HEAD' }) },
    { why: 'another animal at an alias of the id', ctx: { alias: 'GET /v1/pets/1/', serves: { petId: '1' } }, ex: exchange(200, pets(2)[1]) },
    { why: 'a 400 for an id with a .json suffix (no int64: the spelling not routed to the operation)', ctx: { alias: 'GET /v1/pets/1.json', serves: { petId: '1' } }, ex: exchange(400, errorBody(400, 'invalid_path')) },
    { why: 'a listing at an alias of an id (no animal of that id)', ctx: { alias: 'GET /v1/pets/1/', serves: { petId: '1' } }, ex: exchange(200, pets(2)) },
    { why: 'another body than the key was answered', ctx: { alias: 'GET /v1/store/orders/', serves: { keyedBody: '[{"id":1}]' } }, ex: exchange(200, raw('<h1>Store</h1>'), { 'content-type': 'text/html' }) },
    { why: 'a 200 page to a POST at an alias (nothing of the NewPet shown)', ctx: { alias: 'POST /v1/pets/', serves: { echoes: { name: 'Pet A', categoryId: 1 } } }, ex: exchange(200, raw('<h1>Animal Store</h1>'), { 'content-type': 'text/html' }) },
    { why: 'a 200 JSON object that shows another name', ctx: { alias: 'POST /v1/pets/', serves: { echoes: { name: 'Pet A', categoryId: 1 } } }, ex: exchange(200, { name: 'Pet B', categoryId: 1 }) },
  ],
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const AUTH_CHECKS = {
  'auth.required': authRequired,
  'auth.error-body': auth401Body,
  'auth.valid-key-accepted': authValidKeyAccepted,
  'auth.scheme-variants': authSchemeVariant,
  'auth.www-authenticate': authWwwAuthenticate,
} as const;
