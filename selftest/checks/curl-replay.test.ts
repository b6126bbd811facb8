/**
 * The curl line of a report, run for real: a loopback server records what the suite's client sent
 * and what curl sends from the line printed for it, and the two must be the same request (method,
 * target, body, every header but those curl and undici each name for themselves).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_OPTIONS, HttpClient, type OutgoingRequest } from '../../src/http/client.ts';
import { curlLine } from '../../src/http/curl.ts';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';

const KEY = 'sk_replay_7Qw2/Er+9Ty=';
const OWN_HEADERS = new Set(['host', 'user-agent', 'connection', 'keep-alive']);

interface Seen {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string;
}

const haveCurl = await promisify(execFile)('curl', ['--version'], { timeout: 5_000 }).then(
  () => true,
  () => false,
);
if (!haveCurl) console.warn('curl-replay: skipped, curl is not installed here (the curl lines are replayed only where it is)');

describe.skipIf(!haveCurl)('the curl line sends the request the suite sent', () => {
  let server: LoopbackServer;
  const seen: Seen[] = [];
  const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, timeoutMs: 5_000 });
  beforeAll(async () => {
    server = await serveOnLoopback((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (let i = 0; i < req.rawHeaders.length; i += 2) {
          const name = req.rawHeaders[i]!.toLowerCase();
          if (!OWN_HEADERS.has(name)) headers[name] = req.rawHeaders[i + 1]!;
        }
        seen.push({ method: req.method ?? '', target: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  const json = { Accept: 'application/json', 'Accept-Encoding': 'identity' };
  const cases: [string, Omit<OutgoingRequest, 'url'> & { path: string }][] = [
    ['a POST with a JSON body', { method: 'POST', path: '/v1/pets', headers: { ...json, 'Content-Type': 'application/json' }, body: '{"name":"it\'s $HOME"}' }],
    ['a POST with a body and no Content-Type', { method: 'POST', path: '/messages', headers: json, body: '{"message":"!"}' }],
    ['a POST with no body', { method: 'POST', path: '/v1/pets', headers: { ...json, 'Content-Type': 'application/json' } }],
    ['a POST with an empty body', { method: 'POST', path: '/v1/pets', headers: { ...json, 'Content-Type': 'application/json' }, body: '' }],
    ['a GET with a query', { method: 'GET', path: '/v1/pets?limit=5&status=sold', headers: json }],
    ['a GET with an empty Authorization', { method: 'GET', path: '/v1/pets', headers: { ...json, Authorization: '' } }],
  ];

  it.each(cases)('%s', async (_name, { path, ...request }) => {
    seen.length = 0;
    const exchange = await client.send({ ...request, url: `${server.url}${path}`, authorization: request.headers?.Authorization === undefined ? { value: `Bearer ${KEY}`, shown: 'Bearer $API_KEY' } : undefined });
    expect(exchange.response?.status).toBe(200);
    const line = curlLine(exchange.request);
    expect(line).not.toContain(KEY);
    await promisify(execFile)('bash', ['-c', `${line} -o /dev/null`], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', API_KEY: KEY },
      timeout: 10_000,
    });
    expect(seen).toHaveLength(2);
    const [sent, replayed] = seen;
    expect(replayed, line).toEqual(sent);
  });
});
