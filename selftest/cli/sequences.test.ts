// Stateful runs: a fault only a sequence of calls shows is caught, told as a short story that failed
// again when run twice more, and written as a regression test that replays it through the suite.

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { failedClauses, runCli } from '../support/run-cli.ts';

const KEY = 'sequences-test-key-5d20ae';
const CLAUSE = 'state.id-keeps-naming';

describe('sequences of calls against a write lost after a refusal (fault-seq-lost-write-after-refusal)', () => {
  let faulty: RunningReference;
  let faithful: RunningReference;
  let reports: string;
  beforeAll(async () => {
    faulty = await startReference({ apiKey: KEY, deviations: ['fault-seq-lost-write-after-refusal'] });
    faithful = await startReference({ apiKey: KEY });
    reports = await mkdtemp(join(tmpdir(), 'asc-sequences-'));
  });
  afterAll(async () => {
    await faulty.close();
    await faithful.close();
    await rm(reports, { recursive: true, force: true });
  });
  const target = (server: RunningReference) => ['--base-url', server.baseUrl, '--messages-base-url', server.messagesBaseUrl, '--schedule', 'sequential'];

  it('fails the clause with the story of at most six steps that shows it, a curl script and a regression test', async () => {
    const result = await runCli([...target(faulty), '--runs', '10', '--seed', '3', '--only', CLAUSE, '--reports', reports], { API_KEY: KEY });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8')) as import('../../src/report/model.ts').RunReport;
    expect(failedClauses(report)).toEqual([CLAUSE]);
    const story = report.clauses.find((c) => c.id === CLAUSE)!.checks[0]!.story!;
    expect(story.unconfirmed).toBeUndefined();
    expect(story.steps.length).toBeLessThanOrEqual(6);
    // A create refused for its body (400) comes before the create (201) whose animal is then not found.
    const requests = story.steps.flatMap((step) => step.requests);
    const refused = requests.findIndex((r) => r.request.startsWith('POST ') && r.answer.startsWith('400'));
    expect(refused).toBeGreaterThanOrEqual(0);
    expect(refused).toBeLessThan(requests.findLastIndex((r) => r.request.startsWith('POST ') && r.answer.startsWith('201')));
    expect(requests.at(-1)!.answer).toMatch(/^404/);
    expect(result.stdout).toMatch(/Story \(the shortest sequence found, \d steps?, failed twice more in a row when run again; the last step failed\):\n\s+1\. /);
    const files = await readdir(join(reports, 'regressions'));
    expect(files.sort()).toEqual([`${CLAUSE}-3.sh`, `${CLAUSE}-3.test.ts`]);
    const script = await readFile(join(reports, 'regressions', `${CLAUSE}-3.sh`), 'utf8');
    expect(script.split('\n').filter((line) => /^(answer=\$\()?(printf '[^']*' \| )?curl /.test(line)).length).toBe(story.curl.length);
    // Every report points to that script as what reproduces it; the one curl line is the last step alone.
    expect(story.script).toBe(`regressions/${CLAUSE}-3.sh`);
    expect(result.stdout).toMatch(new RegExp(`Reproduce: +sh ${join(reports, 'regressions', `${CLAUSE}-3.sh`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(every step of the story, in order\\)\n +Last step: +curl `));
    const junit = await readFile(join(reports, 'junit.xml'), 'utf8');
    expect(junit).toContain(`Reproduce (every step of the story, in order; the script is in the reports folder):\n  sh regressions/${CLAUSE}-3.sh\nLast step alone:\n  curl `);
    expect(await readFile(join(reports, 'report.html'), 'utf8')).toContain(`as a script: <code>regressions/${CLAUSE}-3.sh</code> beside this report`);
    expect(script).not.toContain('set -x');
    expect(script).toContain('$API_KEY');
    for (const text of [script, await readFile(join(reports, 'regressions', `${CLAUSE}-3.test.ts`), 'utf8'), result.stdout]) expect(text).not.toContain(KEY);
  });

  it('replays the regression test: it fails again on the faulty server and passes on a faithful one', async () => {
    const test = join(reports, 'regressions', `${CLAUSE}-3.test.ts`);
    const again = await runCli([...target(faulty), '--replay', test], { API_KEY: KEY });
    expect(again.code, again.stdout + again.stderr).toBe(1);
    expect(failedClauses(again.report)).toEqual([CLAUSE]);
    // Its Replay line runs the regression test again, not the seeded suite.
    expect(again.report!.replay).toMatch(new RegExp(`^npx animal-store-conformance --replay \\S*${CLAUSE.replace(/\./g, '\\.')}-3\\.test\\.ts --base-url `));
    expect(again.report!.replay).not.toContain('--seed');
    const fixed = await runCli([...target(faithful), '--replay', test], { API_KEY: KEY });
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.report!.clauses.find((c) => c.id === CLAUSE)!.outcome).toBe('pass');
  });

  it('are skipped, saying so, with --stateful off', async () => {
    const result = await runCli([...target(faulty), '--runs', '10', '--seed', '3', '--only', CLAUSE, '--stateful', 'off'], { API_KEY: KEY });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const clause = result.report!.clauses.find((c) => c.id === CLAUSE)!;
    expect(clause.outcome).toBe('skip');
    expect(clause.checks[0]!.note).toContain('sequences of calls are off (--stateful off)');
  });
});

describe('sequences of calls side by side against a cached 404 (fault-seq-negative-cache)', () => {
  let faulty: RunningReference;
  beforeAll(async () => {
    faulty = await startReference({ apiKey: KEY, deviations: ['fault-seq-negative-cache'] });
  });
  afterAll(async () => {
    await faulty.close();
  });

  // Side by side, other lanes and scenarios take the ids a sequence found free, often after the
  // sequence that looked has ended: the run looks for them once every lane is done.
  it('fails state.id-keeps-naming when another lane or scenario created the animal under the id a sequence found free', async () => {
    const result = await runCli(['--base-url', faulty.baseUrl, '--messages-base-url', faulty.messagesBaseUrl, '--schedule', 'concurrent', '--runs', '10', '--seed', '424242'], { API_KEY: KEY });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const check = result.report!.clauses.find((c) => c.id === CLAUSE)!.checks.find((k) => k.outcome === 'fail');
    expect(check?.actual).toMatch(/^404/);
    expect(check?.expected).toMatch(/^200 with the animal created as id \d+/);
  });
});
