// The router in front of the operations: which handler a request reaches, and what a gateway or
// load balancer before the service does to it (the deviations that stand there).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { AUTH_DEVIATIONS, routedUnguarded } from './auth.ts';
import type { Ctx, Handler } from './context.ts';
import { allowed, fault, switches, type Deviation } from './deviation.ts';
import { readBody, sendError, sendRaw } from './http.ts';
import { createPet } from './routes/create-pet.ts';
import { getPet } from './routes/get-pet.ts';
import { listPets } from './routes/list-pets.ts';
import { postMessage } from './routes/messages.ts';
import { STORE_ORDERS_DEVIATIONS, storeOrders } from './routes/store-orders.ts';

/** The deviations switched in this module (reference/deviations.ts gathers them into the catalogue). */
export const ROUTER_DEVIATIONS = [
  fault('fault-406-unless-accept-json', 'list.200-pets', 'A request whose Accept does not name application/json (none at all, or */* as curl sends) is refused 406 with an Error, on every operation: RFC 9110 §12.5.1 reads no Accept as any media type.'),
  allowed('allowed-rate-limited', 'Every 37th request on each port answers 429 with an HTML page, as a gateway would, and Retry-After: 0, so the suite retries it (rate limits are not shown, §8; one that outlasts the retries is selftest/cli/rate-limited.test.ts).'),
  allowed('allowed-sporadic-429', 'Every 20th request on each port answers 429 with an HTML page and Retry-After: 1, as a busy gateway would: more waiting over a run than its 10 s budget, so a clause a small scenario rests on one request for is carried by the reserve (§8 shows no rate limit).'),
  allowed('allowed-suffix-and-matrix-routed', 'The router takes a .json suffix of the path for a format and drops ;parameters from each segment (GET /v1/pets.json and /v1/pets/{petId};x=1 are GET /v1/pets and GET /v1/pets/{petId}), authentication included: 401 without credentials, the operation with the key.'),
  allowed('allowed-message-host-catch-all', 'The message host answers every path but /messages as a catch-all mock would, without authentication: GET with 200 [] (application/json), POST with 200 and the request body echoed back (§4.5 defines only POST /messages there; what another path answers is not shown).'),
  allowed('allowed-path-aliases-routed', 'Paths are routed ignoring case and empty segments (GET /v1/PETS and GET /v1//pets are GET /v1/pets), authentication included: 401 without credentials.'),
  allowed('allowed-sporadic-503', 'Every 20th request on each port answers 503 with an HTML page and Retry-After: 0, as a gateway whose upstream pool is briefly short would: each is cured by sending it again (§8 shows no availability promise).'),
  allowed('allowed-in-flight-limit', 'Each port serves at most 4 requests at once, each held 5 ms; one more is answered 503 with an HTML page and no Retry-After, as nginx\'s limit_conn does by default (§8 shows no rate limit; RFC 9110 §15.6.4: 503 is a temporary overload).'),
  allowed('allowed-rate-limit-503', 'Each port admits 300 requests a second with bursts of up to 10 (a token bucket); one past that is answered 503 with an HTML page and no Retry-After, as nginx\'s limit_req does by default (§8 shows no rate limit; RFC 9110 §15.6.4: 503 is a temporary overload).'),
  allowed('allowed-path-rate-limit-503', 'POST /v1/pets alone is admitted 100 times a second with bursts of up to 10 (a token bucket on one path); one past that is answered 503 with an HTML page and no Retry-After, as nginx\'s limit_req in one location block does, while every other operation answers at any rate (§8 shows no rate limit; RFC 9110 §15.6.4: 503 is a temporary overload).'),
  allowed('allowed-cold-start-503', 'The first GET /v1/store/orders answers 503 with an HTML page and Retry-After: 1, as a gateway starting the service would; the suite retries it (§8 shows no availability promise, and a retried 503 is no answer of the service).'),
  allowed('allowed-typed-pet-route', 'GET /v1/pets/{petId} is routed only for a petId that is an int64 (a typed route, as ASP.NET Core\'s {petId:long} has): any other segment, such as /v1/pets/abc or /v1/pets/9223372036854775808 (2^63), gets the router\'s 404 text/plain "404 page not found" before authentication (§4.3 types petId an int64).'),
  allowed('allowed-trailing-slash-html-404', 'GET /v1/pets/ answers 404 text/html before authentication (a router with strict paths; the alias is no operation).'),
  allowed('allowed-waf-user-agent', 'Every request without a User-Agent header is refused 403 with an HTML page (Server: awselb/2.0), as a WAF in front of the service would (AWS WAF\'s core rule set); RFC 9110 §10.1.5: a user agent SHOULD send User-Agent.'),
  allowed('allowed-unasked-100', 'Every answer follows an interim 100 Continue, whether the request asked for one (Expect: 100-continue) or not, as some servers and gateways send it (RFC 9110 §15.2: a client MUST be able to parse 1xx answers it did not expect).'),
  allowed('allowed-cookie-flood', 'Every answer carries 200 Set-Cookie headers, about 40 KB of headers in all, as a load balancer setting affinity cookies might (the spec fixes no response header size).'),
] as const satisfies readonly Deviation[];

