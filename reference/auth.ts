// Bearer authentication, checked first by every operation.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from './context.ts';
import { allowed, fault, switches, withNumericKey, type Deviation } from './deviation.ts';
import { holdRejection, sendError, sendRaw, jsonContentType } from './http.ts';

/** The deviations switched in this module (reference/deviations.ts gathers them into the catalogue). */
export const AUTH_DEVIATIONS = [
  fault('fault-auth-hole-list-pets', 'auth.required', 'GET /v1/pets skips the authentication check.'),
  fault('fault-auth-hole-create-pet', 'auth.required', 'POST /v1/pets skips the authentication check.'),
  fault('fault-auth-hole-get-pet', 'auth.required', 'GET /v1/pets/{petId} skips the authentication check.'),
  fault('fault-auth-hole-store-orders', 'auth.required', 'GET /v1/store/orders skips the authentication check.'),
  fault('fault-auth-hole-messages', 'auth.required', 'POST /messages skips the authentication check.'),
  fault('fault-auth-hole-trailing-slash', 'auth.required', 'GET /v1/pets/ is routed as GET /v1/pets and serves the listing without the authentication check.'),
  fault('fault-auth-hole-path-case', 'auth.required', 'Paths are routed ignoring case (as Express and ASP.NET do by default) while the authentication check guards the exact path /v1/pets: GET /v1/PETS serves the listing without credentials.'),
  fault('fault-auth-hole-double-slash', 'auth.required', 'Empty path segments are dropped when routing (/v1//pets is /v1/pets) while the authentication check guards the exact path /v1/pets: GET /v1//pets serves the listing without credentials.'),
  fault('fault-auth-hole-head-list-pets', 'auth.required', 'HEAD /v1/pets skips the authentication check (only GET is guarded): 200 without credentials.'),
  fault('fault-auth-hole-alias-get-pet', 'auth.required', 'Paths are routed ignoring case, empty segments and a trailing slash, while the authentication check guards the exact path /v1/pets/{petId}: GET /v1/pets/{petId}/, /v1/PETS/{petId} and /v1//pets/{petId} serve the animal without credentials.'),
  fault('fault-auth-hole-alias-store-orders', 'auth.required', 'Paths are routed ignoring case, empty segments and a trailing slash, while the authentication check guards the exact path /v1/store/orders: GET /v1/store/orders/, /v1/STORE/orders and /v1//store/orders serve the orders without credentials.'),
  fault('fault-auth-hole-head-store-orders', 'auth.required', 'HEAD /v1/store/orders skips the authentication check (only GET is guarded): 200 without credentials.'),
  fault('fault-auth-hole-encoded-path', 'auth.required', 'The router decodes percent-encoded characters of the path, as routers do, while the authentication check compares the raw path with the paths it guards: GET /v1/%70ets, /v1/%70ets/{petId} and /v1/%73tore/orders serve without credentials.'),
  fault('fault-auth-hole-format-suffix', 'auth.required', 'The router takes a .json suffix of the path for a format (as Rails and Spring\'s suffix pattern matching do) while the authentication check guards the exact paths: GET /v1/pets.json and /v1/pets/{petId}.json serve without credentials, and POST /v1/pets.json creates the animal.'),
  fault('fault-auth-hole-matrix-param', 'auth.required', 'The router drops ;parameters from each path segment (as a servlet container does) while the authentication check guards the exact paths: GET /v1/pets;x=1 and /v1/pets/{petId};x=1 serve without credentials, and POST /v1/pets;x=1 creates the animal.'),
  fault('fault-auth-hole-alias-create-pet', 'auth.required', 'Paths are routed ignoring case, empty segments and a trailing slash, while the authentication check of POST guards the exact path /v1/pets: POST /v1/pets/, /v1/PETS and /v1//pets create the animal without credentials (GET under those spellings gets 401).'),
  fault('fault-auth-hole-query-messages', 'auth.required', 'POST /messages without an Authorization header is let through when its request target carries a query (the check was given the target /messages): POST /messages?… without credentials takes the message; with a wrong key it gets 401.'),
  fault('fault-auth-hole-query', 'auth.required', 'A request without an Authorization header is let through when its request target, query included, is none of the targets the check guards (it was given /v1/pets/{digits} without a query): GET /v1/pets/{petId}?… without credentials is served; with a wrong key it gets 401.'),
  fault('fault-auth-hole-create-json-charset', 'auth.required', 'POST /v1/pets without an Authorization header under application/json with a charset parameter (application/json; charset=utf-8) goes through a legacy route that skips the authentication check and creates the animal; under plain application/json it gets 401.'),
  fault('fault-auth-key-in-x-api-key', 'auth.required', 'Without an Authorization header, the key is taken from an X-API-Key header as well (as a gateway with API keys of its own may), on every operation: 200 (201, 202) without credentials in Authorization.'),
  fault('fault-auth-hole-head-get-pet', 'auth.required', 'HEAD /v1/pets/{petId} skips the authentication check (only GET is guarded): 200 for an existing id, 404 for an unknown one, without credentials.'),
  fault('fault-auth-key-in-cookie', 'auth.required', 'Without an Authorization header, the key is taken from an api_key cookie as well (as a server that also serves a browser session does), on every operation.'),
  fault('fault-auth-hole-encoded-id', 'auth.required', 'The authentication check of GET /v1/pets/{petId} guards /v1/pets/ followed by a word (letters, digits, - or _) as written, while the handler decodes the petId: GET /v1/pets/%31… (its first digit percent-encoded) serves the animal without credentials.'),
  fault('fault-auth-key-in-x-auth-token', 'auth.required', 'Without an Authorization header, the key is taken from an X-Auth-Token header as well (as an OpenStack-style gateway takes a token), on every operation.'),
  fault('fault-auth-key-in-x-access-token', 'auth.required', 'Without an Authorization header, the key is taken from an X-Access-Token header as well (as a gateway taking access tokens in a header of its own does), on every operation.'),
  fault('fault-auth-trusts-forwarded-loopback', 'auth.required', 'A request that X-Forwarded-For, X-Real-IP or Forwarded says comes from 127.0.0.1 skips the authentication check (internal traffic let through, the client\'s word taken for where it comes from), on every operation.'),
  fault('fault-auth-hole-messages-host-v1', 'auth.required', 'The message host also routes the /v1 operations, mounted there without the authentication middleware (one router behind two listeners): GET /v1/pets, /v1/pets/{petId} and /v1/store/orders on it serve without credentials, and POST /v1/pets creates the animal.'),
  fault('fault-auth-hole-main-host-messages', 'auth.required', 'The main host also routes POST /messages, mounted there without the authentication middleware: a message sent to the base URL without credentials is taken.'),
  fault('fault-auth-token-percent-decoded', 'auth.required', 'The bearer token is URL-decoded before it is compared with the key (a middleware that decodes every header value), so Bearer %6B… for a key starting with k is accepted, on every operation.'),
  fault('fault-auth-token-padding-ignored', 'auth.required', 'Trailing "=" are stripped from the bearer token before it is compared with the key (as a check that decodes base64 keys compares their bytes), so Bearer <API_KEY>== is accepted, on every operation.'),
  fault('fault-auth-key-case-insensitive', 'auth.required', 'The bearer token is compared with the key ignoring case (as a *_ci collation lookup does), on every operation.'),
  fault('fault-auth-key-last-char-ignored', 'auth.required', 'A bearer token as long as the key is compared with it short of its last character (an off-by-one compare loop), so the key with its last character replaced is accepted, on every operation.'),
  withNumericKey(fault('fault-auth-key-loose-numeric', 'auth.required', 'A numeric bearer token is compared with a numeric key by value (PHP\'s loose ==), so for a key of digits 0<API_KEY>, <API_KEY>.0 and +<API_KEY> are accepted, on every operation.')),
  fault('fault-auth-key-prefix', 'auth.required', 'Any non-empty prefix of the key is accepted as the bearer token, on every operation.'),
  fault('fault-auth-key-suffix', 'auth.required', 'Any suffix of the key of 4 characters or more is accepted as the bearer token (the key compared with endsWith), on every operation.'),
  fault('fault-auth-key-ends-token', 'auth.required', 'Any bearer token that ends with the key is accepted (the token compared with endsWith), on every operation.'),
  fault('fault-auth-scheme-glued', 'auth.required', 'The scheme is stripped with any spaces after it, so Bearer<API_KEY> (no space) is accepted, on every operation.'),
  fault('fault-auth-quoted-token', 'auth.required', 'A bearer token in double quotes is unquoted before the comparison, so Bearer "<API_KEY>" is accepted, on every operation.'),
  fault('fault-auth-unset-setting', 'auth.required', 'The tokens "undefined" and "null" are accepted, as a comparison with a setting stringified before it was read does, on every operation.'),
  fault('fault-auth-accepts-jwt-shape', 'auth.required', 'Besides the key, any bearer token of three base64url segments joined by dots (a JWT, its signature possibly empty) is accepted without being verified, on every operation.'),
  fault('fault-auth-bare-key-accepted', 'auth.required', 'An Authorization header holding the bare key (no "Bearer ") is accepted on every operation.'),
  fault('fault-auth-after-validation', 'auth.required', 'Authentication is checked after validation, as validation middleware mounted before the authentication middleware does: without a valid key, an invalid query, body or petId gets its 400 (an unknown petId its 404); only a request that passes validation gets the 401 (GET /v1/store/orders validates nothing, so its 401 stands).'),
  fault('fault-auth-any-scheme', 'auth.required', 'The scheme of Authorization is ignored and what follows it compared with the key: "Basic <API_KEY>" and "Token <API_KEY>" are accepted, on every operation.'),
  fault('fault-auth-basic-password', 'auth.required', 'Basic credentials whose password is the key (base64 of "<any user>:<key>") are accepted on every operation, as a server reusing an HTTP Basic check with the key as the password does.'),
  fault('fault-auth-token-first-word', 'auth.required', 'The bearer token is read as the first word after the scheme (the header split on spaces): "Bearer <API_KEY> x" is accepted, on every operation.'),
  fault('fault-auth-basic-accepted-messages', 'auth.required', 'POST /messages accepts "Authorization: Basic <key>" (the key literally, or base64 of key, user:key or key:).'),
  fault('fault-auth-403', 'auth.required', 'Missing or invalid credentials yield 403 (Error body, code "forbidden") instead of 401.'),
  fault('fault-auth-401-body-not-error', 'auth.error-body', 'The 401 body is {"error":"unauthorized"} instead of an Error.'),
  fault('fault-auth-rejects-valid-key-orders', 'auth.valid-key-accepted', 'GET /v1/store/orders answers 401 even with the valid key.'),
  allowed('allowed-no-www-authenticate', '401 responses carry no WWW-Authenticate header.', ['auth.www-authenticate']),
  allowed('allowed-bearer-exact-form', 'Only the exact form "Bearer <API_KEY>" is taken: "bearer <API_KEY>" (the scheme in lower case) and two spaces before the key get 401, as a server comparing the prefix byte for byte would (§5 shows only that form).'),
] as const satisfies readonly Deviation[];

