// Hostile answers: the faithful reference behind a proxy that rewrites one kind of answer, as a
// broken deployment or a misbehaving gateway would. Every other answer passes through unchanged.

import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Tracked } from './lifecycle.ts';
import { trackedServer } from './lifecycle.ts';

export type ProxyMode = 'hostile-nesting-bomb' | 'hostile-many-keys' | 'hostile-long-numbers' | 'hostile-429-every-other' | 'hostile-400-unread-post' | 'hostile-unasked-101' | 'hostile-huge-headers' | 'hostile-filtered-empty';

export const PROXY_MODES: readonly { id: ProxyMode; description: string }[] = [
  { id: 'hostile-nesting-bomb', description: 'The faithful server, but every 200 to GET /v1/pets is `[` 1,000,000 times then `]` 1,000,000 times (2 MB).' },
  { id: 'hostile-many-keys', description: 'The faithful server, but the first animal of every 200 listing carries 200,000 more members (about 3 MB).' },
  { id: 'hostile-long-numbers', description: 'The faithful server, but in every 200/201 Pet (the first of a listing) id is a number of 1,000,000 digits and categoryId is 1e999999.' },
  { id: 'hostile-429-every-other', description: 'The faithful server, but every other request is answered 429 with Retry-After: 5.' },
  { id: 'hostile-unasked-101', description: 'The faithful server, but every GET /v1/store/orders is answered `101 Switching Protocols` (Upgrade: h2c) though the request asked for no upgrade, and the connection closed.' },
  { id: 'hostile-huge-headers', description: 'The faithful server, but every answer to GET /v1/store/orders carries 200 more headers of 1 KB each (200 KB of headers, past the 128 KiB the suite reads).' },
  { id: 'hostile-filtered-empty', description: 'The faithful server, but every 200 to GET /v1/pets with a status filter is an empty listing `[]`, whatever the store holds: the filter shows nothing to judge.' },
  { id: 'hostile-400-unread-post', description: 'The faithful server, but every POST with a body is answered 400 before the body is read, and the connection then reads nothing more.' },
];

const JSON_TYPE = 'application/json';

interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Forwards one request (its body already read) and reads the whole answer. */
function forward(target: string, req: IncomingMessage, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers };
    delete headers.connection;
    const out = request(`${target}${req.url ?? '/'}`, { method: req.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 502, headers: flat, body: Buffer.concat(chunks) });
      });
      res.once('error', reject);
    });
    out.once('error', reject);
    out.end(body);
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer | string): void {
  const out = { ...headers };
  delete out['content-length'];
  delete out['transfer-encoding'];
  delete out.connection;
  delete out['keep-alive'];
  res.writeHead(status, { ...out, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const announcesBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const isListing = (req: IncomingMessage) => req.method === 'GET' && /^\/v1\/pets(\?|$)/.test(req.url ?? '');

const isOrders = (req: IncomingMessage) => req.method === 'GET' && /^\/v1\/store\/orders(\?|$)/.test(req.url ?? '');

/** hostile-huge-headers: 200 headers of 1 KB each. */
const padding = (() => {
  let headers: Record<string, string> | undefined;
  return () => (headers ??= Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-pad-${i}`, 'x'.repeat(1_000)])));
})();

const BOMB_DEPTH = 1_000_000;
const EXTRA_MEMBERS = 200_000;
const LONG_DIGITS = 1_000_000;

/** The members added to a listed animal, written once. */
const manyMembers = (() => {
  let text: Buffer | undefined;
  return () => (text ??= Buffer.from(`${Array.from({ length: EXTRA_MEMBERS }, (_, i) => `"k${i}":0`).join(',')},`));
})();

/** The listing's first animal with EXTRA_MEMBERS more members, written as text (no 200,000-key object built). */
function withManyKeys(body: Buffer): Buffer | undefined {
  const open = body.indexOf('{');
  if (open < 0 || !/^\s*\[\s*$/.test(body.toString('utf8', 0, open))) return undefined;
  return Buffer.concat([body.subarray(0, open + 1), manyMembers(), body.subarray(open + 1)]);
}

const longId = (() => {
  let text: string | undefined;
  return () => (text ??= `"id":${'9'.repeat(LONG_DIGITS)}`);
})();

/** The Pet (or a listing's first Pet) with a million-digit id and categoryId 1e999999, as text. */
function withLongNumbers(body: Buffer): Buffer | undefined {
  const text = body.toString('utf8');
  const id = /"id"\s*:\s*-?\d+/.exec(text);
  if (!id) return undefined;
  let out = `${text.slice(0, id.index)}${longId()}${text.slice(id.index + id[0].length)}`;
  const category = /"categoryId"\s*:\s*-?\d+/.exec(out);
  if (category) out = `${out.slice(0, category.index)}"categoryId":1e999999${out.slice(category.index + category[0].length)}`;
  return Buffer.from(out);
}

function rewriting(mode: ProxyMode, counter: { requests: number }, target: string): (req: IncomingMessage, res: ServerResponse) => void {
  const bomb = mode === 'hostile-nesting-bomb' ? Buffer.from(`${'['.repeat(BOMB_DEPTH)}${']'.repeat(BOMB_DEPTH)}`) : Buffer.alloc(0);
  return (req, res) => {
    const seen = counter.requests++;
    if (mode === 'hostile-429-every-other' && seen % 2 === 1) {
      req.resume();
      send(res, 429, { 'content-type': JSON_TYPE, 'retry-after': '5' }, JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 }));
      return;
    }
    if (mode === 'hostile-unasked-101' && isOrders(req)) {
      req.resume();
      req.socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n');
      return;
    }
    if (mode === 'hostile-400-unread-post' && req.method === 'POST' && announcesBody(req)) {
      // Marks the body as being consumed (so node does not drain it after the answer), then reads
      // nothing more from the connection: once the kernel's buffers are full, the client can write no more.
      // A POST without a body leaves nothing unread: its connection stays in step, as it would.
      req.on('readable', () => undefined);
      const socket = req.socket;
      socket.pause();
      // Node resumes a keep-alive socket for the next request: this one stays paused for good.
      socket.resume = () => socket;
      res.writeHead(400, { 'content-type': JSON_TYPE });
      res.end(JSON.stringify({ code: 'bad_request', message: 'refused before reading', status: 400 }));
      return;
    }
    readBody(req)
      .then((body) => forward(target, req, body))
      .then((upstream) => {
        let body: Buffer | undefined;
        const ok = upstream.status === 200 || upstream.status === 201;
        if (mode === 'hostile-nesting-bomb' && isListing(req) && upstream.status === 200) body = bomb;
        else if (mode === 'hostile-many-keys' && isListing(req) && upstream.status === 200) body = withManyKeys(upstream.body);
        else if (mode === 'hostile-long-numbers' && ok) body = withLongNumbers(upstream.body);
        else if (mode === 'hostile-filtered-empty' && isListing(req) && upstream.status === 200 && /[?&]status=/.test(req.url ?? '')) body = Buffer.from('[]');
        const padded = mode === 'hostile-huge-headers' && isOrders(req) ? { ...upstream.headers, ...padding() } : upstream.headers;
        send(res, upstream.status, padded, body ?? upstream.body);
      })
      .catch(() => {
        if (!res.headersSent) send(res, 502, { 'content-type': JSON_TYPE }, JSON.stringify({ code: 'bad_gateway', message: 'upstream failed', status: 502 }));
        else res.destroy();
      });
  };
}

/** Proxies in front of the reference's two servers (main, messages), counting requests together. */
export function proxyServers(mode: ProxyMode, targets: [string, string]): [Tracked, Tracked] {
  const counter = { requests: 0 };
  return [trackedServer(rewriting(mode, counter, targets[0])), trackedServer(rewriting(mode, counter, targets[1]))];
}

export function isProxyMode(id: string): id is ProxyMode {
  return PROXY_MODES.some((m) => m.id === id);
}
