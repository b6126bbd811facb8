import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import { loadClauses } from '../../src/contract/clauses.ts';
import { UsageError } from '../../src/errors.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderSummary } from '../../src/report/summary.ts';
import { checkShards, mergeShards, targetKey } from '../../src/report/merge.ts';
import { CUT_SHORT_MARK, type ClauseResult, type RunReport } from '../../src/report/model.ts';
import { tempDir } from '../support/temp-dir.ts';

const catalogue = loadClauses();
const context = { catalogue, enumValues: (name: string) => (name === 'PetStatus' ? ['available', 'pending', 'sold'] : []) };

/** A shard's report where every clause was skipped but those given. */
function shard(index: number, count: number, clauses: Record<string, Partial<ClauseResult>> = {}): RunReport {
  return {
    tool: { name: 'animal-store-conformance', version: '9.9.9' },
    spec: { title: 'Animal Store', version: '1.0' },
    target: { baseUrl: `http://127.0.0.1:${4000 + index}`, messagesBaseUrl: `http://127.0.0.1:${4000 + index}`, env: 'local', embedded: true },
    seed: 7,
    runs: 4,
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    durationMs: 1000,
    now: '2026-01-01T00:00:00.000Z',
    failOn: 'must',
    replay: `npx animal-store-conformance --seed 7 --runs 4 --shard ${index}/${count}`,
    summary: { pass: 0, fail: 0, warn: 0, partial: 0, skip: 0, observe: 0, error: 0 },
    clauses: catalogue.map(({ basis: _b, profile: _p, minimum: _m, ...clause }) => ({
      ...clause,
      outcome: 'skip',
      checks: [{ check: '-', clause: clause.id, outcome: 'skip', judged: 0, note: 'not exercised in this run' }],
      ...clauses[clause.id],
    })),
    capabilities: [],
    engineErrors: [],
    verdict: 'pass',
    exitCode: 0,
    traffic: { requests: 10 * index, rateLimited: 0, unavailable: 0, retryAfter: 0 },
    shard: { index, count },
  };
}

const judged = (id: string, n: number, outcome: ClauseResult['outcome'] = 'pass', extra: Partial<ClauseResult> = {}): Partial<ClauseResult> => ({
  outcome,
  judgedByOperation: { [catalogue.find((c) => c.id === id)!.operations[0]!]: n },
  checks: [{ check: id, clause: id, outcome: outcome === 'partial' ? 'pass' : outcome, judged: n, judgedByOperation: { [catalogue.find((c) => c.id === id)!.operations[0]!]: n } }],
  ...extra,
});

const outcomeOf = (report: RunReport, id: string) => report.clauses.find((c) => c.id === id)?.outcome;

