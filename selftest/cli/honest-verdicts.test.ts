/**
 * Honest verdicts against servers that do not answer every request: a failure rests on what the
 * server did (a real timeout), never on a request the suite did not send or cut short; a clause
 * judged on fewer operations than it covers is partial, not pass; failures that share a cause say so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import type { ClauseResult, RunReport } from '../../src/report/model.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'honest-verdicts-key-7c21';

let server: RunningReference | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runAgainst(deviations: string[], extra: string[]) {
  server = await startReference({ apiKey: KEY, deviations });
  const args = ['--base-url', server.baseUrl, '--messages-base-url', server.messagesBaseUrl, '--runs', '3', '--seed', '17', '--workers', '1', ...extra];
  return runCli(args, { API_KEY: KEY });
}

/** Every failure listed anywhere in the report, with its clause. */
function failures(report: RunReport) {
  return report.clauses.flatMap((clause) => clause.checks.flatMap((check) => (check.failures ?? []).map((failure) => ({ clause, failure }))));
}

const byId = (report: RunReport, id: string): ClauseResult => report.clauses.find((c) => c.id === id)!;

describe('a server that never answers one kind of request', () => {
  // Side by side, other scenarios' POSTs may meet the hang before the operation is set aside. §7's own
  // malformed one is judged by create.invalid-400 too; a body that is not UTF-8 has only a SHOULD of its
  // own (create.not-utf8), so its real timeout fails errors.no-5xx, the MUST a request without one falls to.
  it.each(['sequential', 'concurrent'])('fails only the clause whose request went unanswered, with the real timeout, and a curl line that gives up as the suite did (--schedule %s)', async (schedule) => {
    const result = await runAgainst(['fault-create-hangs-on-malformed-json'], ['--timeout', '1000', '--schedule', schedule]);
    expect(result.code, result.stderr).toBe(1);
    const report = result.report!;
    const failing = report.clauses.filter((c) => c.outcome === 'fail').map((c) => c.id);
    if (schedule === 'sequential') expect(failing).toEqual(['create.invalid-400']);
    else expect(failing.filter((id) => id !== 'errors.no-5xx')).toEqual(['create.invalid-400']);
    const listed = failures(report);
    expect(listed.length).toBeGreaterThan(0);
    for (const { failure } of listed) {
      expect(failure.evidence?.request.method).toBe('POST');
      expect(failure.actual).toMatch(/^timeout: no answer within 1000 ms \(given up after \d+ ms\)$/);
      expect(failure.evidence?.curl).toMatch(/^curl -sS --max-time 1 /);
    }
    // Nothing the suite held back or cut short is evidence in any artifact.
    for (const [name, text] of Object.entries(result.files)) expect(text, name).not.toMatch(/Actual[^\n]*(not-sent|cut-short|lost-kept-alive)|"actual": "(not-sent|cut-short|lost-kept-alive)/);
  });
});

describe('a server that hangs on one operation', () => {
  it('fails or leaves unjudged only that operation\'s clauses; the others are judged as usual', async () => {
    // One scenario after another, as near the target: which clause meets getPet's first real timeouts
    // (a failure) before the operation is set aside (unjudged) then follows the files' order, not
    // timing. A loaded machine can measure loopback as far and run the scenarios side by side.
    const result = await runAgainst(['fault-get-pet-hangs'], ['--timeout', '1000', '--schedule', 'sequential']);
    expect(result.code, result.stderr).toBe(1);
    const report = result.report!;
    for (const { clause, failure } of failures(report)) {
      expect(clause.operations, clause.id).toContain('getPet');
      expect(failure.operation, clause.id).toBe('getPet');
      expect(failure.actual).toMatch(/^timeout: /);
    }
    for (const id of ['list.limit-bounds-accepted', 'list.limit-respected', 'create.201-pet', 'messages.accepted']) expect(byId(report, id).outcome, id).toBe('pass');
    const auth = byId(report, 'auth.required');
    expect(auth.outcome).toBe('partial');
    expect(auth.shortfalls).toEqual([expect.objectContaining({ operation: 'getPet', blockedBy: 'no-answer' })]);
    expect(auth.judgedByOperation).toEqual(expect.objectContaining({ listPets: expect.any(Number), createPet: expect.any(Number) }));
    expect(auth.judgedByOperation?.getPet).toBeUndefined();
  });
});

describe('writes off (--env production)', () => {
  it('shows a clause judged without its write operations as partial, by the settings, and exits 0', async () => {
    const result = await runAgainst(['fault-auth-hole-create-pet'], ['--env', 'production', '--only', '5']);
    expect(result.code, result.stderr).toBe(0);
    const auth = byId(result.report!, 'auth.required');
    expect(auth.outcome).toBe('partial');
    expect(auth.shortfalls?.map((s) => [s.operation, s.choice])).toEqual([
      ['createPet', true],
      ['sendMessage', true],
    ]);
    expect(result.files['summary.md']).toContain('### Judged only in part');
    expect(result.files['junit.xml']).toMatch(/<skipped message="PARTIAL: createPet not judged/);
    expect(result.stdout).toMatch(/checked only in part: the SHIPS verdict does not vouch for/);
  });
});

describe('failures that share a cause', () => {
  it('groups them under one line', async () => {
    const result = await runAgainst(['fault-problem-json-on-get'], ['--only', '4.1', '--only', '7', '--only', 'json']);
    expect(result.code, result.stderr).toBe(1);
    const cause = result.report!.causes?.find((c) => c.clauses.includes('errors.shape'));
    expect(cause?.clauses).toEqual(expect.arrayContaining(['errors.shape', 'json.content-type']));
    expect(cause?.summary).toMatch(/application\/problem\+json with a JSON object with detail, status, title, type/);
    expect(result.stdout).toContain('Likely one cause');
    expect(result.files['summary.md']).toContain('### Likely one cause');
  });
});
