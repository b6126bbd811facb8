/**
 * A SHOULD clause not met on several operations: every artifact carried the first operation's warning
 * only. Against the reference server whose 401s carry no WWW-Authenticate (allowed, and a warning of
 * auth.www-authenticate on every operation), run as a user runs it, by default and with
 * --fail-on should (which fails the gate on the same warnings, listed the same way).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { reportValidator } from '../report/helpers.ts';
import { runCli, type CliResult } from '../support/run-cli.ts';

const KEY = 'warnings-test-key-71c2';

describe('a SHOULD clause warned on several operations, against the reference server', () => {
  let reference: RunningReference;
  let result: CliResult;
  let strict: CliResult;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['allowed-no-www-authenticate'] });
    const args = ['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--runs', '3', '--seed', '31', '--only', 'auth.www-authenticate'];
    [result, strict] = await Promise.all([runCli(args, { API_KEY: KEY }), runCli([...args, '--fail-on', 'should', '--quiet'], { API_KEY: KEY })]);
  }, 120_000);
  afterAll(() => reference.close());

  const clauseOf = (report: RunReport | undefined) => report?.clauses.find((c) => c.id === 'auth.www-authenticate');
  const checkOf = (report: RunReport | undefined) => clauseOf(report)?.checks.find((k) => k.check === 'auth.www-authenticate');
  const operations = (report: RunReport | undefined) => checkOf(report)?.warnings?.map((w) => w.operation);

  it('report.json lists one warning per operation, each with its own evidence, valid against its schema', () => {
    expect(result.code, result.stderr).toBe(0);
    const validate = reportValidator();
    expect(validate(JSON.parse(result.files['report.json']!)), JSON.stringify(validate.errors)).toBe(true);
    const clause = clauseOf(result.report)!;
    expect(clause.outcome).toBe('warn');
    // Every operation the clause names answers a wrong key with a 401 lacking the header.
    expect(operations(result.report)).toEqual(clause.operations);
    const check = checkOf(result.report)!;
    const sent = check.warnings!.map((w) => `${w.evidence?.request.method} ${w.evidence?.request.url}`);
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent).toContain(`GET ${reference.baseUrl}/v1/pets`);
    expect(sent).toContain(`POST ${reference.messagesBaseUrl}/messages`);
    for (const w of check.warnings!) {
      expect(w.actual).toMatch(/WWW-Authenticate/);
      expect(w.evidence?.response?.status).toBe(401);
      expect(w.evidence?.curl).toMatch(/^curl /);
    }
    expect(check.evidence).toEqual(check.warnings![0]!.evidence);
    expect(check.failures).toBeUndefined();
  });

  it('summary.md gives each operation a line under Warnings; the console, junit.xml and report.html carry every curl line', () => {
    const summary = result.files['summary.md']!;
    const warnings = summary.slice(summary.indexOf('### Warnings'));
    const lines = warnings.split('\n').filter((l) => l.includes('`auth.www-authenticate`'));
    expect(lines.map((l) => / on `(\w+)`/.exec(l)?.[1])).toEqual(clauseOf(result.report)!.operations);
    expect(summary).toContain(`### Warnings (${lines.length})`);
    const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const html = (s: string) => xml(s).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    for (const w of checkOf(result.report)!.warnings!) {
      const curl = w.evidence!.curl;
      expect(result.stdout).toContain(curl);
      expect(result.files['junit.xml']).toContain(xml(curl));
      expect(result.files['report.html']).toContain(html(curl));
    }
    expect(result.files['report.html']).toContain(`warned on ${lines.length}: <code>listPets</code>`);
    expect(result.files['junit.xml']).not.toContain('<failure');
  });

  it('--fail-on should fails the gate on those warnings, and every artifact lists them the same way', () => {
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.report?.verdict).toBe('fail');
    expect(clauseOf(strict.report)?.outcome).toBe('warn');
    expect(operations(strict.report)).toEqual(operations(result.report));
    const lines = (r: CliResult) => r.files['summary.md']!.split('\n').filter((l) => l.includes('`auth.www-authenticate`'));
    expect(lines(strict)).toHaveLength(lines(result).length);
    expect(strict.files['summary.md']).toContain('**does not ship**');
    // The gate fails on them: junit.xml shows them red, so a CI widget agrees with the exit code.
    expect(strict.files['junit.xml']).toMatch(/<failure message="auth\.www-authenticate: SHOULD violated on \d+ operations[^"]*" type="SHOULD">/);
    expect(strict.stdout).toMatch(/^Failing: §[\d.]+ auth\.www-authenticate$/m);
  });
});