describe('merge: the shards of one run as one machine would have reported it', () => {
  it('fails a clause any shard failed, with the run exit code, and names the shard in the replay', () => {
    const failing = judged('orders.exists', 1, 'fail');
    failing.checks![0]!.failures = [{ operation: 'listStoreOrders', expected: '200', actual: '404', seed: 7, path: '3', shard: '2/2' }];
    const merged = mergeShards([shard(1, 2, { 'orders.exists': judged('orders.exists', 2) }), shard(2, 2, { 'orders.exists': failing })], context);
    expect(outcomeOf(merged, 'orders.exists')).toBe('fail');
    expect(merged.exitCode).toBe(1);
    expect(merged.verdict).toBe('fail');
    expect(merged.clauses.find((c) => c.id === 'orders.exists')?.checks[0]?.failures?.[0]?.shard).toBe('2/2');
    // The failure's replay is the run of the shard that met it, on one machine.
    expect(renderJunit(merged)).toContain('Replay:   seed 7, --shard 2/2, path "3" (run: npx animal-store-conformance --seed 7 --runs 4 --shard 2/2)');
    expect(merged.merged?.shards.map((s) => s.replay)).toEqual(['npx animal-store-conformance --seed 7 --runs 4 --shard 1/2', 'npx animal-store-conformance --seed 7 --runs 4 --shard 2/2']);
  });

  it('passes a minimum only the shards together meet: exchanges added up, enum values joined', () => {
    const oneEach = (n: number, covered: string[]) => judged('create.id-unique', n, 'partial', { shortfalls: [{ reason: 'judged on 1 exchange, and the clause needs at least 2' }], coverage: { covered } });
    const status = (values: string[]) => judged('list.status-filter', values.length, 'partial', { shortfalls: [{ reason: 'not judged for status ...' }], coverage: { covered: values } });
    const merged = mergeShards(
      [shard(1, 2, { 'create.id-unique': oneEach(1, []), 'list.status-filter': status(['available', 'sold']) }), shard(2, 2, { 'create.id-unique': oneEach(1, []), 'list.status-filter': status(['pending']) })],
      context,
    );
    expect(outcomeOf(merged, 'create.id-unique')).toBe('pass');
    expect(outcomeOf(merged, 'list.status-filter')).toBe('pass');
    expect(merged.clauses.find((c) => c.id === 'list.status-filter')?.coverage?.covered).toEqual(['available', 'pending', 'sold']);
    expect(merged.runs).toBe(8);
    expect(merged.replay).toBe('npx animal-store-conformance --seed 7 --runs 8');
    expect(merged.traffic?.requests).toBe(30);
    expect(merged.shard).toBeUndefined();
    expect(renderSummary(merged)).toContain('Merged from 2 shards of --runs 4 each; the slowest took 1.0 s.');
    expect(renderSummary(shard(1, 2))).toContain("Shard 1/2 of a run: this verdict is this share's; merge the 2 shards' report.json for the run's");
  });

  it('keeps a clause partial where all shards together still fall short', () => {
    const status = judged('list.status-filter', 1, 'partial', { shortfalls: [{ reason: 'x' }], coverage: { covered: ['available'] } });
    const merged = mergeShards([shard(1, 2, { 'list.status-filter': status }), shard(2, 2)], context);
    const clause = merged.clauses.find((c) => c.id === 'list.status-filter');
    expect(clause?.outcome).toBe('partial');
    expect(clause?.shortfalls?.[0]?.reason).toMatch(/not judged for status pending, sold/);
  });

  it('keeps a clause partial, for the budget, where --max-duration cut a shard short, whatever other skip its coverage kept', () => {
    const cut = `${CUT_SHORT_MARK} during "s": its later requests were not sent`;
    const cutShort = judged('orders.exists', 1, 'partial', { shortfalls: [{ reason: cut, blockedBy: 'budget' }], coverage: { blocked: { reason: 'no answer', blockedBy: 'no-answer' } } });
    const merged = mergeShards([shard(1, 2, { 'orders.exists': judged('orders.exists', 2) }), shard(2, 2, { 'orders.exists': cutShort })], context);
    const clause = merged.clauses.find((c) => c.id === 'orders.exists');
    expect(clause?.outcome).toBe('partial');
    expect(clause?.shortfalls).toEqual([{ reason: cut, blockedBy: 'budget' }]);
    expect(merged.exitCode).toBe(3);
  });

  it('refuses the same shard twice, a missing shard, and shards of another run (exit 2)', () => {
    const as = (report: RunReport, path: string) => ({ path, report });
    expect(() => checkShards([as(shard(1, 2), 'a.json'), as(shard(1, 2), 'b.json')])).toThrow(/a\.json and b\.json are the same shard \(1\/2\)/);
    expect(() => checkShards([as(shard(1, 3), 'a.json'), as(shard(2, 3), 'b.json')])).toThrow(/shard 3\/3 .* missing/);
    expect(() => checkShards([as(shard(1, 2), 'a.json'), as({ ...shard(2, 2), seed: 8 }, 'b.json')])).toThrow(/its seed is 8, not 7/);
    expect(() => checkShards([as(shard(1, 2), 'a.json'), as(shard(2, 2), 'b.json')])).not.toThrow();
    expect(() => checkShards([as(shard(1, 2), 'a.json'), as(shard(1, 2), 'b.json')])).toThrow(UsageError);
  });

  it('takes the embedded server as one target whatever its port, and other targets apart', () => {
    expect(targetKey(shard(1, 2))).toBe(targetKey(shard(2, 2)));
    const remote = (url: string) => ({ target: { baseUrl: url, messagesBaseUrl: url, env: 'staging' as const, embedded: false } });
    expect(targetKey(remote('https://a.example'))).not.toBe(targetKey(remote('https://b.example')));
  });
});

