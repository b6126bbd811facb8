// --dry-run visits every scenario without sending anything and says, per clause, whether it would
// run or be skipped (writes off, the clock past a removal date, no message host). Checked against
// what a real run with the same settings reports.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'dry-run-test-key-51c7e0';

/** Skips only the answers can decide (the plan cannot know them): a plan may show such a clause as running. */
/** The paths of the two POSTs, in any spelling the alias probes send (/v1/%70ets, /MESSAGES, ...). */
const PETS_PATH = /pets|%70ets/i;
const MESSAGES_PATH = /messages|%6Dessages/i;
const RUN_TIME_ONLY = [/the store is empty/, /the store shows only/, /the run budget/, /no answer showed what its \w+ made/];

/** The mark per clause id in the plan's clause list (• runs, ○ skipped, - deselected). */
function marks(stdout: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of stdout.matchAll(/^ {2}([•○-]) §\S+\s+\S+\s+(\S+)/gm)) found.set(match[2]!, match[1]!);
  return found;
}

describe('--dry-run', () => {
  let reference: RunningReference;
  let main: RecordingProxy;
  let messages: RecordingProxy;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    main = await startRecordingProxy(reference.baseUrl);
    messages = await startRecordingProxy(reference.messagesBaseUrl);
  });
  afterAll(async () => {
    await main.close();
    await messages.close();
    await reference.close();
  });

  const cases: { name: string; args: () => string[]; reasons: RegExp[]; writes?: RegExp; runTimeOnly?: RegExp[] }[] = [
    {
      name: 'production, the clock past the removal, no message host',
      args: () => ['--base-url', main.url, '--env', 'production', '--now', '2031-01-01'],
      reasons: [/writes are off against production/, /past the start of the 2030-12-05 removal of getPet \(2030-12-04T10:00Z, when that day begins at UTC\+14\)/],
    },
    {
      name: 'staging with both hosts, one section deselected',
      args: () => ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--skip', '8', '--now', '2026-06-01'],
      reasons: [/before the 2030-12-05 removal of getPet/],
    },
    {
      name: 'staging without a message host',
      args: () => ['--staging-base-url', main.url, '--env', 'staging', '--only', '4.5,5', '--now', '2026-06-01'],
      reasons: [/MESSAGES_BASE_URL is not configured/],
    },
    {
      name: 'staging with both hosts, only §4.4 (nothing written)',
      args: () => ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--only', '4.4', '--stateful', 'off'],
      reasons: [],
      writes: /^ {2}writes {3}none: no scenario of the selected clauses creates animals or sends messages$/m,
    },
    {
      name: 'staging, only the JSON clauses (the §7 scenario posts a body that is not JSON)',
      args: () => ['--staging-base-url', main.url, '--env', 'staging', '--only', 'json', '--stateful', 'off'],
      reasons: [],
      writes: /^ {2}writes {3}POST \/v1\/pets: a NewPet body that is not JSON, `\{` \(§7\)$/m,
    },
    {
      name: 'staging with both hosts, createPet left out (--skip of an operation)',
      args: () => ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--skip', 'createPet'],
      reasons: [/left out by --skip createPet/],
    },
    {
      name: 'staging with both hosts, sendMessage left out (the message host is sent nothing)',
      args: () => ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--skip', 'sendMessage', '--stateful', 'off'],
      reasons: [],
    },
    {
      name: 'staging with both hosts, listPets left out (its scenarios skipped, not run on nothing)',
      args: () => ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--skip', 'listPets'],
      reasons: [/left out by --skip listPets/],
    },
    {
      name: 'production, listPets left out (no animal to fetch by id: no listing, and writes are off)',
      args: () => ['--base-url', main.url, '--env', 'production', '--skip', 'listPets', '--stateful', 'off'],
      reasons: [/left out by --skip listPets/, /needs listPets or createPet, and these settings send neither/],
    },
    {
      name: 'staging with both hosts, getPet left out (a Location is not followed)',
      args: () => ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--skip', 'getPet', '--stateful', 'off'],
      reasons: [/left out by --skip getPet/],
    },
    {
      name: 'staging with both hosts, only the listStoreOrders operation (its scenarios alone: nothing written)',
      args: () => ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--only', 'listStoreOrders'],
      reasons: [],
      writes: /^ {2}writes {3}none: no scenario of the selected clauses creates animals or sends messages$/m,
      // Judged on GET /store/orders alone, errors.shape has nothing to judge where it answers no error but 401.
      runTimeOnly: [/^not exercised in this run$/],
    },
    {
      name: 'staging with both hosts, only §4.1 (set-up animals only)',
      args: () => ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--only', '4.1', '--stateful', 'off'],
      reasons: [],
      writes: /^ {2}writes {3}POST \/v1\/pets: up to 105 set-up animals where the store holds fewer, so listings can be paged \(§4\.1, §8\)$/m,
    },
  ];

  /** What the plan's writes lines promise: which POSTs go out. */
  function plannedWrites(stdout: string): { pets: boolean; surePets: boolean; messages: boolean } {
    const block = /^ {2}writes {3}[\s\S]*?(?=^ {2}\S|^$)/m.exec(stdout)?.[0] ?? '';
    // Set-up animals are "up to" so many: a store that already holds enough gets none.
    return { pets: /POST \/v1\/pets|random sequences/.test(block), surePets: /valid NewPets|random sequences/.test(block), messages: /POST \/messages/.test(block) };
  }

  for (const { name, args, reasons, writes, runTimeOnly = [] } of cases) {
    it(`${name}: sends nothing, and its skips are the real run's`, async () => {
      main.requests.length = 0;
      messages.requests.length = 0;
      const dry = await runCli([...args(), '--dry-run'], { API_KEY: KEY });
      expect(dry.code, dry.stderr).toBe(0);
      expect(main.requests.length + messages.requests.length).toBe(0);
      for (const reason of reasons) expect(dry.stdout).toMatch(reason);
      if (writes) expect(dry.stdout).toMatch(writes);
      const planned = marks(dry.stdout);

      const real = await runCli([...args(), '--runs', '3', '--seed', '2'], { API_KEY: KEY });
      expect(real.code, real.stderr).toBe(0);
      // A scenario the progress shows as run sent something: one whose every request its settings leave out is skipped instead.
      const ran = new Set([...real.stdout.matchAll(/^(?:ok {3}|FAIL )(.+)$/gm)].map((m) => m[1]!));
      expect(ran.size).toBeGreaterThan(0);
      for (const timing of real.report?.scenarios ?? []) if (ran.has(timing.title)) expect(timing.requests, timing.title).toBeGreaterThan(0);
      // The writes it lists are the real run's: a POST the plan leaves out is never sent, and one it lists is.
      // By what is posted, on either host: the alias probes send each POST to the other host too.
      const posted = (path: RegExp) => [...main.requests, ...messages.requests].some((r) => r.method === 'POST' && path.test(r.path));
      const promised = plannedWrites(dry.stdout);
      if (posted(PETS_PATH)) expect(promised.pets, dry.stdout).toBe(true);
      if (promised.surePets) expect(posted(PETS_PATH), dry.stdout).toBe(true);
      expect(promised.messages, dry.stdout).toBe(posted(MESSAGES_PATH));
      if (/--only/.test(args().join(' '))) expect(dry.stdout).toMatch(/for the whole suite \(--only\/--skip send fewer\)/);
      const clauses = real.report?.clauses ?? [];
      expect(planned.size).toBe(clauses.length);
      for (const clause of clauses) {
        const notes = clause.checks.map((check) => check.note ?? '');
        const mark = planned.get(clause.id);
        const context = `${clause.id}: planned ${mark}, ran ${clause.outcome} (${notes.join('; ')})`;
        if (notes.some((note) => note.startsWith('deselected'))) expect(mark, context).toBe('-');
        else if (clause.outcome !== 'skip') expect(mark, context).toBe('•');
        else if (!notes.every((note) => [...RUN_TIME_ONLY, ...runTimeOnly].some((only) => only.test(note)))) expect(mark, context).toBe('○');
      }
      if (reasons.length > 0) expect([...planned.values()]).toContain('○');
    });
  }

  it('needs no key: it sends nothing, and the plan is shown whole (no text taken for a key)', async () => {
    main.requests.length = 0;
    const dry = await runCli(['--staging-base-url', main.url, '--env', 'staging', '--dry-run'], {});
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr.trim()).toBe('animal-store-conformance: note: no API key is set: the plan needs none, but the run itself stops at once (API_KEY, .env or --api-key-file)');
    expect(dry.stdout).toMatch(/Dry run: nothing is sent/);
    expect(dry.stdout).not.toContain('$API_KEY');
    expect(main.requests).toEqual([]);
  });

  it('lists the animal the deprecation scenario creates on an empty store, which the real run then creates', async () => {
    const empty = await startReference({ apiKey: KEY, deviations: ['allowed-empty-store'] });
    const recorded = await startRecordingProxy(empty.baseUrl);
    try {
      const args = ['--staging-base-url', recorded.url, '--env', 'staging', '--only', 'deprecation', '--stateful', 'off'];
      const dry = await runCli([...args, '--dry-run'], { API_KEY: KEY });
      expect(dry.stdout).toMatch(/^ {2}writes {3}POST \/v1\/pets: one set-up animal to fetch where the listing shows none \(§4\.3\)$/m);
      const real = await runCli([...args, '--runs', '2', '--seed', '2'], { API_KEY: KEY });
      expect(real.code, real.stderr).toBe(0);
      expect(recorded.requests.filter((r) => r.method === 'POST' && r.status === 201).length).toBeGreaterThan(0);
    } finally {
      await recorded.close();
      await empty.close();
    }
  });

  it('--skip of one operation sends it nothing and judges the clauses it shares on the other operations, shown partial by the settings', async () => {
    main.requests.length = 0;
    const args = ['--staging-base-url', main.url, '--env', 'staging', '--skip', 'listStoreOrders'];
    const dry = await runCli([...args, '--dry-run'], { API_KEY: KEY });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/^animal-store-conformance: note: --skip listStoreOrders: nothing is sent to it; the clauses it shares with other operations are judged on those alone \(shown partial, by the settings\), and the checks that need it are skipped$/m);
    expect(marks(dry.stdout).get('auth.required')).toBe('•');
    expect(marks(dry.stdout).get('orders.exists')).toBe('-');
    const real = await runCli([...args, '--runs', '2', '--seed', '2'], { API_KEY: KEY });
    expect(real.code, real.stderr).toBe(0);
    expect(main.requests.filter((r) => r.path.includes('/store/orders'))).toEqual([]);
    const required = real.report!.clauses.find((c) => c.id === 'auth.required')!;
    expect(required.outcome).toBe('partial');
    expect(required.shortfalls).toContainEqual({ operation: 'listStoreOrders', reason: 'left out by --skip listStoreOrders', choice: true });
    // A listing left out is no empty store: the skip says which it was.
    const unlisted = await runCli(['--base-url', main.url, '--env', 'production', '--skip', 'listPets', '--only', '4.3', '--runs', '2', '--seed', '2'], { API_KEY: KEY });
    expect(unlisted.code, unlisted.stderr).toBe(0);
    const operational = unlisted.report!.clauses.find((c) => c.id === 'deprecation.operational')!;
    expect(operational.outcome).toBe('skip');
    expect(operational.checks[0]!.note).toMatch(/^listPets is left out \(--skip listPets\) and writes are off against production/);
    const bySection = await runCli(['--staging-base-url', main.url, '--env', 'staging', '--skip', '4.4', '--dry-run'], { API_KEY: KEY });
    expect(bySection.stderr).toBe('');
    expect(marks(bySection.stdout).get('auth.required')).toBe('•');
  });

  it('--only of one operation judges the clauses it shares on that operation alone, shown partial by the settings, and sends the others nothing', async () => {
    main.requests.length = 0;
    messages.requests.length = 0;
    const args = ['--staging-base-url', main.url, '--messages-base-url', messages.url, '--env', 'staging', '--only', 'listStoreOrders', '--runs', '2', '--seed', '2'];
    const real = await runCli(args, { API_KEY: KEY });
    expect(real.code, real.stderr).toBe(0);
    expect(real.stderr).toMatch(/^animal-store-conformance: note: --only listStoreOrders: the clauses it shares with other operations are judged on it alone/m);
    // The preflight's listing (and its look for a version prefix) aside, every request goes to the operation (or another spelling of its path), and none writes.
    const elsewhere = main.requests.filter((r) => !decodeURIComponent(r.path).replace(/\/{2,}/g, '/').toLowerCase().startsWith('/v1/store/') && !r.path.startsWith('/v1/pets?limit=1'));
    expect(elsewhere).toEqual([]);
    expect(main.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([]);
    expect(messages.requests.every((r) => r.method === 'GET')).toBe(true);
    for (const id of ['auth.required', 'errors.no-5xx']) {
      const clause = real.report!.clauses.find((c) => c.id === id)!;
      expect(Object.keys(clause.judgedByOperation ?? {}), id).toEqual(['listStoreOrders']);
      expect(clause.outcome, id).toBe('partial');
      expect(clause.shortfalls, id).toContainEqual({ operation: 'createPet', reason: 'outside --only listStoreOrders', choice: true });
    }
  });
});
