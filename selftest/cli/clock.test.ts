// The clock dates are judged by is shown as "--now X" only when --now (or NOW) set it; else it is the
// time of the run, and the outputs say --now can set it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { forward } from '../support/forward.ts';
import { serveOnLoopback } from '../support/loopback-server.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'clock-test-key-8d2f41';
const AFTER_REMOVAL = 'deprecation.after-removal';

describe('the clock in skip reasons, the dry run and report.html', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
  });
  afterAll(() => reference.close());

  const run = (extra: string[], env: Record<string, string> = {}) =>
    runCli(['--base-url', reference.baseUrl, '--runs', '1', '--seed', '3', '--only', AFTER_REMOVAL, ...extra], { API_KEY: KEY, ...env });

  it('with no --now: the time of the run, settable with --now, never "(--now …)"', async () => {
    const real = await run([]);
    expect(real.code, real.stderr).toBe(0);
    const note = real.report?.clauses.find((c) => c.id === AFTER_REMOVAL)?.checks[0]?.note ?? '';
    expect(note).toMatch(/^the clock \(\d{4}-\d\d-\d\dT[\d:.]+Z, settable with --now\) is before the 2030-12-05 removal of getPet/);
    expect(real.stdout).toContain(note);
    expect(real.report?.nowGiven).toBe(false);
    expect(real.files['report.html']).toMatch(/<dt>Judged at<\/dt><dd>[\d:.TZ-]+ \(the time of the run; settable with --now\)<\/dd>/);

    const dry = await run(['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/the clock \(\d{4}-\d\d-\d\dT[\d:.]+Z, settable with --now\) is before/);

    for (const text of [note, real.stdout, dry.stdout, real.files['report.html'] ?? '']) expect(text).not.toMatch(/\(--now /);
  });

  it('with --now, or NOW: "(--now X)", the value given', async () => {
    for (const [args, env] of [[['--now', '2026-06-01'], {}], [[], { NOW: '2026-06-01' }]] as const) {
      const real = await run([...args], env);
      expect(real.code, real.stderr).toBe(0);
      expect(real.report?.clauses.find((c) => c.id === AFTER_REMOVAL)?.checks[0]?.note).toMatch(/^the clock \(--now 2026-06-01\) is before/);
      expect(real.report?.nowGiven).toBe(true);
      expect(real.files['report.html']).toContain('<dt>Judged at</dt><dd>2026-06-01T00:00:00.000Z (--now)</dd>');
      const dry = await run([...args, '--dry-run'], env);
      expect(dry.stdout).toMatch(/the clock \(--now 2026-06-01\) is before/);
    }
  });

  it('past the removal date, a router\'s HTML 404 for the removed operation fails nothing, and is recorded', async () => {
    const removed = await startReference({ apiKey: KEY, deviations: ['fault-deprecated-removed-html'] });
    try {
      const result = await runCli(['--base-url', removed.baseUrl, '--runs', '2', '--seed', '3', '--only', '4.3,7,9', '--now', '2031-01-01'], { API_KEY: KEY });
      expect(result.code, result.stdout).toBe(0);
      const observed = result.report?.clauses.find((c) => c.id === AFTER_REMOVAL)?.checks[0];
      expect(observed?.outcome, observed?.note).toBe('observe');
      expect(observed?.note).toMatch(/answered 404/);
    } finally {
      await removed.close();
    }
  });

  it('past the removal date, a clause skipped by the clock is not put down to a 429 its scenario met', async () => {
    // In front of the reference: the deprecated operation's unknown-id probe is answered 429 past the retry bound.
    const gate = await serveOnLoopback((req, res) => {
      if (req.url?.endsWith('/pets/9223372036854775807')) return void res.writeHead(429, { 'retry-after': '3600' }).end();
      forward(req, res, reference.baseUrl).catch(() => res.destroy());
    });
    try {
      const result = await runCli(['--base-url', gate.url, '--runs', '1', '--seed', '3', '--only', 'deprecation.operational', '--now', '2031-01-01'], { API_KEY: KEY });
      const operational = result.report?.clauses.find((c) => c.id === 'deprecation.operational')?.checks[0];
      expect(operational?.note).toMatch(/^the clock \(--now 2031-01-01\) is past/);
      expect(operational?.blockedBy).toBeUndefined();
      expect(result.code, result.stderr).toBe(0);
    } finally {
      await gate.close();
    }
  });
});
