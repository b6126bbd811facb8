import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { createServer } from 'node:net';
import { basename, isAbsolute, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { serveOnLoopback } from '../support/loopback-server.ts';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.ts';
import { runCli } from '../support/run-cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const KEY = 'cli-test-secret-7f3a9c0e1d';

describe('the CLI, run as a user runs it', () => {
  let reference: RunningReference;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    proxy = await startRecordingProxy(reference.baseUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await reference.close();
  });

  it('with no target, checks the embedded reference server: exit 0, the seed printed, four reports written', async () => {
    const result = await runCli(['--runs', '5', '--seed', '99'], {});
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/seed 99/);
    expect(Object.keys(result.files).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(result.report?.summary.fail).toBe(0);
    expect(result.report?.target.embedded).toBe(true);
  });

  it('a worker thread out of memory is an engine error and exit 4, neither a crash with a stack nor a SHIPS on what little was judged', async () => {
    // 30 MB of heap: the vitest worker runs out while it loads the scenarios; the main process does not.
    const result = await runCli(['--runs', '3', '--seed', '99'], { NODE_OPTIONS: '--max-old-space-size=30' });
    expect(result.stderr).not.toMatch(/Worker exited unexpectedly|node:events|^\s+at /m);
    expect(result.code, result.stderr).toBe(4);
    expect(result.report?.engineErrors).toContainEqual(expect.stringMatching(/^the suite's worker thread ran out of memory \(.*\): lower --runs, or give Node a larger heap/));
    expect(result.stdout).toMatch(/NO VERDICT: THE ENGINE BROKE/);
  });

  it('from the sources (CONFORMANCE_FROM_SOURCES=1, as after an edit not yet built), judges every clause as the build does', async () => {
    const args = ['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--runs', '3', '--seed', '11'];
    const [built, sources] = await Promise.all([runCli(args, { API_KEY: KEY }), runCli(args, { API_KEY: KEY, CONFORMANCE_FROM_SOURCES: '1' })]);
    expect([built.code, sources.code]).toEqual([0, 0]);
    const outcomes = (result: typeof built) => result.report?.clauses.map((clause) => `${clause.id} ${clause.outcome}`);
    expect(outcomes(sources)).toEqual(outcomes(built));
    expect(sources.report?.clauses.length).toBeGreaterThan(40);
  });

  it('says which unchecked MUST clauses --only left out, rather than pointing to skip reasons the terminal folds away', async () => {
    const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--runs', '3', '--seed', '7', '--only', '4.4', '--stateful', 'off'], { API_KEY: KEY });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Note: \d+ MUST clauses were not checked in this run: the SHIPS verdict does not vouch for them \(all were deselected by --only\/--skip\)\./);
  });

  it('lists every report it wrote, created.json among them, by its absolute path, also under a relative --reports', async () => {
    const reports = relative(process.cwd(), tempDir('cli-relative-reports-'));
    const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--runs', '2', '--seed', '7', '--only', '4.2', '--stateful', 'off', '--reports', reports], { API_KEY: KEY });
    expect(result.code).toBe(0);
    const listed = /reports: (.+)$/m.exec(result.stdout)?.[1]?.split(', ') ?? [];
    expect(listed.map((path) => basename(path)).sort()).toEqual(['created.json', 'junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(listed.filter((path) => !isAbsolute(path))).toEqual([]);
  });

  it('against a server started apart, with the key from the environment, never shows the key', async () => {
    const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--runs', '5', '--seed', '7'], { API_KEY: KEY });
    expect(result.code).toBe(0);
    const outputs = [result.stdout, result.stderr, ...Object.values(result.files)];
    expect(outputs.filter((text) => text.includes(KEY))).toEqual([]);

  });

  it('--env production sends only safe methods (GET, HEAD) without --allow-writes, and lists the skipped checks with the reason', async () => {
    proxy.requests.length = 0;
    const result = await runCli(['--base-url', proxy.url, '--env', 'production', '--runs', '3', '--seed', '5'], { API_KEY: KEY });
    expect(result.code).toBe(0);
    expect(proxy.requests.length).toBeGreaterThan(10);
    expect(proxy.requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD')).toEqual([]);
    const skipped = result.report?.clauses.filter((c) => c.outcome === 'skip').flatMap((c) => c.checks.map((k) => k.note)) ?? [];
    expect(skipped.some((note) => note?.includes('writes are off against production'))).toBe(true);
  });

  it('a short key is noted on stderr, and the outputs stay readable', async () => {
    // A key that is also part of the operation names in the progress lines.
    const short = await startReference({ apiKey: 'Pets' });
    try {
      const result = await runCli(['--base-url', short.baseUrl, '--messages-base-url', short.messagesBaseUrl, '--runs', '2', '--seed', '7', '--only', '5'], { API_KEY: 'Pets' });
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/fewer than 8 characters/);
      expect(result.stdout).toContain('ok   listPets: Bearer <API_KEY> is accepted');
    } finally {
      await short.close();
    }
  });

  it('a key the server refuses is one line and exit 2, before any test runs', async () => {
    const result = await runCli(['--base-url', reference.baseUrl], { API_KEY: 'not-the-key' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^animal-store-conformance: API_KEY: .* answered 401/);
    expect(result.files).toEqual({});
  });

  it('a key the message host refuses is one line and exit 2, found by a POST that names no message; with writes off only a GET goes there', async () => {
    const seen: string[] = [];
    const messages = await serveOnLoopback((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ? 'with key' : 'no key'}`);
      req.resume();
      res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"code":"unauthorized","message":"bad key","status":401}');
    });
    try {
      const refused = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', messages.url, '--env', 'staging'], { API_KEY: KEY });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr.trim()).toBe(
        `animal-store-conformance: API_KEY: ${messages.url}/messages answered 401 to the configured key; ${reference.baseUrl}/v1/pets took the same key: check that both hosts belong to one deployment (a server that refuses valid keys fails auth.valid-key-accepted)`,
      );
      expect(seen).toEqual(['POST /messages with key']);
      expect(refused.files).toEqual({});
      seen.length = 0;
      // Production without --allow-writes: nothing is posted, so the key is not tried there and the run goes on (its message checks skipped).
      const readOnly = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', messages.url, '--env', 'production', '--runs', '2', '--seed', '3', '--only', '4.5,4.1'], { API_KEY: KEY });
      expect(readOnly.code, readOnly.stderr).toBe(0);
      expect(seen).toEqual(['GET /messages no key']);
    } finally {
      await messages.close();
    }
  });

  it('lists in created.json every message a 2xx said was made, the one a host that takes {} made of the preflight\'s key check among them', async () => {
    const lenient = await startReference({ apiKey: KEY, deviations: ['fault-message-accepts-missing-message'] });
    const messages = await startRecordingProxy(lenient.messagesBaseUrl);
    try {
      const result = await runCli(['--base-url', lenient.baseUrl, '--messages-base-url', messages.url, '--env', 'staging', '--only', 'messages.invalid-400', '--runs', '1', '--seed', '3', '--stateful', 'off'], { API_KEY: KEY });
      expect(result.code, result.stderr).toBe(1);
      const made = messages.requests.filter((r) => r.method === 'POST' && r.status !== undefined && r.status >= 200 && r.status < 300);
      expect(made.length).toBeGreaterThan(0);
      const created = JSON.parse(result.files['created.json']!) as { messages: unknown[] };
      expect(created.messages).toHaveLength(made.length);
    } finally {
      await messages.close();
      await lenient.close();
    }
  });

  it('a base URL that already holds the version prefix stops the run (exit 2) before the message host is sent anything that could create a message', async () => {
    // Routes without /v1, as behind a gateway that adds it: /v1/pets is 404 there.
    const unversioned = await serveOnLoopback((req, res) => (req.url?.startsWith('/pets') ? res.writeHead(200, { 'content-type': 'application/json' }).end('[]') : res.writeHead(404).end()));
    const lenient = await startReference({ apiKey: KEY, deviations: ['fault-message-accepts-missing-message'] });
    const messages = await startRecordingProxy(lenient.messagesBaseUrl);
    try {
      const result = await runCli(['--base-url', unversioned.url, '--messages-base-url', messages.url, '--env', 'staging'], { API_KEY: KEY });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim()).toBe(`animal-store-conformance: BASE_URL: ${unversioned.url}/v1/pets is 404 but ${unversioned.url}/pets answers: does the base URL already hold the version prefix?`);
      expect(messages.requests).toEqual([]);
    } finally {
      await messages.close();
      await lenient.close();
      await unversioned.close();
    }
  });

  it('a message host that never answers is one line and exit 3, naming the wait the key\'s POST was given', async () => {
    const silent = await serveOnLoopback(() => undefined);
    try {
      const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', silent.url, '--env', 'staging', '--timeout', '500'], { API_KEY: KEY });
      expect(result.code).toBe(3);
      expect(result.stderr.trim()).toBe(`animal-store-conformance: cannot reach ${silent.url}/messages: no answer within 500 ms`);
    } finally {
      await silent.close();
    }
  });

  it('counts a 2xx whose body names no id among what it created, and says created.json has no id for it', async () => {
    const blank = await serveOnLoopback((req, res) => {
      req.resume();
      res.writeHead(202, { 'content-type': 'text/plain' }).end('ok');
    });
    try {
      const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', blank.url, '--env', 'staging', '--only', 'messages.accepted', '--runs', '1', '--seed', '2', '--stateful', 'off'], { API_KEY: KEY });
      expect(result.code).toBe(1);
      const created = JSON.parse(result.files['created.json']!) as { messages: { id: string | null }[] };
      const none = created.messages.filter((m) => m.id === null).length;
      expect(none).toBeGreaterThan(0);
      expect(result.stdout).toContain(`their ids are in created.json, where ${none} have none: the 2xx that took them named none, for clean-up.`);
    } finally {
      await blank.close();
    }
  });

  it('keeps an earlier run\'s created.json that lists anything, as created-<its startedAt>.json, rather than overwriting a clean-up list', async () => {
    const reports = tempDir('asc-created-kept-');
    const args = ['--base-url', reference.baseUrl, '--env', 'staging', '--runs', '1', '--only', 'create.201-pet', '--stateful', 'off', '--reports', reports];
    const first = await runCli([...args, '--seed', '1'], { API_KEY: KEY });
    expect(first.code).toBe(0);
    const earlier = await readFile(join(reports, 'created.json'), 'utf8');
    const { startedAt, animals } = JSON.parse(earlier) as { startedAt: string; animals: unknown[] };
    expect(animals.length).toBeGreaterThan(0);
    const second = await runCli([...args, '--seed', '2'], { API_KEY: KEY });
    expect(second.code).toBe(0);
    const kept = `created-${startedAt.replace(/[^0-9TZ]/g, '')}.json`;
    expect((await readdir(reports)).filter((name) => name.startsWith('created')).sort()).toEqual([kept, 'created.json']);
    expect(await readFile(join(reports, kept), 'utf8')).toBe(earlier);
  });

  it('a run that stops before the tests leaves none of the reports an earlier run wrote in the folder (CI would publish them as its own)', async () => {
    const reports = tempDir('asc-stale-reports-');
    const earlier = await runCli(['--runs', '2', '--seed', '3', '--only', '4.4', '--stateful', 'off', '--reports', reports], {});
    expect(earlier.code).toBe(0);
    await writeFile(join(reports, 'created.json'), '{"kept":true}');
    const stopped = await runCli(['--base-url', reference.baseUrl, '--reports', reports], { API_KEY: 'not-the-key' });
    expect(stopped.code).toBe(2);
    expect((await readdir(reports)).sort()).toEqual(['created.json']);
    // A selector that names nothing stops the run too, after the folder is cleared.
    await runCli(['--runs', '2', '--seed', '3', '--only', '4.4', '--stateful', 'off', '--reports', reports], {});
    const mistyped = await runCli(['--only', '4.44', '--reports', reports], {});
    expect(mistyped.code).toBe(2);
    expect((await readdir(reports)).sort()).toEqual(['created.json']);
  });

  it('an unreachable message host is one line and exit 3, not a run of failures', async () => {
    const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', 'http://127.0.0.1:1'], { API_KEY: KEY });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1\/messages/);
  });

  it('--dry-run prints the plan and sends nothing', async () => {
    proxy.requests.length = 0;
    const result = await runCli(['--base-url', proxy.url, '--dry-run'], { API_KEY: KEY });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Dry run: nothing is sent/);
    expect(result.stdout).toMatch(/list\.limit-max/);
    expect(proxy.requests).toEqual([]);
  });

  it('an unreachable target is one line and exit 3, before any test runs', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const result = await runCli(['--base-url', `http://127.0.0.1:${port}`], { API_KEY: KEY });
    expect(result.code).toBe(3);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/cannot reach .*connection refused/);
    expect(result.files).toEqual({});
  });

  const notHttp = [
    { what: 'an SSH banner', answer: 'SSH-2.0-OpenSSH_9.6\r\n\u0000\u0001garbage\r\n\r\n', code: /Expected HTTP\// },
    { what: 'a status line of 000', answer: 'HTTP/1.1 000 OK\r\nContent-Length: 2\r\n\r\n[]', code: /its head failed the HTTP client's own checks, as a status below 100 does/ },
    { what: 'two Content-Lengths', answer: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n[]', code: /HPE_|CONTENT_LENGTH/ },
  ];
  for (const { what, answer, code } of notHttp) {
    it(`a target that answers with bytes that are not an HTTP/1.1 response (${what}) is one line saying so and exit 3, before any test runs`, async () => {
      const garbage = createServer((socket) => {
        socket.on('data', () => socket.end(answer));
        socket.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = garbage.address() as { port: number };
        const result = await runCli(['--base-url', `http://127.0.0.1:${port}`], { API_KEY: KEY });
        expect(result.code).toBe(3);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(/^animal-store-conformance: http:\/\/127\.0\.0\.1:\d+\/v1\/pets answered, but its answer is not an HTTP\/1\.1 response \(/);
        expect(result.stderr).toMatch(code);
        expect(result.files).toEqual({});
      } finally {
        await new Promise<void>((resolve) => garbage.close(() => resolve()));
      }
    });
  }

  /** Runs the CLI against a loopback server answering every request with `listener`. */
  async function againstServer(listener: RequestListener, extra: string[] = [], env: Record<string, string> = { API_KEY: KEY }) {
    const server = await serveOnLoopback(listener);
    try {
      return await runCli(['--base-url', server.url, ...extra], env);
    } finally {
      await server.close();
    }
  }

  it('a 403 with no Error body (a WAF\'s HTML page) is named as possibly not the service\'s: one line, exit 2', async () => {
    const result = await againstServer((_req, res) => res.writeHead(403, { 'Content-Type': 'text/html' }).end('<h1>403 Forbidden</h1>'));
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/answered 403 to the configured key with no Error body \(text\/html\): a gateway, WAF or proxy/);
    expect(result.stderr).not.toContain(KEY);
  });

  it('a target that never answers is one line and exit 3, saying the wait once', async () => {
    const result = await againstServer(() => undefined, ['--timeout', '500']);
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toMatch(/^animal-store-conformance: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/pets: no answer within 500 ms$/);
  });

  it('a host that answers 404 everywhere is judged, with one note that the base URL may not be the service\'s', async () => {
    const result = await againstServer((_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>'), ['--runs', '2', '--seed', '1', '--only', '4.1', '--stateful', 'off']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^animal-store-conformance: note: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets answered 404: if the base URL is not the service's .*$/);
    expect(result.report?.clauses.find((c) => c.id === 'list.200-pets')?.outcome).toBe('fail');
  });

  it('a 401 with an Error body says only to check the key', async () => {
    const result = await againstServer((_req, res) =>
      res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"code":"unauthorized","message":"bad key","status":401}'),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/answered 401 to the configured key; check the key/);
    expect(result.stderr).not.toMatch(/WAF/);
  });

  it('a reports folder that cannot take the reports is one line and exit 2, before anything is sent', async () => {
    const file = join(tempDir('asc-reports-'), 'a-file');
    await writeFile(file, '');
    for (const [dir, code] of [[join(file, 'sub'), 'ENOTDIR'], ['/proc/no-such-folder/reports', 'ENOENT']] as const) {
      const started = performance.now();
      const result = await runCli(['--base-url', 'http://127.0.0.1:1', '--reports', dir, '--timeout', '1000'], { API_KEY: KEY });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim()).toBe(`animal-store-conformance: --reports: cannot write the reports to ${dir} (${code})`);
      // mkdir's recursive mode never returns under /proc.
      expect(performance.now() - started).toBeLessThan(15_000);
    }
  });

  it('a refused key read from a file is named by the file, not by API_KEY', async () => {
    const file = join(tempDir('asc-key-file-'), 'key');
    await writeFile(file, `${KEY}\n`);
    const result = await againstServer(
      (_req, res) => res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"code":"unauthorized","message":"bad key","status":401}'),
      ['--api-key-file', file],
      {},
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--api-key-file (${file}): http://127.0.0.1:`);
  });

  it('response headers beyond the client\'s limit are named as such, one line and exit 3', async () => {
    const cookies = Array.from({ length: 800 }, (_, i) => `c${i}=${'x'.repeat(200)}`);
    const result = await againstServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': cookies }).end('[]'));
    expect(result.code).toBe(3);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/\/v1\/pets answered, but the response headers are longer than 128 KiB/);
  });

  it('prints a Replay line that carries the target and every setting the verdicts depend on, not only the seed', async () => {
    const args = ['--base-url', reference.baseUrl, '--seed', '77', '--runs', '3', '--only', '4.4,auth', '--skip', 'auth.www-authenticate', '--now', '2027-01-02T03:04:05Z', '--category-ids', '1,2', '--fail-on', 'should', '--schedule', 'sequential', '--quiet'];
    const result = await runCli(args, { API_KEY: KEY });
    const replay = `npx animal-store-conformance --seed 77 --runs 3 --base-url ${reference.baseUrl} --schedule sequential --now 2027-01-02T03:04:05.000Z --only 4.4,auth --skip auth.www-authenticate --category-ids 1,2 --fail-on should`;
    expect(result.stdout).toContain(`Replay: ${replay}`);
    expect(result.report?.replay).toBe(replay);
  });

  it('compare: exit 1 when a clause newly fails', async () => {
    const { writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const good = await runCli(['--runs', '3', '--seed', '1', '--only', '4.4'], {});
    const bad = JSON.parse(good.files['report.json']!) as { clauses: { id: string; outcome: string }[] };
    bad.clauses.find((c) => c.id === 'orders.exists')!.outcome = 'fail';
    const dir = tempDir('asc-compare-');
    await writeFile(join(dir, 'old.json'), good.files['report.json']!);
    await writeFile(join(dir, 'new.json'), JSON.stringify(bad));
    const result = await runCli(['compare', join(dir, 'old.json'), join(dir, 'new.json')], {});
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/orders\.exists/);

    // A MUST clause judged before and skipped now (a host or writes no longer configured) fails it too.
    const skipped = JSON.parse(good.files['report.json']!) as { clauses: { id: string; outcome: string }[] };
    skipped.clauses.find((c) => c.id === 'orders.exists')!.outcome = 'skip';
    await writeFile(join(dir, 'skipped.json'), JSON.stringify(skipped));
    const unchecked = await runCli(['compare', join(dir, 'old.json'), join(dir, 'skipped.json')], {});
    expect(unchecked.code).toBe(1);
    expect(unchecked.stdout).toMatch(/No longer checked \(1\)/);
    expect((await runCli(['compare', join(dir, 'old.json'), join(dir, 'old.json')], {})).code).toBe(0);
  });
});
