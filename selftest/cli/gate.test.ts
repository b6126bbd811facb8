import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClauses } from '../../src/contract/clauses.ts';
import { isSelected, leftOutByOnly, onlyFocus } from '../../src/suite/selection.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { runCli } from '../support/run-cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const KEY = 'gate-test-key';

describe('gate controls', () => {
  let faulty: RunningReference;
  let dir: string;
  beforeAll(async () => {
    faulty = await startReference({ apiKey: KEY, deviations: ['fault-orders-missing', 'allowed-no-location'] });
    dir = tempDir('asc-gate-');
  });
  afterAll(() => faulty.close());

  const run = (extra: string[]) =>
    runCli(['--base-url', faulty.baseUrl, '--messages-base-url', faulty.messagesBaseUrl, '--runs', '3', '--seed', '11', '--only', '4.4', '--only', 'create.location', ...extra], { API_KEY: KEY });

  it('says how to give the curl lines their $API_KEY when the key came from a file, and not when it is exported', async () => {
    const file = join(dir, 'key');
    await writeFile(file, `${KEY}\n`);
    const args = ['--base-url', faulty.baseUrl, '--runs', '2', '--seed', '11', '--only', '4.4', '--api-key-file', file];
    const fromFile = await runCli(args, {});
    expect(fromFile.code).toBe(1);
    expect(fromFile.stdout).toContain(`Note: the curl lines read the key from $API_KEY, which this shell does not export (the key came from --api-key-file (${file})): run export API_KEY="$(cat '${file}')" before pasting them.`);
    const exported = await runCli(args, { API_KEY: KEY });
    expect(exported.code).toBe(1);
    expect(exported.stdout).not.toContain('does not export');
  });

  it('fails on the MUST violation, not on the SHOULD warning, by default', async () => {
    const result = await run([]);
    expect(result.code).toBe(1);
    expect(result.report?.clauses.find((c) => c.id === 'orders.exists')?.outcome).toBe('fail');
    expect(result.report?.clauses.find((c) => c.id === 'create.location')?.outcome).toBe('warn');
    // Each FAIL line names the clauses its scenario failed, not only the scenario's title.
    const failLines = result.stdout.split('\n').filter((line) => line.startsWith('FAIL '));
    expect(failLines.length).toBeGreaterThan(0);
    for (const line of failLines) expect(line).toMatch(/ — failed: orders\.exists$/);
  });

  it('passes when the failure is a known, unexpired baseline entry, and still shows it, marked known in every artifact', async () => {
    const baseline = join(dir, 'known.yaml');
    await writeFile(baseline, 'known:\n  - clause: orders.exists\n    reason: ticket 42\n    expires: 2999-01-01\n');
    const result = await run(['--baseline', baseline]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/orders\.exists/);
    const clause = result.report?.clauses.find((c) => c.id === 'orders.exists');
    expect(clause?.outcome).toBe('fail');
    expect(clause?.known).toEqual({ reason: 'ticket 42', expires: '2999-01-01' });
    expect(result.files['summary.md']).toContain('### Known failures (accepted by the baseline) (1)');
    expect(result.files['summary.md']).not.toContain('### Failures');
    expect(result.files['junit.xml']).toContain('<skipped message="accepted by the baseline: ticket 42 (expires 2999-01-01)"/>');
    expect(result.files['junit.xml']).not.toContain('<failure');
    expect(result.files['report.html']).toContain('<strong>Accepted by the baseline:</strong> ticket 42 (expires 2999-01-01)');
  });

  it('fails again once the baseline entry has expired', async () => {
    const baseline = join(dir, 'expired.yaml');
    await writeFile(baseline, 'known:\n  - clause: orders.exists\n    reason: ticket 42\n    expires: 2020-01-01\n');
    expect((await run(['--baseline', baseline])).code).toBe(1);
  });

  it('--fail-on should turns the warning into a failure', async () => {
    const baseline = join(dir, 'known2.yaml');
    await writeFile(baseline, 'known:\n  - clause: orders.exists\n    reason: ticket 42\n');
    expect((await run(['--baseline', baseline])).code).toBe(0);
    expect((await run(['--baseline', baseline, '--fail-on', 'should'])).code).toBe(1);
  });

  it('an entry naming no clause of the catalogue is "no such clause", with the id it likely meant', async () => {
    const baseline = join(dir, 'typo.yaml');
    await writeFile(baseline, 'known:\n  - clause: orders.exsits\n    reason: ticket 42\n');
    const result = await run(['--baseline', baseline]);
    expect(result.code).toBe(1); // the typo accepts nothing: orders.exists fails as new
    expect(result.stdout).toContain('- orders.exsits: no such clause (did you mean orders.exists?); its reason: ticket 42');
    expect(result.stdout).not.toContain('not in this run');
  });

  it('an entry without a reason is a usage problem that says so', async () => {
    const baseline = join(dir, 'no-reason.yaml');
    await writeFile(baseline, 'known:\n  - clause: orders.exists\n');
    const result = await run(['--baseline', baseline]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('known entry 1 (known[0]) (clause orders.exists) has no reason: say why its failure is accepted');
    expect(result.stderr).not.toContain('undefined');
  });

  it('a malformed baseline is a usage problem, not a crash', async () => {
    const baseline = join(dir, 'bad.yaml');
    await writeFile(baseline, 'known: 7\n');
    const result = await run(['--baseline', baseline]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/bad\.yaml/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('--now past the removal date', () => {
  it('passes a server that has removed GET /pets/{petId}, skipping what rests on it and observing it', async () => {
    const removed = await startReference({ apiKey: KEY, deviations: ['fault-deprecated-removed'] });
    try {
      const args = ['--base-url', removed.baseUrl, '--messages-base-url', removed.messagesBaseUrl, '--runs', '3', '--seed', '4'];
      const before = await runCli(args, { API_KEY: KEY });
      expect(before.code).toBe(1);
      const after = await runCli([...args, '--now', '2031-01-01'], { API_KEY: KEY });
      expect(after.code).toBe(0);
      expect(after.report?.clauses.find((c) => c.id === 'get.200-pet')?.outcome).toBe('skip');
      expect(after.report?.clauses.find((c) => c.id === 'deprecation.after-removal')?.checks[0]?.note).toMatch(/answered 410/);
    } finally {
      await removed.close();
    }
  });
});

describe('--now at the start of the removal day (5 December 2030 begins at UTC+14, 2030-12-04T10:00Z)', () => {
  it('requires GET /pets/{petId} until that moment and not from it on', async () => {
    const removed = await startReference({ apiKey: KEY, deviations: ['fault-deprecated-removed'] });
    try {
      const args = ['--base-url', removed.baseUrl, '--messages-base-url', removed.messagesBaseUrl, '--runs', '2', '--seed', '4', '--only', '4.3,9'];
      const before = await runCli([...args, '--now', '2030-12-04T09:59:59.999Z'], { API_KEY: KEY });
      expect(before.code).toBe(1);
      expect(before.report?.clauses.find((c) => c.id === 'deprecation.operational')?.outcome).toBe('fail');
      const from = await runCli([...args, '--now', '2030-12-04T10:00:00Z'], { API_KEY: KEY });
      expect(from.code).toBe(0);
      expect(from.report?.clauses.find((c) => c.id === 'deprecation.operational')?.outcome).toBe('skip');
      expect(from.report?.clauses.find((c) => c.id === 'get.200-pet')?.checks[0]?.note).toMatch(/past the start of the 2030-12-05 removal of getPet/);
      expect(from.report?.clauses.find((c) => c.id === 'deprecation.after-removal')?.checks[0]?.note).toMatch(/answered 410/);
    } finally {
      await removed.close();
    }
  });
});

describe('--only and --skip', () => {
  const clauses = loadClauses();
  const chosen = (only: string[], skip: string[]) => clauses.filter((c) => isSelected(c, only, skip)).map((c) => c.id);
  it('selects by section and its subsections', () => {
    expect(chosen(['4'], []).every((id) => clauses.find((c) => c.id === id)!.section.startsWith('4'))).toBe(true);
    expect(chosen(['4.4'], [])).toEqual(['orders.exists', 'orders.access']);
  });
  it('selects by operation and by clause id or prefix', () => {
    expect(chosen(['listStoreOrders'], [])).toContain('orders.exists');
    expect(chosen(['deprecation'], []).every((id) => id.startsWith('deprecation.'))).toBe(true);
    expect(chosen(['auth.required'], [])).toEqual(['auth.required']);
  });
  it('--only of an operation confines the clauses it alone selects to that operation; named by id or section besides, a clause is not confined', () => {
    const clause = (id: string) => clauses.find((c) => c.id === id)!;
    expect([...(onlyFocus(clause('auth.required'), ['listStoreOrders']) ?? [])]).toEqual(['listStoreOrders']);
    expect([...(onlyFocus(clause('auth.required'), ['getPet', 'listStoreOrders']) ?? [])]).toEqual(['getPet', 'listStoreOrders']);
    expect(onlyFocus(clause('auth.required'), ['listStoreOrders', 'auth.required'])).toBeUndefined();
    expect(onlyFocus(clause('auth.required'), ['listStoreOrders', '5'])).toBeUndefined();
    expect(onlyFocus(clause('auth.required'), ['5'])).toBeUndefined();
    expect(onlyFocus(clause('auth.required'), [])).toBeUndefined();
    expect(leftOutByOnly(clause('auth.required'), ['getPet']).get('createPet')).toBe('outside --only getPet');
    expect(leftOutByOnly(clause('auth.required'), ['getPet']).has('getPet')).toBe(false);
    expect(leftOutByOnly(clause('auth.required'), ['auth']).size).toBe(0);
  });
  it('skips what --skip names, even when --only selects it', () => {
    expect(chosen(['5'], ['auth.www-authenticate'])).not.toContain('auth.www-authenticate');
    expect(chosen([], ['5']).some((id) => id.startsWith('auth.'))).toBe(false);
  });
  it('--skip of an operation leaves out only the clauses about it alone; those it shares stay, as do any of several operations all skipped but one', () => {
    const skipped = chosen([], ['listStoreOrders']);
    expect(skipped).not.toContain('orders.exists');
    expect(skipped).toContain('auth.required');
    const operations = [...new Set(clauses.flatMap((c) => c.operations))];
    expect(chosen([], operations.filter((id) => id !== 'listPets'))).toContain('auth.required');
    expect(chosen([], operations)).not.toContain('auth.required');
  });
  it('refuses, before anything is sent (exit 2), a token both --only and --skip name, and a selection that leaves no clause', async () => {
    const both = await runCli(['--base-url', 'http://127.0.0.1:9', '--only', 'createPet', '--skip', 'createPet'], { API_KEY: KEY });
    expect(both.code).toBe(2);
    expect(both.stderr.trim()).toBe('animal-store-conformance: --only and --skip both name createPet: say which');
    const operations = [...new Set(clauses.flatMap((c) => c.operations))];
    const none = await runCli(['--base-url', 'http://127.0.0.1:9', '--skip', operations.join(',')], { API_KEY: KEY });
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe('animal-store-conformance: --only/--skip leave no clause selected: nothing would be checked (see --dry-run for the list)');
  });
});

describe('a run whose --max-duration runs out', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
  });
  afterAll(() => reference.close());

  // Side by side, every scenario has begun long before the budget runs out: what stops them is that
  // no request is sent past it, so at 300 a second at most about 450 go (a whole run sends ~1,500).
  it.each(['sequential', 'concurrent'])('cannot vouch for the MUST clauses it never reached, scenarios %s: exit 3, one line saying so, blockedBy budget, nothing sent past it', async (schedule) => {
    const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--max-duration', '1500', '--max-rps', '300', '--seed', '2', '--schedule', schedule], { API_KEY: KEY });
    expect(result.code, result.stdout).toBe(3);
    expect(result.report?.traffic?.requests).toBeLessThan(500);
    expect(result.report?.verdict).toBe('fail');
    const skipped = result.report!.clauses.filter((c) => c.level === 'MUST' && c.outcome === 'skip' && c.checks.some((k) => k.blockedBy === 'budget'));
    const partly = result.report!.clauses.filter((c) => c.level === 'MUST' && c.outcome === 'partial' && c.shortfalls?.some((s) => s.blockedBy === 'budget'));
    expect(skipped.length).toBeGreaterThan(0);
    const unreached = skipped.length + partly.length;
    expect(result.stderr).toMatch(new RegExp(`out of time: ${unreached} MUST clauses? (was|were) skipped, or judged only in part, because --max-duration \\(1500 ms\\) ran out`));
    expect(result.stdout).not.toMatch(/SHIPS \(/);
    expect(result.stdout).toContain('Verdict: CANNOT VOUCH (--fail-on must, exit code 3)');
  });
});