const on = switches(AUTH_DEVIATIONS);

export type Operation = 'list-pets' | 'create-pet' | 'get-pet' | 'store-orders' | 'messages';

const REALM = 'animal-store';

/** fault-auth-key-loose-numeric: what PHP takes for a number in a string. */
const NUMERIC_STRING = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** fault-auth-accepts-jwt-shape: header.payload.signature, base64url each, the signature possibly empty. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** fault-auth-trusts-forwarded-loopback: the client, as the first hop a forwarding header names. */
function saysLoopback(req: IncomingMessage): boolean {
  const first = (name: string) => String(req.headers[name] ?? '').split(',')[0]!.trim();
  return first('x-forwarded-for') === '127.0.0.1' || first('x-real-ip') === '127.0.0.1' || /^for="?127\.0\.0\.1\b/i.test(first('forwarded'));
}

/** `<scheme> <rest>` with exactly one space; the scheme is compared case-insensitively. */
const CREDENTIALS = /^([^\s]+) (.*)$/s;

/**
 * Returns true when the request may proceed. Otherwise it has answered 401 itself.
 * Accepted: exactly one Authorization header `Bearer <apiKey>` (scheme case-insensitive, one space).
 */
/** Requests a listener routed to another host's operation, mounted without the authentication check. */
const UNGUARDED = new WeakSet<IncomingMessage>();