describe('merge --baseline: the merged verdict judged against known failures, as a run is', () => {
  const failingShards = async (dir: string) => {
    const failing = judged('orders.exists', 1, 'fail');
    failing.checks![0]!.failures = [{ operation: 'listStoreOrders', expected: '200', actual: '404', seed: 7 }];
    const reports = [shard(1, 2, { 'orders.exists': judged('orders.exists', 2) }), shard(2, 2, { 'orders.exists': failing })];
    reports[1]!.traffic!.resent = 2;
    reports[0]!.traffic!.overloaded = 3;
    reports[1]!.traffic!.overloaded = 1;
    reports[1]!.traffic!.pacedRps = 140;
    reports[0]!.traffic!.servedConnections = 1;
    const paths = reports.map((_, i) => join(dir, `shard-${i + 1}.json`));
    await Promise.all(reports.map((report, i) => writeFile(paths[i]!, JSON.stringify(report))));
    return paths;
  };
  const merge = async (args: string[]) => {
    let out = '';
    const code = await main(['merge', ...args], { out: (text) => void (out += text), err: (text) => void (out += text), isTty: false }, {});
    return { code, out };
  };

  it('passes a failure an unexpired entry accepts, marked known; fails it without the baseline or once the entry has expired', async () => {
    const dir = tempDir('asc-merge-baseline-');
    const paths = await failingShards(dir);
    const known = join(dir, 'known.yaml');
    await writeFile(known, 'known:\n  - clause: orders.exists\n    reason: ticket 42\n    expires: 2030-01-01\n');
    const plain = await merge([...paths, '--reports', join(dir, 'plain')]);
    expect(plain.code).toBe(1);
    const accepted = await merge([...paths, '--reports', join(dir, 'accepted'), '--baseline', known, '--now', '2029-06-01T00:00:00Z']);
    expect(accepted.code).toBe(0);
    expect(accepted.out).toContain('Baseline: no new failures.');
    const report = JSON.parse(await readFile(join(dir, 'accepted', 'report.json'), 'utf8')) as RunReport;
    expect([report.verdict, report.exitCode]).toEqual(['pass', 0]);
    expect(report.clauses.find((c) => c.id === 'orders.exists')).toMatchObject({ outcome: 'fail', known: { reason: 'ticket 42', expires: '2030-01-01' } });
    expect(report.traffic?.resent).toBe(2);
    expect(report.traffic?.overloaded).toBe(4);
    expect(report.traffic?.pacedRps).toBe(140);
    expect(report.traffic?.servedConnections).toBe(1);
    const expired = await merge([...paths, '--reports', join(dir, 'expired'), '--baseline', known, '--now', '2030-06-01T00:00:00Z']);
    expect(expired.code).toBe(1);
    expect(expired.out).toContain('Baseline: 1 new failure: orders.exists');
  });

  it('refuses a baseline it cannot read (exit 2)', async () => {
    const dir = tempDir('asc-merge-baseline-');
    const paths = await failingShards(dir);
    const result = await merge([...paths, '--reports', join(dir, 'out'), '--baseline', join(dir, 'missing.yaml')]);
    expect(result.code).toBe(2);
    expect(result.out).toMatch(/--baseline: /);
  });
});
