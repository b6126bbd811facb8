import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { runCli, type CliResult } from '../support/run-cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const SEED = '7';

/** Writes a run's report.json into dir under name, for merge. */
async function keep(result: CliResult, dir: string, name: string): Promise<string> {
  expect(result.files['report.json'], result.stderr).toBeDefined();
  const path = join(dir, name);
  await writeFile(path, result.files['report.json']!);
  return path;
}

const outcomes = (report: RunReport | undefined) => Object.fromEntries((report?.clauses ?? []).map((c) => [c.id, c.outcome]));

describe('--shard and merge against the reference', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('asc-shard-');
  });

  it('2 and 4 shards, merged, judge every clause as the one run of as many inputs does', async () => {
    const whole = await runCli(['--seed', SEED, '--runs', '8'], {});
    expect(whole.code).toBe(0);
    for (const count of [2, 4]) {
      const shards = await Promise.all(Array.from({ length: count }, (_, i) => runCli(['--seed', SEED, '--runs', String(8 / count), '--shard', `${i + 1}/${count}`], {})));
      for (const [i, shard] of shards.entries()) expect(shard.report?.shard).toEqual({ index: i + 1, count });
      const paths = await Promise.all(shards.map((shard, i) => keep(shard, dir, `shard-${i + 1}-of-${count}.json`)));
      const out = join(dir, `merged-${count}`);
      const merged = await runCli(['merge', ...paths, '--reports', out], {});
      expect(merged.code, merged.stderr).toBe(0);
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as RunReport;
      expect(outcomes(report)).toEqual(outcomes(whole.report));
      expect(report.runs).toBe(8);
      expect(report.merged?.shards).toHaveLength(count);
      // Together the shards judged the split properties' inputs once: no shard sent them all.
      for (const shard of shards) expect(shard.report!.traffic!.requests).toBeLessThan(whole.report!.traffic!.requests);
    }
  }, 300_000);

  it('--shard needs --seed and a share that exists (exit 2)', async () => {
    expect((await runCli(['--shard', '1/2'], {})).stderr).toMatch(/--shard needs --seed/);
    const bad = await runCli(['--seed', '1', '--shard', '3/2'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--shard: expected i\/n with 1 <= i <= n/);
  });
});

describe('a failure met in a shard', () => {
  const KEY = 'shard-fault-key';
  let faulty: RunningReference;
  beforeAll(async () => {
    faulty = await startReference({ apiKey: KEY, deviations: ['fault-limit-ignored'] });
  });
  afterAll(() => faulty.close());

  const run = (shard: string) =>
    runCli(['--base-url', faulty.baseUrl, '--messages-base-url', faulty.messagesBaseUrl, '--seed', SEED, '--runs', '6', '--shard', shard, '--only', 'list.limit-respected'], { API_KEY: KEY });

  it('names the shard and the seed that meet it again on one machine', async () => {
    const shards = await Promise.all([run('1/2'), run('2/2')]);
    const failing = shards.filter((shard) => shard.code === 1);
    expect(failing.length).toBeGreaterThan(0);
    for (const shard of failing) {
      const which = `${shard.report!.shard!.index}/2`;
      const failures = (report: RunReport | undefined) => report?.clauses.find((c) => c.id === 'list.limit-respected')?.checks.flatMap((c) => c.failures ?? []) ?? [];
      expect(failures(shard.report).length).toBeGreaterThan(0);
      for (const failure of failures(shard.report)) expect(failure).toMatchObject({ seed: 7, shard: which });
      expect(shard.files['summary.md']).toContain(`seed 7, --shard ${which}`);
      // Two shards side by side on a loaded machine may measure loopback 1 ms or more away: the line pins the schedule that took.
      const schedule = ` --schedule ${shard.report?.pipeline?.schedule ?? 'missing'}`;
      expect(shard.report?.replay).toBe(`npx animal-store-conformance --seed 7 --runs 6 --base-url ${faulty.baseUrl} --messages-base-url ${faulty.messagesBaseUrl}${schedule} --shard ${which} --only list.limit-respected`);
      // The same shard again, on one machine, fails again. (Which of two failures on one operation a
      // report keeps follows the order vitest runs the files in, so the inputs are not compared.)
      const again = await run(which);
      expect(again.code).toBe(1);
      for (const failure of failures(again.report)) expect(failure).toMatchObject({ seed: 7, shard: which });
    }
  }, 120_000);
});

describe('merge of two deployments', () => {
  const KEY = 'fleet-key';
  let good: RunningReference;
  let bad: RunningReference;
  let dir: string;
  beforeAll(async () => {
    [good, bad] = await Promise.all([startReference({ apiKey: KEY }), startReference({ apiKey: KEY, deviations: ['fault-orders-missing'] })]);
    dir = tempDir('asc-fleet-');
  });
  afterAll(async () => {
    await Promise.all([good.close(), bad.close()]);
  });

  const check = (target: RunningReference) => runCli(['--base-url', target.baseUrl, '--messages-base-url', target.messagesBaseUrl, '--seed', SEED, '--runs', '2', '--only', '4.4'], { API_KEY: KEY });

  it('shows both in the target x clause matrix, and fails when either fails', async () => {
    const [a, b] = await Promise.all([check(good), check(bad)]);
    expect([a.code, b.code]).toEqual([0, 1]);
    const paths = [await keep(a, dir, 'good.json'), await keep(b, dir, 'bad.json')];
    const out = join(dir, 'fleet');
    const fleet = await runCli(['merge', ...paths, '--reports', out], {});
    expect(fleet.code).toBe(1);
    expect(fleet.stdout).toContain(`1 of 2 deployments ship: local ${good.baseUrl}; do not ship: local ${bad.baseUrl} (exit 1)`);
    const summary = await readFile(join(out, 'summary.md'), 'utf8');
    expect(summary).toMatch(/\| §4\.4 orders\.exists \| MUST \| ✔ Pass \| ✖ Fail \|/);
    expect(summary).toContain(`T1: local ${good.baseUrl}`);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain(`T2: <a href="targets/`);
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuite name="local http:\/\/127\.0\.0\.1:\d+ · /);
    const alone = await runCli(['merge', paths[0]!, '--reports', join(dir, 'alone')], {});
    expect(alone.code).toBe(0);
  }, 120_000);

  it('refuses reports of another tool or spec version, the same shard twice, and what is no report (exit 2)', async () => {
    const a = await check(good);
    const path = await keep(a, dir, 'a.json');
    const other = join(dir, 'other-version.json');
    await writeFile(other, JSON.stringify({ ...a.report, tool: { ...a.report!.tool, version: '0.0.0-other' } }));
    const spec = join(dir, 'other-spec.json');
    await writeFile(spec, JSON.stringify({ ...a.report, spec: { ...a.report!.spec, version: '9.9' } }));
    const junk = join(dir, 'junk.json');
    await writeFile(junk, '{"hello": 1}');
    for (const [files, message] of [
      [[path, other], /written by tool animal-store-conformance 0\.0\.0-other .* merge reports of one tool version only/],
      [[path, spec], /merge reports of one spec version only/],
      [[path, path], /are the same shard \(1\/1\)/],
      [[junk], /is not a report\.json of animal-store-conformance/],
    ] as const) {
      const result = await runCli(['merge', ...files, '--reports', join(dir, 'refused')], {});
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  }, 120_000);
});
