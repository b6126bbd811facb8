// Hand-written reference implementation of the Animal Store service (node:http, no framework).
//
// Two listeners: the main one serves the /v1 operations, the messages one serves POST /messages.
// Behaviour follows /work/shared/service-spec.md; switchable deviations are listed in deviations.ts.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Ctx, Handler } from './context.ts';
import { CallMemory } from './call-memory.ts';
import { deviationSet } from './deviations.ts';
import { jsonContentType, sendError, sendRaw, errorBody } from './http.ts';
import { stringify } from './json.ts';
import { listen, trackedServer, urlOf } from './lifecycle.ts';
import { createPet } from './routes/create-pet.ts';
import { getPet } from './routes/get-pet.ts';
import { listPets } from './routes/list-pets.ts';
import { postMessage } from './routes/messages.ts';
import { storeOrders } from './routes/store-orders.ts';
import { PetStore, seedStore } from './store.ts';

export interface ReferenceOptions {
  apiKey: string;
  /** Ids from DEVIATIONS; an unknown id throws an Error naming it. */
  deviations?: readonly string[];
  /** Default true: seed the store with 10 pets. */
  seedPets?: boolean;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 0 (a free port). */
  messagesPort?: number;
}

export interface RunningReference {
  /** e.g. http://127.0.0.1:PORT, without /v1 (operations live under /v1). */
  baseUrl: string;
  /** e.g. http://127.0.0.1:PORT2 (the message operation is POST /messages there). */
  messagesBaseUrl: string;
  /** Closes both servers, destroying open sockets; resolves promptly even mid-request. */
  close(): Promise<void>;
}

interface Route {
  match(pathname: string, ctx: Ctx): boolean;
  methods: Partial<Record<string, Handler>>;
}

const GET = (h: Handler) => ({ GET: h, HEAD: h });

const MAIN_ROUTES: readonly Route[] = [
  { match: (p, ctx) => p === '/v1/pets' || (p === '/v1/pets/' && ctx.dev.has('fault-auth-hole-trailing-slash')), methods: { ...GET(listPets), POST: createPet } },
  { match: (p) => /^\/v1\/pets\/[^/]*$/.test(p), methods: GET(getPet) },
  { match: (p) => p === '/v1/store/orders', methods: GET(storeOrders) },
];

const MESSAGES_ROUTES: readonly Route[] = [{ match: (p) => p === '/messages', methods: { POST: postMessage } }];

/** The path as the router matches it: with the alias deviations, case and empty segments dropped. */
function routedPath(pathname: string, ctx: Ctx): string {
  let path = pathname;
  if (ctx.dev.has('fault-auth-hole-path-case') || ctx.dev.has('allowed-path-aliases-routed')) path = path.toLowerCase();
  if (ctx.dev.has('fault-auth-hole-double-slash') || ctx.dev.has('allowed-path-aliases-routed')) path = path.replace(/\/{2,}/g, '/');
  return path;
}

/** allowed-cookie-flood: 200 cookies of about 200 bytes each, about 40 KB of response headers. */
const COOKIE_FLOOD = Array.from({ length: 200 }, (_, i) => `lb_affinity_${i}=${'c'.repeat(180)}; Path=/; HttpOnly`);

function dispatch(routes: readonly Route[], ctx: Ctx) {
  let served = 0;
  let coldStarted = false;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (ctx.dev.has('allowed-waf-user-agent') && !req.headers['user-agent']) {
      sendRaw(res, 403, 'text/html', '<html><body><h1>403 Forbidden</h1></body></html>', { Server: 'awselb/2.0' });
      return;
    }
    if (ctx.dev.has('allowed-cookie-flood')) res.setHeader('Set-Cookie', COOKIE_FLOOD);
    ctx.memory.othersAct();
    if (ctx.dev.has('allowed-rate-limited') && ++served % 37 === 0) {
      // As a gateway in front of a service answers: no Error body.
      sendRaw(res, 429, 'text/html', '<html><body><h1>429 Too Many Requests</h1></body></html>', { 'Retry-After': '0' });
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://reference.invalid');
    } catch {
      sendError(res, ctx, 400, 'invalid_request_target', 'the request target is not a valid URL');
      return;
    }
    if (url.pathname === '/v1/store/orders' && ctx.dev.has('allowed-cold-start-503') && !coldStarted) {
      coldStarted = true;
      sendRaw(res, 503, 'text/html', '<html><body><h1>503 Service Unavailable</h1><p>starting</p></body></html>', { 'Retry-After': '1' });
      return;
    }
    if (url.pathname === '/v1/pets/' && ctx.dev.has('allowed-trailing-slash-html-404')) {
      sendRaw(res, 404, 'text/html', '<h1>Not Found</h1>');
      return;
    }
    const route = routes.find((r) => r.match(routedPath(url.pathname, ctx), ctx));
    if (!route) {
      const id = ctx.dev.has('fault-orders-missing-request-id') ? ` (request ${++ctx.requestIds})` : '';
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

/** Wraps a handler: an unexpected exception becomes 500 with an Error body (should not happen). */
function guarded(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, ctx: Ctx) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        sendError(res, ctx, 500, 'internal_error', `unexpected error: ${(error as Error)?.message ?? String(error)}`);
      } else {
        res.destroy();
      }
    });
  };
}

/** Malformed HTTP (bad method, oversized headers...): answer a JSON Error instead of Node's bare 400. */
function onClientError(ctx: Ctx) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
    const body = stringify(errorBody(ctx, status, status === 431 ? 'headers_too_large' : 'bad_request', 'malformed HTTP request'));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${jsonContentType(ctx)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}

export async function startReference(options: ReferenceOptions): Promise<RunningReference> {
  if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new Error('startReference: apiKey must be a non-empty string');
  const dev = deviationSet(options.deviations ?? []);
  const host = options.host ?? '127.0.0.1';
  const store = new PetStore(dev.has('allowed-big-ids') ? 2n ** 60n + 1n : 1n);
  if ((options.seedPets ?? true) && !dev.has('allowed-empty-store')) seedStore(store);
  const ctx: Ctx = { apiKey: options.apiKey, dev, store, requestIds: 0, memory: new CallMemory(dev, store) };

  const main = trackedServer(guarded(dispatch(MAIN_ROUTES, ctx), ctx));
  const messages = trackedServer(guarded(dispatch(MESSAGES_ROUTES, ctx), ctx));
  for (const t of [main, messages]) t.server.on('clientError', onClientError(ctx));
  const close = async () => {
    await Promise.all([main.close(), messages.close()]);
  };
  try {
    const port = await listen(main.server, host, options.port ?? 0);
    const messagesPort = await listen(messages.server, host, options.messagesPort ?? 0);
    return { baseUrl: urlOf(host, port), messagesBaseUrl: urlOf(host, messagesPort), close };
  } catch (error) {
    await close();
    throw error;
  }
}
