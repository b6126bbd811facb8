import { shownRequest, type Authorization, type ClientStats, type OutgoingRequest } from '../http/client.ts';
import type { RequestBody } from '../http/body-bytes.ts';
import type { Exchange } from '../http/exchange.ts';
import type { SuiteConfig } from './config.ts';
import type { WorkerContext } from './worker.ts';

export interface SendOptions {
  path?: Record<string, string>;
  /** Raw query string, sent as written (so invalid values stay invalid). */
  query?: string;
  body?: RequestBody;
  /** null: send no Content-Type. Default application/json when there is a body. */
  contentType?: string | null;
  /** null: send no Accept. Default application/json. */
  accept?: string | null;
  /** null: send no Authorization. Default: the valid key. */
  authorization?: Authorization | null;
  /** Absolute URL instead of the operation's (e.g. a Location header). */
  url?: string;
  /** Instead of the operation's method (e.g. HEAD). */
  method?: string;
  /** Served first under the in-flight cap (ScenarioOptions.critical). */
  critical?: boolean;
  /** OutgoingRequest.reserve: Scenario.send sets it for a scenario's first requests; a test sets it where a clause rests on one answer later on. */
  reserve?: boolean;
}

/** Per route template, a pattern its paths match (a base URL's prefix before it). */
const ROUTE_PATTERNS = new Map<string, RegExp>();

/** `GET /v1/pets/{petId}` for the operation's template, else the method and the path as sent (an alias probe). */
function routeOf(method: string, template: string, url: string): string {
  let path = plainPath(url);
  if (path === undefined) {
    try {
      path = new URL(url).pathname;
    } catch {
      return `${method} ${template}`;
    }
  }
  let pattern = ROUTE_PATTERNS.get(template);
  if (!pattern) {
    pattern = new RegExp(`${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`);
    ROUTE_PATTERNS.set(template, pattern);
  }
  return `${method} ${pattern.test(path) ? template : path}`;
}

/** `http://host:port/path?query` to its path, where the URL parser would keep it as written: no dot, percent sign or other character it rewrites. */
const PLAIN_URL = /^https?:\/\/[\w.-]+(?::\d+)?(\/[\w\-~!$&'()*+,;=:@/]*)(?:\?[^#]*)?$/;
function plainPath(url: string): string | undefined {
  return PLAIN_URL.exec(url)?.[1];
}

/** The Authorization §5 shows, with the key as curl lines and reports show it. */
export function validAuthorization(config: Pick<SuiteConfig, 'apiKey'>): Authorization {
  return { value: `Bearer ${config.apiKey}`, shown: 'Bearer $API_KEY' };
}

/** The URL of an operation on the base URL its server is configured with. */
export function operationUrl(ctx: WorkerContext, operationId: string, path: Record<string, string> = {}, query?: string): string {
  const op = ctx.contract.operations[operationId];
  if (!op) throw new Error(`no operation ${operationId}`);
  const base = op.server === 'messages' ? ctx.config.messagesBaseUrl : `${ctx.config.baseUrl}/v1`;
  if (!base) throw new Error(`no base URL configured for ${operationId}`);
  const filled = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ''));
  return `${base}${filled}${query ? `?${query}` : ''}`;
}

/**
 * Builds an operation's request (the valid key unless told otherwise) and sends it through the
 * worker's one client, counted in `tally` too; `route` is the operation it counts against (its
 * method and route template).
 */
export async function sendOperation(ctx: WorkerContext, operationId: string, options: SendOptions = {}, tally?: Omit<ClientStats, 'waitedMs'>): Promise<{ exchange: Exchange; route: string }> {
  const op = ctx.contract.operations[operationId];
  if (!op) throw new Error(`no operation ${operationId}`);
  // identity: with no Accept-Encoding a server may pick any coding, and the bodies are judged as sent.
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Encoding': 'identity' };
  if (options.accept === null) delete headers['Accept'];
  else if (options.accept !== undefined) headers['Accept'] = options.accept;
  const contentType = options.contentType === undefined ? (options.body === undefined ? null : 'application/json') : options.contentType;
  if (contentType !== null) headers['Content-Type'] = contentType;
  const request: OutgoingRequest = {
    method: options.method ?? op.method,
    url: options.url ?? operationUrl(ctx, operationId, options.path, options.query),
    headers,
  };
  const authorization = options.authorization === undefined ? validAuthorization(ctx.config) : options.authorization;
  if (authorization) request.authorization = authorization;
  if (options.body !== undefined) request.body = options.body;
  if (options.critical) request.critical = true;
  if (options.reserve) request.reserve = true;
  const base = op.server === 'messages' ? '' : '/v1';
  request.operation = routeOf(request.method, `${base}${op.path}`, request.url);
  // Not sent is evidence of nothing: the clauses this operation shares with others are judged on those.
  const exchange = ctx.config.skip.includes(operationId)
    ? { request: shownRequest(request), failure: { kind: 'left-out' as const, message: `${operationId} is left out (--skip ${operationId})` }, durationMs: 0 }
    : await ctx.client.send(request, tally);
  exchange.operationId = operationId;
  if (exchange.response) exchange.sentAt = Date.now() - exchange.durationMs;
  return { exchange, route: request.operation };
}
