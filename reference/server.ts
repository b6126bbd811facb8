// Hand-written reference implementation of the Animal Store service (node:http, no framework).
//
// Two listeners: the main one serves the /v1 operations, the messages one serves POST /messages.
// Behaviour follows spec/service-spec.md; switchable deviations are declared where they are switched
// (router.ts, auth.ts, routes/…) and gathered in deviations.ts.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Ctx } from './context.ts';
import { CallMemory } from './call-memory.ts';
import { deviationSet } from './deviations.ts';
import { answerTwice, closedAfterFifth, jsonContentType, limitConnections, sendError, errorBody } from './http.ts';
import { stringify } from './json.ts';
import { listen, trackedServer, urlOf } from './lifecycle.ts';
import { dispatch, listenerRoutes } from './router.ts';
import { openStore } from './store.ts';

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

/** Wraps a handler: an unexpected exception becomes 500 with an Error body (should not happen). */
function guarded(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, ctx: Ctx) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (closedAfterFifth(ctx, req, res)) return;
    answerTwice(ctx, req, res);
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
  const store = openStore({ dev }, options.seedPets ?? true);
  const ctx: Ctx = { apiKey: options.apiKey, dev, store, requestIds: 0, memory: new CallMemory(dev, store) };

  const routes = listenerRoutes(ctx);
  const main = trackedServer(guarded(dispatch(routes.main, ctx), ctx));
  const messages = trackedServer(guarded(dispatch(routes.messages, ctx), ctx));
  for (const t of [main, messages]) {
    t.server.on('clientError', onClientError(ctx));
    limitConnections(ctx, t.server);
  }
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