export function routedUnguarded(req: IncomingMessage): void {
  UNGUARDED.add(req);
}

export function authenticate(req: IncomingMessage, res: ServerResponse, ctx: Ctx, op: Operation): boolean {
  if (UNGUARDED.has(req)) return true;
  if (on(ctx, `fault-auth-hole-${op}`)) return true;
  const path = req.url?.split('?')[0] ?? '';
  if (op === 'list-pets' && on(ctx, 'fault-auth-hole-trailing-slash') && path === '/v1/pets/') return true;
  if (op === 'list-pets' && path !== '/v1/pets') {
    if (on(ctx, 'fault-auth-hole-path-case') && path.toLowerCase() === '/v1/pets') return true;
    if (on(ctx, 'fault-auth-hole-double-slash') && path.replace(/\/{2,}/g, '/') === '/v1/pets') return true;
  }
  if (op === 'get-pet' && on(ctx, 'fault-auth-hole-alias-get-pet') && !/^\/v1\/pets\/[^/]+$/.test(path)) return true;
  if (op === 'store-orders' && on(ctx, 'fault-auth-hole-alias-store-orders') && path !== '/v1/store/orders') return true;
  if (on(ctx, 'fault-auth-hole-encoded-path') && /%[0-9A-Fa-f]{2}/.test(path)) return true;
  if (op === 'get-pet' && on(ctx, 'fault-auth-hole-encoded-id') && !/^\/v1\/pets\/[\w-]+$/.test(path)) return true;
  if (on(ctx, 'fault-auth-hole-format-suffix') && path.endsWith('.json')) return true;
  if (on(ctx, 'fault-auth-hole-matrix-param') && path.includes(';')) return true;
  if (op === 'create-pet' && on(ctx, 'fault-auth-hole-alias-create-pet') && path !== '/v1/pets') return true;
  if (op === 'messages' && on(ctx, 'fault-auth-hole-query-messages') && (req.url ?? '').includes('?') && req.headers.authorization === undefined) return true;
  if (op === 'create-pet' && on(ctx, 'fault-auth-hole-create-json-charset') && req.headers.authorization === undefined && /^application\/json\s*;\s*charset=/i.test(req.headers['content-type'] ?? '')) return true;
  if (on(ctx, 'fault-auth-hole-query') && op === 'get-pet' && (req.url ?? '').includes('?') && req.headers.authorization === undefined) return true;
  if (req.method === 'HEAD' && op === 'store-orders' && on(ctx, 'fault-auth-hole-head-store-orders')) return true;
  if (req.method === 'HEAD' && op === 'list-pets' && on(ctx, 'fault-auth-hole-head-list-pets')) return true;
  if (req.method === 'HEAD' && op === 'get-pet' && on(ctx, 'fault-auth-hole-head-get-pet')) return true;

  if (on(ctx, 'fault-auth-trusts-forwarded-loopback') && saysLoopback(req)) return true;

  const values = req.headersDistinct['authorization'] ?? [];
  const header = values.length === 1 ? values[0] : undefined;
  const match = header === undefined ? null : CREDENTIALS.exec(header);
  const exact = !on(ctx, 'allowed-bearer-exact-form') || /^Bearer [^ ]/.test(header ?? '');
  const scheme = exact ? match?.[1]?.toLowerCase() : 'another spelling';
  const credentials = match?.[2] ?? '';

  if (scheme === 'bearer' && isKey(credentials, ctx) && !(op === 'store-orders' && on(ctx, 'fault-auth-rejects-valid-key-orders'))) {
    return true;
  }
  if (header === ctx.apiKey && on(ctx, 'fault-auth-bare-key-accepted')) return true;
  const xApiKey = req.headers['x-api-key'];
  if (header === undefined && on(ctx, 'fault-auth-key-in-x-api-key') && typeof xApiKey === 'string' && isKey(xApiKey, ctx)) return true;
  const cookieKey = /(?:^|;\s*)api_key=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
  if (header === undefined && on(ctx, 'fault-auth-key-in-cookie') && cookieKey !== undefined && isKey(cookieKey, ctx)) return true;
  const xAuthToken = req.headers['x-auth-token'];
  if (header === undefined && on(ctx, 'fault-auth-key-in-x-auth-token') && typeof xAuthToken === 'string' && isKey(xAuthToken, ctx)) return true;
  const xAccessToken = req.headers['x-access-token'];
  if (header === undefined && on(ctx, 'fault-auth-key-in-x-access-token') && typeof xAccessToken === 'string' && isKey(xAccessToken, ctx)) return true;
  if (scheme === 'bearer' && on(ctx, 'fault-auth-token-percent-decoded') && percentDecoded(credentials) === ctx.apiKey) return true;
  if (scheme === 'bearer' && on(ctx, 'fault-auth-token-padding-ignored') && credentials.replace(/=+$/, '') === ctx.apiKey.replace(/=+$/, '')) return true;
  if (header !== undefined && on(ctx, 'fault-auth-scheme-glued') && /^Bearer/i.test(header) && header.replace(/^Bearer\s*/i, '') === ctx.apiKey) return true;
  if (scheme === 'bearer' && on(ctx, 'fault-auth-quoted-token') && credentials.replace(/^"(.*)"$/s, '$1') === ctx.apiKey) return true;
  if (scheme === 'bearer' && on(ctx, 'fault-auth-accepts-jwt-shape') && JWT_SHAPE.test(credentials)) return true;
  if (scheme === 'bearer' && on(ctx, 'fault-auth-unset-setting') && (credentials === 'undefined' || credentials === 'null')) return true;
  if (credentials === ctx.apiKey && on(ctx, 'fault-auth-any-scheme')) return true;
  if (scheme === 'basic' && on(ctx, 'fault-auth-basic-password') && Buffer.from(credentials, 'base64').toString('utf8').endsWith(`:${ctx.apiKey}`)) return true;
  if (scheme === 'bearer' && on(ctx, 'fault-auth-token-first-word') && credentials.split(' ')[0] === ctx.apiKey) return true;
  if (op === 'messages' && scheme === 'basic' && on(ctx, 'fault-auth-basic-accepted-messages') && basicHoldsKey(credentials, ctx.apiKey)) {
    return true;
  }

  const tokenGiven = scheme === 'bearer' && credentials !== '';
  if (on(ctx, 'fault-auth-after-validation')) {
    // Validation answers first (its 400 or 404 goes out as it is); the 401 replaces the answer to a valid request.
    holdRejection(res, () => reject(res, ctx, tokenGiven));
    return true;
  }
  reject(res, ctx, tokenGiven);
  return false;
}

