// Helpers for the reference-server self-tests: start/stop servers and make bounded requests.

import { request } from 'undici';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.ts';

export const KEY = 'test-key-123';
export const AUTH = `Bearer ${KEY}`;

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** JSON.parse of the body, or undefined when it is not JSON. */
  json: unknown;
}

export interface CallOptions {
  method?: string;
  /** Authorization header; default the valid one; null sends none. */
  auth?: string | null;
  /** Content-Type; default application/json when a body is given; null sends none. */
  contentType?: string | null;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export async function call(url: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? AUTH : options.auth;
  if (auth !== null) headers['authorization'] = auth;
  const contentType = options.contentType === undefined ? (options.body !== undefined ? 'application/json' : null) : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const res = await request(url, {
    method: (options.method ?? (options.body !== undefined ? 'POST' : 'GET')) as 'GET',
    headers,
    body: options.body,
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

export function header(reply: Reply, name: string): string | undefined {
  const v = reply.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Starts a server, runs `fn`, always closes it. */
export async function withServer<T>(options: Partial<ReferenceOptions>, fn: (srv: RunningReference) => Promise<T>): Promise<T> {
  const srv = await startReference({ apiKey: KEY, ...options });
  try {
    return await fn(srv);
  } finally {
    await srv.close();
  }
}

export type Obj = Record<string, unknown>;

export function obj(reply: Reply): Obj {
  if (typeof reply.json !== 'object' || reply.json === null || Array.isArray(reply.json)) throw new Error(`not an object: ${reply.text}`);
  return reply.json as Obj;
}

export function arr(reply: Reply): Obj[] {
  if (!Array.isArray(reply.json)) throw new Error(`not an array: ${reply.text}`);
  return reply.json as Obj[];
}

/** Checks the Error shape `{code: string, message: string, status: <HTTP status>}` and the JSON content type. */
export function isErrorReply(reply: Reply, status: number): boolean {
  const body = reply.json as Obj | undefined;
  return (
    reply.status === status &&
    header(reply, 'content-type') === 'application/json; charset=utf-8' &&
    typeof body === 'object' &&
    body !== null &&
    typeof body['code'] === 'string' &&
    typeof body['message'] === 'string' &&
    body['status'] === status
  );
}

export async function createPet(srv: RunningReference, pet: Obj | string): Promise<Reply> {
  return call(`${srv.baseUrl}/v1/pets`, { body: typeof pet === 'string' ? pet : JSON.stringify(pet) });
}
