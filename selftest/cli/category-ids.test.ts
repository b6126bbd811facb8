// §2.5 shows no category resource, so a server may refuse a categoryId that names no category it knows
// (400, §4.2). The suite requires a 201 only under a categoryId it knows the target accepts: from
// --category-ids, else from the animals the listing shows, else the first of 1, 2, 3, 0 taken.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';
import { failedClauses, runCli } from '../support/run-cli.ts';

const KEY = 'category-test-secret-5b1e';

function clause(report: RunReport | undefined, id: string) {
  const found = report?.clauses.find((c) => c.id === id);
  if (!found) throw new Error(`no clause ${id} in the report`);
  return found;
}

/**
 * In front of the reference server: a POST /v1/pets whose categoryId is not `accepted` gets 400
 * unknown_category (an Error), as a server whose only category is `accepted` would answer.
 */
function onlyCategory(upstream: string, accepted: string): Promise<LoopbackServer> {
  const target = new URL(upstream);
  return serveOnLoopback((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const categoryId = /"categoryId"\s*:\s*(-?\d+)\s*[,}]/.exec(body.toString())?.[1];
      const authorized = req.headers.authorization === `Bearer ${KEY}`;
      if (req.method === 'POST' && req.url === '/v1/pets' && authorized && categoryId !== undefined && categoryId !== accepted) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'unknown_category', message: `no category ${categoryId}`, status: 400 }));
        return;
      }
      const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
}

const run = (baseUrl: string, args: string[] = [], env: Record<string, string> = {}) =>
  runCli(['--base-url', baseUrl, '--runs', '5', '--seed', '11', '--quiet', ...args], { API_KEY: KEY, ...env });

describe('a target whose only category is 42, its store empty', () => {
  let reference: RunningReference;
  let gate: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['allowed-empty-store'] });
    gate = await onlyCategory(reference.baseUrl, '42');
  });
  afterAll(async () => {
    await gate.close();
    await reference.close();
  });

  it('with nothing known, fails nothing but cannot vouch (exit 3): the checks that need a 201 are skipped with a reason naming --category-ids', async () => {
    const result = await run(gate.url);
    expect(failedClauses(result.report)).toEqual([]);
    // A create that refuses every body looks the same from here: a gate must not pass it.
    expect(result.code).toBe(3);
    expect(result.report?.verdict).toBe('fail');
    expect(result.stderr).toMatch(/^animal-store-conformance: no categoryId accepted: \d+ MUST clauses were skipped because the target refused every categoryId tried.*--category-ids$/m);
    const created = clause(result.report, 'create.201-pet');
    expect(created.outcome).toBe('skip');
    expect(created.checks.every((c) => c.blockedBy === 'unknown-category')).toBe(true);
    expect(created.checks.map((c) => c.note).join(' ')).toMatch(/took none of categoryId 1, 2, 3, 0: name one the target accepts with --category-ids/);
    expect(clause(result.report, 'create.category-constraints').checks[0]?.note).toMatch(/categoryId 0: refused \(400\)/);
    // An empty store it could not fill leaves the limit cap unjudged for the same cause.
    expect(clause(result.report, 'list.limit-max').checks.map((c) => [c.outcome, c.blockedBy])).toContainEqual(['skip', 'unknown-category']);
    // Bodies that break a rule still get their 400 judged.
    expect(clause(result.report, 'create.invalid-400').outcome).toBe('pass');
  });

  it('with --category-ids 42, creates under it and passes', async () => {
    const result = await run(gate.url, ['--category-ids', '42']);
    expect(failedClauses(result.report)).toEqual([]);
    expect(result.code).toBe(0);
    expect(clause(result.report, 'create.201-pet').outcome).toBe('pass');
    expect(clause(result.report, 'list.full-page').outcome).toBe('pass');
  });

  it('with CATEGORY_IDS naming one it refuses, fails create.201-pet on the first valid NewPet, and the failure says why that categoryId and where to change it', async () => {
    // Without the sequences of calls, whose create would meet the refusal first, told as a story rather than a counterexample.
    const result = await run(gate.url, ['--only', 'create.201-pet', '--stateful', 'off'], { CATEGORY_IDS: '43' });
    expect(result.code).toBe(1);
    const created = clause(result.report, 'create.201-pet');
    expect(created.outcome).toBe('fail');
    const failure = created.checks.find((c) => c.outcome === 'fail');
    expect(failure?.expected).toMatch(/categoryId 43 is one --category-ids names; if the target refuses it, give categoryIds it accepts with --category-ids/);
    // The property's own edge values, not only the set-up requests, hold a known categoryId to its 201.
    expect(JSON.parse(failure?.counterexample ?? '{}')).toMatchObject({ categoryId: 43 });
  });

  it('learns 42 from an animal the listing shows, with no setting, after trying the one it shows first and the target now refuses', async () => {
    // Straight into the store, as an earlier run (or an older release) could have left it.
    for (const [base, categoryId] of [[reference.baseUrl, 7], [gate.url, 42]] as const) {
      const seeded = await fetch(`${base}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'already here', categoryId }),
      });
      expect(seeded.status).toBe(201);
    }
    const result = await run(gate.url);
    expect(clause(result.report, 'create.category-constraints').checks[0]?.note).toMatch(/refused \(400\)/);
    expect(failedClauses(result.report)).toEqual([]);
    expect(result.code).toBe(0);
    expect(clause(result.report, 'create.201-pet').outcome).toBe('pass');
  });
});

describe('allowed-category-must-exist (categories 1 to 1000) with an empty store', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['allowed-category-must-exist', 'allowed-empty-store'] });
  });
  afterAll(() => reference.close());

  it('passes: categoryId 1, tried when the listing shows nothing, is taken and used', async () => {
    const result = await run(reference.baseUrl, ['--messages-base-url', reference.messagesBaseUrl]);
    expect(failedClauses(result.report)).toEqual([]);
    expect(result.code).toBe(0);
    expect(clause(result.report, 'create.201-pet').outcome).toBe('pass');
    expect(clause(result.report, 'create.category-constraints').checks[0]?.note).toMatch(/refused \(400\)/);
  });
});

describe('a target whose creations answer 200 with a body that is no Pet, its store empty', () => {
  let reference: RunningReference;
  let odd: LoopbackServer;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['allowed-empty-store'] });
    const target = new URL(reference.baseUrl);
    odd = await serveOnLoopback((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/pets') {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
          return;
        }
        const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => res.destroy());
        forward.end(Buffer.concat(chunks));
      });
    });
  });
  afterAll(async () => {
    await odd.close();
    await reference.close();
  });

  it('fails create.201-pet on the probes and says what they answered, not to name a categoryId', async () => {
    const result = await run(odd.url, ['--only', '4.2', '--stateful', 'off']);
    expect(result.code).toBe(1);
    expect(failedClauses(result.report)).toContain('create.201-pet');
    const notes = clause(result.report, 'create.not-utf8').checks.map((c) => c.note ?? '').join(' ');
    expect(notes).toMatch(/answered none of categoryId 1, 2, 3, 0 with a 201 \(200, 200, 200, 200\): see create\.201-pet/);
    expect(notes).not.toMatch(/name one the target accepts/);
  });
});
