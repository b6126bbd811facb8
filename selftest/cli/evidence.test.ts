/**
 * What a trial user saw: auth.required failed on POST /v1/pets and on POST /messages, yet every
 * artifact showed the evidence of the first only; and a trimmed name lost its padding in the
 * one-line forms. Run as a user runs it, against the reference server with those faults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { reportValidator } from '../report/helpers.ts';
import { runCli, type CliResult } from '../support/run-cli.ts';

const KEY = 'evidence-test-key-5b1e';

describe('a clause failed on several operations, against the reference server', () => {
  let reference: RunningReference;
  let result: CliResult;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['fault-auth-hole-create-pet', 'fault-auth-hole-messages', 'fault-create-trims-name'] });
    // Without the sequences of calls, which meet the two operations in an order of their own draw: the first failure is createPet's.
    const args = ['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--runs', '3', '--seed', '21', '--only', 'auth.required', '--only', 'create.echo', '--stateful', 'off'];
    result = await runCli(args, { API_KEY: KEY });
  }, 120_000);
  afterAll(() => reference.close());

  const authCheck = (report: RunReport | undefined) => report?.clauses.find((c) => c.id === 'auth.required')?.checks.find((k) => k.check === 'auth.required');
  const curls = () => (authCheck(result.report)?.failures ?? []).map((f) => f.evidence?.curl ?? '');

  it('report.json lists one failure per failing operation, each with its evidence, valid against its schema', () => {
    expect(result.code).toBe(1);
    const validate = reportValidator();
    expect(validate(JSON.parse(result.files['report.json']!)), JSON.stringify(validate.errors)).toBe(true);
    const check = authCheck(result.report);
    expect(check?.failures?.map((f) => f.operation)).toEqual(['createPet', 'sendMessage']);
    const [pets, messages] = check!.failures!;
    expect(pets!.evidence?.request.url).toBe(`${reference.baseUrl}/v1/pets`);
    expect(messages!.evidence?.request.url).toBe(`${reference.messagesBaseUrl}/messages`);
    for (const f of check!.failures!) {
      expect(f.expected).toMatch(/^401 for Authorization/);
      expect(f.actual).toMatch(/^20\d /);
      expect(f.evidence?.curl).toMatch(/^curl /);
    }
    expect(check?.evidence).toEqual(pets!.evidence);
  });

  it('every other artifact and the console carry both operations\' curl lines', () => {
    const [pets, messages] = curls();
    expect(pets).toContain('/v1/pets');
    expect(messages).toContain('/messages');
    const html = (curl: string) => curl.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    const xml = (curl: string) => curl.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const curl of [pets!, messages!]) {
      expect(result.stdout).toContain(curl);
      expect(result.files['junit.xml']).toContain(xml(curl));
      expect(result.files['report.html']).toContain(html(curl));
    }
    const summary = result.files['summary.md']!.split('\n').filter((l) => l.includes('`auth.required`'));
    expect(summary.map((l) => / on `(\w+)`/.exec(l)?.[1])).toEqual(['createPet', 'sendMessage']);
    expect(result.files['report.html']).toContain('failed on 2: <code>createPet</code>, <code>sendMessage</code>');
  });

  it('the padded name keeps its spaces in junit.xml\'s message and summary.md', () => {
    const echo = result.report?.clauses.find((c) => c.id === 'create.echo');
    expect(echo?.outcome).toBe('fail');
    expect(echo?.checks[0]?.expected).toContain('"  padded name  "');
    expect(result.files['junit.xml']).toMatch(/<failure message="create\.echo: [^"]*&quot; {2}padded name {2}&quot;/);
    expect(result.files['summary.md']).toContain('`name = "  padded name  "`');
  });
});