const IN_FLIGHT_LIMIT = 4;
/** allowed-rate-limit-503: requests a second, and the most let through at once after a pause. */
const RATE_LIMIT = 300;
const RATE_BURST = 10;
/** allowed-path-rate-limit-503: creates a second. */
const PATH_RATE_LIMIT = 100;
const NGINX_503 = '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

const on = switches(ROUTER_DEVIATIONS, AUTH_DEVIATIONS, STORE_ORDERS_DEVIATIONS);

interface Route {
  match(pathname: string, ctx: Ctx): boolean;
  methods: Partial<Record<string, Handler>>;
}

const GET = (h: Handler) => ({ GET: h, HEAD: h });

export const MAIN_ROUTES: readonly Route[] = [
  { match: (p, ctx) => p === '/v1/pets' || (p === '/v1/pets/' && on(ctx, 'fault-auth-hole-trailing-slash')), methods: { ...GET(listPets), POST: createPet } },
  { match: (p) => /^\/v1\/pets\/[^/]*$/.test(p), methods: GET(getPet) },
  { match: (p) => p === '/v1/store/orders', methods: GET(storeOrders) },
];

export const MESSAGES_ROUTES: readonly Route[] = [{ match: (p) => p === '/messages', methods: { POST: postMessage } }];

/** allowed-message-host-catch-all: what the message host answers a path none of its routes serves. */
const catchAll: Handler = async (req, res) => {
  if (req.method !== 'POST') {
    sendRaw(res, 200, 'application/json', '[]');
    return;
  }
  const read = await readBody(req);
  sendRaw(res, 200, req.headers['content-type'] ?? 'application/octet-stream', read.kind === 'ok' ? read.body : '');
};

/** A route of the other host's, reached on this one without the authentication check. */
function unguardedRoute(route: Route): Route {
  const methods: Partial<Record<string, Handler>> = {};
  for (const [method, handler] of Object.entries(route.methods)) {
    if (!handler) continue;
    methods[method] = (req, res, ctx, url) => {
      routedUnguarded(req);
      return handler(req, res, ctx, url);
    };
  }
  return { match: route.match, methods };
}

/** The routes of each listener: with fault-auth-hole-messages-host-v1 or -main-host-messages, one also routes the other's. */
export function listenerRoutes(ctx: Ctx): { main: readonly Route[]; messages: readonly Route[] } {
  const rest: Route[] = on(ctx, 'allowed-message-host-catch-all') ? [{ match: () => true, methods: { GET: catchAll, POST: catchAll } }] : [];
  return {
    main: on(ctx, 'fault-auth-hole-main-host-messages') ? [...MAIN_ROUTES, ...MESSAGES_ROUTES.map(unguardedRoute)] : MAIN_ROUTES,
    messages: [...(on(ctx, 'fault-auth-hole-messages-host-v1') ? [...MESSAGES_ROUTES, ...MAIN_ROUTES.map(unguardedRoute)] : MESSAGES_ROUTES), ...rest],
  };
}

/** The path as the router matches it: with the alias deviations, case and empty segments dropped. */
function routedPath(pathname: string, ctx: Ctx): string {
  let path = pathname;
  const aliases = on(ctx, 'fault-auth-hole-alias-get-pet') || on(ctx, 'fault-auth-hole-alias-store-orders') || on(ctx, 'fault-auth-hole-alias-create-pet');
  if (on(ctx, 'fault-auth-hole-path-case') || on(ctx, 'allowed-path-aliases-routed') || aliases) path = path.toLowerCase();
  if (on(ctx, 'fault-auth-hole-double-slash') || on(ctx, 'allowed-path-aliases-routed') || aliases) path = path.replace(/\/{2,}/g, '/');
  if (aliases && path.length > 1) path = path.replace(/\/$/, '');
  return path;
}

/** fault-auth-hole-encoded-path: the URL with its path's percent-encodings decoded (where they decode). */
function decodedPath(url: URL): URL {
  const decoded = new URL(url.href);
  try {
    decoded.pathname = decodeURIComponent(url.pathname);
  } catch {
    return url;
  }
  return decoded;
}

/** The URL with another path: the path as routed with a .json suffix or ;parameters taken off. */
function withPathname(url: URL, pathname: string): URL {
  const routed = new URL(url.href);
  routed.pathname = pathname;
  return routed;
}

/** A token bucket: whether one more request is admitted now. */
function tokenBucket(perSecond: number, burst: number): () => boolean {
  let tokens = burst;
  let refilledAt = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - refilledAt) * perSecond) / 1000);
    refilledAt = now;
    if (tokens < 1) return false;
    tokens--;
    return true;
  };
}

/** allowed-cookie-flood: 200 cookies of about 200 bytes each, about 40 KB of response headers. */
const COOKIE_FLOOD = Array.from({ length: 200 }, (_, i) => `lb_affinity_${i}=${'c'.repeat(180)}; Path=/; HttpOnly`);