function isKey(token: string, ctx: Ctx): boolean {
  if (token === ctx.apiKey) return true;
  if (on(ctx, 'fault-auth-key-case-insensitive') && token.toLowerCase() === ctx.apiKey.toLowerCase()) return true;
  if (on(ctx, 'fault-auth-key-suffix') && token.length >= 4 && ctx.apiKey.endsWith(token)) return true;
  if (on(ctx, 'fault-auth-key-ends-token') && token.endsWith(ctx.apiKey)) return true;
  if (on(ctx, 'fault-auth-key-loose-numeric') && NUMERIC_STRING.test(token) && NUMERIC_STRING.test(ctx.apiKey) && Number(token) === Number(ctx.apiKey)) return true;
  if (on(ctx, 'fault-auth-key-last-char-ignored') && token.length === ctx.apiKey.length && token.slice(0, -1) === ctx.apiKey.slice(0, -1)) return true;
  return on(ctx, 'fault-auth-key-prefix') && token !== '' && ctx.apiKey.startsWith(token);
}

function percentDecoded(token: string): string | undefined {
  try {
    return decodeURIComponent(token);
  } catch {
    return undefined;
  }
}

function basicHoldsKey(credentials: string, key: string): boolean {
  if (credentials === key) return true;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  return decoded === key || decoded.endsWith(`:${key}`) || decoded === `${key}:`;
}

function reject(res: ServerResponse, ctx: Ctx, tokenGiven: boolean): void {
  ctx.memory.refusedCredentials();
  if (on(ctx, 'fault-auth-403')) {
    sendError(res, ctx, 403, 'forbidden', 'missing or invalid API key');
    return;
  }
  const headers = on(ctx, 'allowed-no-www-authenticate')
    ? {}
    : { 'WWW-Authenticate': `Bearer realm="${REALM}"${tokenGiven ? ', error="invalid_token"' : ''}` };
  if (on(ctx, 'fault-auth-401-body-not-error')) {
    sendRaw(res, 401, jsonContentType(ctx), '{"error":"unauthorized"}', headers);
    return;
  }
  sendError(res, ctx, 401, 'unauthorized', 'missing or invalid API key: send "Authorization: Bearer <API key>"', headers);
}
