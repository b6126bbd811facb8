/**
 * A server that writes the key back as its JSON encoder or a URL encoder would, and where the
 * suite's excerpts are cut (the 300 bytes of an Actual line, the 2048 of report.json's excerpt):
 * no output may hold the key, whole or in part (audit 8 M1).
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'sk-Echo/Key+1234567890';

/** 404 bodies that are no Error, holding the key escaped, percent-encoded, and across both cuts. */
function body(authorization: string): string {
  const pad = (n: number) => 'p'.repeat(n);
  const head = `{"a":"${pad(260)}","echo":"${authorization.replaceAll('/', '\\/')}","url":"${encodeURIComponent(authorization)}","b":"${pad(1500)}",`;
  const cutAt = 2048 - head.length - '"cut":"'.length - 'Bearer sk-Echo/Ke'.length;
  return `${head}"cut":"${pad(cutAt)}${authorization}","z":1}`;
}

/** 401 without the key; with it, `notFound` answers GET /v1/pets/{petId} (a 404 that is no Error), and every other path []. */
function serveWithEchoes(notFound: (authorization: string, res: ServerResponse) => void): Promise<LoopbackServer> {
  return serveOnLoopback((req, res) => {
    const authorization = req.headers.authorization ?? '';
    if (authorization !== `Bearer ${KEY}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthorized","message":"no","status":401}');
      return;
    }
    if (/^\/v1\/pets\/[^/?]+/.test(req.url ?? '')) notFound(authorization, res);
    else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
}

describe('a server that echoes the key JSON-escaped, percent-encoded and across the excerpt cuts', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await serveWithEchoes((authorization, res) => res.writeHead(404, { 'content-type': 'application/json' }).end(body(authorization)));
  });
  afterAll(() => server.close());

  it('fails errors.shape on those bodies, and no output holds any part of the key', async () => {
    const result = await runCli(['--base-url', server.url, '--only', '4.3,7', '--runs', '3', '--seed', '5'], { API_KEY: KEY });
    expect(result.code).toBe(1);
    const outputs = { stdout: result.stdout, stderr: result.stderr, ...result.files };
    // stdout, stderr, the four reports and created.json.
    expect(Object.keys(outputs)).toHaveLength(7);
    // The cut lands inside the key in report.json's excerpt and in the 300-byte Actual lines.
    expect(result.files['report.json']).toContain('Bearer $API_KEY');
    for (const [where, text] of Object.entries(outputs)) expect(text, where).not.toMatch(/sk-Ec|Key\+1|Key%2B/);
  });
});

describe('a server that echoes each refused Basic Authorization in a 401 body that fails errors.status-field', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await serveOnLoopback((req, res) => {
      const authorization = req.headers.authorization ?? '';
      if (authorization === `Bearer ${KEY}`) return void res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      // Only the Basic refusals fail (their status a string), so the reports show those.
      const status = authorization.startsWith('Basic ') ? '401' : 401;
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'unauthorized', message: `refused: ${authorization}`, status }));
    });
  });
  afterAll(() => server.close());

  it('shows neither Basic probe (the key as the user name, or as the password) in any output', async () => {
    const result = await runCli(['--base-url', server.url, '--only', '5', '--runs', '3', '--seed', '5'], { API_KEY: KEY });
    expect(result.code).toBe(1);
    const outputs = { stdout: result.stdout, stderr: result.stderr, ...result.files };
    // The echoes are in the reports, each Basic probe replaced as the key is.
    expect(Object.values(outputs).join('\n')).toMatch(/refused: Basic \$API_KEY/);
    for (const credentials of [`${KEY}:`, `user:${KEY}`].map((text) => Buffer.from(text).toString('base64'))) {
      for (const [where, text] of Object.entries(outputs)) expect(text, where).not.toContain(credentials);
    }
  });
});

describe('a server that reflects the key in another case, encoded, and in a header name (helper-47)', () => {
  const reflections = (key: string) => [
    key.toUpperCase(),
    key.toLowerCase(),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('hex'),
    Buffer.from(`Bearer ${key}`).toString('base64'),
    Buffer.from(`Bearer ${key}`).toString('base64url'),
    [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  ];
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await serveWithEchoes((_authorization, res) => {
      const headerName = `x-${Buffer.from(KEY).toString('hex').toUpperCase()}`;
      res.writeHead(404, { 'content-type': 'application/json', [headerName]: '1' }).end(JSON.stringify({ reflected: reflections(KEY) }));
    });
  });
  afterAll(() => server.close());

  it('fails errors.shape on those bodies, and no output holds any of the forms', async () => {
    const result = await runCli(['--base-url', server.url, '--only', '4.3,7', '--runs', '3', '--seed', '5'], { API_KEY: KEY });
    expect(result.code).toBe(1);
    const outputs = { stdout: result.stdout, stderr: result.stderr, ...result.files };
    expect(result.files['report.json']).toContain('$API_KEY');
    const forms = [...reflections(KEY), Buffer.from(KEY).toString('hex')];
    for (const [where, text] of Object.entries(outputs)) for (const form of forms) expect(text.toLowerCase(), `${where}: ${form}`).not.toContain(form.toLowerCase());
  });
});