export function dispatch(routes: readonly Route[], ctx: Ctx) {
  let served = 0;
  let coldStarted = false;
  let serving = 0;
  const bucket = tokenBucket(RATE_LIMIT, RATE_BURST);
  const createsBucket = tokenBucket(PATH_RATE_LIMIT, RATE_BURST);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const limited = on(ctx, 'allowed-rate-limit-503') || (on(ctx, 'allowed-path-rate-limit-503') && req.method === 'POST' && req.url?.split('?')[0] === '/v1/pets');
    if (limited && !(on(ctx, 'allowed-rate-limit-503') ? bucket : createsBucket)()) {
      sendRaw(res, 503, 'text/html', NGINX_503);
      return;
    }
    if (on(ctx, 'allowed-in-flight-limit')) {
      if (serving >= IN_FLIGHT_LIMIT) {
        sendRaw(res, 503, 'text/html', NGINX_503);
        return;
      }
      serving++;
      res.once('close', () => serving--);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (on(ctx, 'allowed-waf-user-agent') && !req.headers['user-agent']) {
      sendRaw(res, 403, 'text/html', '<html><body><h1>403 Forbidden</h1></body></html>', { Server: 'awselb/2.0' });
      return;
    }
    if (on(ctx, 'fault-406-unless-accept-json') && !/application\/json/i.test(req.headers.accept ?? '')) {
      sendError(res, ctx, 406, 'not_acceptable', 'Accept must name application/json');
      return;
    }
    if (on(ctx, 'allowed-unasked-100')) res.writeContinue();
    if (on(ctx, 'allowed-cookie-flood')) res.setHeader('Set-Cookie', COOKIE_FLOOD);
    ctx.memory.othersAct();
    if (on(ctx, 'allowed-rate-limited') && ++served % 37 === 0) {
      // As a gateway in front of a service answers: no Error body.
      sendRaw(res, 429, 'text/html', '<html><body><h1>429 Too Many Requests</h1></body></html>', { 'Retry-After': '0' });
      return;
    }
    if (on(ctx, 'allowed-sporadic-503') && ++served % 20 === 0) {
      sendRaw(res, 503, 'text/html', '<html><body><h1>503 Service Unavailable</h1></body></html>', { 'Retry-After': '0' });
      return;
    }
    if (on(ctx, 'allowed-sporadic-429') && ++served % 20 === 0) {
      sendRaw(res, 429, 'text/html', '<html><body><h1>429 Too Many Requests</h1></body></html>', { 'Retry-After': '1' });
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://reference.invalid');
    } catch {
      sendError(res, ctx, 400, 'invalid_request_target', 'the request target is not a valid URL');
      return;
    }
    if (url.pathname === '/v1/store/orders' && on(ctx, 'allowed-cold-start-503') && !coldStarted) {
      coldStarted = true;
      sendRaw(res, 503, 'text/html', '<html><body><h1>503 Service Unavailable</h1><p>starting</p></body></html>', { 'Retry-After': '1' });
      return;
    }
    if (on(ctx, 'allowed-typed-pet-route') && /^\/v1\/pets\/[^/]+$/.test(url.pathname) && !isInt64Segment(url.pathname.slice('/v1/pets/'.length))) {
      sendRaw(res, 404, 'text/plain; charset=utf-8', '404 page not found\n');
      return;
    }
    if (url.pathname === '/v1/pets/' && on(ctx, 'allowed-trailing-slash-html-404')) {
      sendRaw(res, 404, 'text/html', '<h1>Not Found</h1>');
      return;
    }
    if (on(ctx, 'fault-auth-hole-encoded-path') && /%[0-9A-Fa-f]{2}/.test(url.pathname)) url = decodedPath(url);
    if ((on(ctx, 'fault-auth-hole-format-suffix') || on(ctx, 'allowed-suffix-and-matrix-routed')) && url.pathname.endsWith('.json')) url = withPathname(url, url.pathname.slice(0, -'.json'.length));
    if ((on(ctx, 'fault-auth-hole-matrix-param') || on(ctx, 'allowed-suffix-and-matrix-routed')) && url.pathname.includes(';')) url = withPathname(url, url.pathname.replace(/;[^/]*/g, ''));
    const route = routes.find((r) => r.match(routedPath(url.pathname, ctx), ctx));
    if (!route) {
      const id = on(ctx, 'fault-orders-missing-request-id') ? ` (request ${++ctx.requestIds})` : '';
      sendError(res, ctx, 404, 'not_found', `no such resource: ${url.pathname}${id}`);
      return;
    }
    const handler = route.methods[req.method ?? ''];
    if (!handler) {
      const allow = Object.keys(route.methods).join(', ');
      sendError(res, ctx, 405, 'method_not_allowed', `method ${req.method} not allowed; allowed: ${allow}`, { Allow: allow });
      return;
    }
    await handler(req, res, ctx, url);
  };
}

/** A path segment a typed int64 route takes: an optional minus and digits, within int64. */
function isInt64Segment(segment: string): boolean {
  return /^-?\d+$/.test(segment) && BigInt(segment) >= -(2n ** 63n) && BigInt(segment) < 2n ** 63n;
}
