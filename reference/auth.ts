// Bearer authentication, checked first by every operation.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from './context.ts';
import { holdRejection, sendError, sendRaw, jsonContentType } from './http.ts';

export type Operation = 'list-pets' | 'create-pet' | 'get-pet' | 'store-orders' | 'messages';

const REALM = 'animal-store';

/** `<scheme> <rest>` with exactly one space; the scheme is compared case-insensitively. */
const CREDENTIALS = /^([^\s]+) (.*)$/s;

/**
 * Returns true when the request may proceed. Otherwise it has answered 401 itself.
 * Accepted: exactly one Authorization header `Bearer <apiKey>` (scheme case-insensitive, one space).
 */
export function authenticate(req: IncomingMessage, res: ServerResponse, ctx: Ctx, op: Operation): boolean {
  if (ctx.dev.has(`fault-auth-hole-${op}`)) return true;
  const path = req.url?.split('?')[0] ?? '';
  if (op === 'list-pets' && ctx.dev.has('fault-auth-hole-trailing-slash') && path === '/v1/pets/') return true;
  if (op === 'list-pets' && path !== '/v1/pets') {
    if (ctx.dev.has('fault-auth-hole-path-case') && path.toLowerCase() === '/v1/pets') return true;
    if (ctx.dev.has('fault-auth-hole-double-slash') && path.replace(/\/{2,}/g, '/') === '/v1/pets') return true;
  }
  if (req.method === 'HEAD' && op === 'list-pets' && ctx.dev.has('fault-auth-hole-head-list-pets')) return true;
  if (req.method === 'HEAD' && op === 'get-pet' && ctx.dev.has('fault-auth-hole-head-get-pet')) return true;

  const values = req.headersDistinct['authorization'] ?? [];
  const header = values.length === 1 ? values[0] : undefined;
  const match = header === undefined ? null : CREDENTIALS.exec(header);
  const exact = !ctx.dev.has('allowed-bearer-exact-form') || /^Bearer [^ ]/.test(header ?? '');
  const scheme = exact ? match?.[1]?.toLowerCase() : 'another spelling';
  const credentials = match?.[2] ?? '';

  if (scheme === 'bearer' && isKey(credentials, ctx) && !(op === 'store-orders' && ctx.dev.has('fault-auth-rejects-valid-key-orders'))) {
    return true;
  }
  if (header === ctx.apiKey && ctx.dev.has('fault-auth-bare-key-accepted')) return true;
  if (credentials === ctx.apiKey && ctx.dev.has('fault-auth-any-scheme')) return true;
  if (op === 'messages' && scheme === 'basic' && ctx.dev.has('fault-auth-basic-accepted-messages') && basicHoldsKey(credentials, ctx.apiKey)) {
    return true;
  }

  const tokenGiven = scheme === 'bearer' && credentials !== '';
  if (ctx.dev.has('fault-auth-after-validation')) {
    // Validation answers first (its 400 or 404 goes out as it is); the 401 replaces the answer to a valid request.
    holdRejection(res, () => reject(res, ctx, tokenGiven));
    return true;
  }
  reject(res, ctx, tokenGiven);
  return false;
}

function isKey(token: string, ctx: Ctx): boolean {
  if (token === ctx.apiKey) return true;
  if (ctx.dev.has('fault-auth-key-case-insensitive') && token.toLowerCase() === ctx.apiKey.toLowerCase()) return true;
  return ctx.dev.has('fault-auth-key-prefix') && token !== '' && ctx.apiKey.startsWith(token);
}

function basicHoldsKey(credentials: string, key: string): boolean {
  if (credentials === key) return true;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  return decoded === key || decoded.endsWith(`:${key}`) || decoded === `${key}:`;
}

function reject(res: ServerResponse, ctx: Ctx, tokenGiven: boolean): void {
  ctx.memory.refusedCredentials();
  if (ctx.dev.has('fault-auth-403')) {
    sendError(res, ctx, 403, 'forbidden', 'missing or invalid API key');
    return;
  }
  const headers = ctx.dev.has('allowed-no-www-authenticate')
    ? {}
    : { 'WWW-Authenticate': `Bearer realm="${REALM}"${tokenGiven ? ', error="invalid_token"' : ''}` };
  if (ctx.dev.has('fault-auth-401-body-not-error')) {
    sendRaw(res, 401, jsonContentType(ctx), '{"error":"unauthorized"}', headers);
    return;
  }
  sendError(res, ctx, 401, 'unauthorized', 'missing or invalid API key: send "Authorization: Bearer <API key>"', headers);
}
