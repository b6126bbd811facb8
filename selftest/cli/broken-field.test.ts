/**
 * A trial user saw list.status-filter skipped ("no exchange in this run bore on this check") against
 * a server whose listed animals broke Pet in categoryId alone: the first listing's schema failure
 * ended each scenario before the filter was judged. One broken field fails its own clause
 * (list.200-pets) and nothing else; the limit and the filter are judged on the same listings, and
 * fail only when their own rule is broken. Run as a user runs it, against the reference server.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { failedClauses, runCli, type CliResult } from '../support/run-cli.ts';

const KEY = 'broken-field-test-key-7c2d';

/** Every check of the clause, with how many exchanges it judged and its outcome. */
function judged(report: RunReport | undefined, id: string): { outcome: string; judged: number }[] {
  const clause = report?.clauses.find((c) => c.id === id);
  if (!clause) throw new Error(`no clause ${id} in the report`);
  return clause.checks.map((c) => ({ outcome: c.outcome, judged: c.judged }));
}

async function runAgainst(deviations: string[]): Promise<CliResult> {
  const reference: RunningReference = await startReference({ apiKey: KEY, deviations });
  try {
    return await runCli(['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--runs', '5', '--seed', '31', '--quiet'], { API_KEY: KEY });
  } finally {
    await reference.close();
  }
}

describe('every listed animal with categoryId as a JSON string (fault-list-category-string)', () => {
  let result: CliResult;
  beforeAll(async () => {
    result = await runAgainst(['fault-list-category-string']);
  }, 120_000);

  it('fails list.200-pets and no other clause', () => {
    expect(result.code).toBe(1);
    expect(failedClauses(result.report)).toEqual(['list.200-pets']);
    expect(result.report?.clauses.find((c) => c.id === 'list.200-pets')?.checks[0]?.failures?.[0]?.actual).toMatch(/categoryId \(item 1 of \d+\) must be integer/);
  });

  it('still judges the status filter, the limits, a full page and the animals fetched by the ids listed', () => {
    for (const id of ['list.status-filter', 'list.limit-respected', 'list.limit-default', 'list.limit-max', 'list.full-page', 'get.200-pet']) {
      const checks = judged(result.report, id);
      expect(checks.every((c) => c.outcome === 'pass' && c.judged > 0), `${id}: ${JSON.stringify(checks)}`).toBe(true);
    }
    // One listing per status at least, as the filter scenarios send them over a store filled for each.
    expect(judged(result.report, 'list.status-filter')[0]!.judged).toBeGreaterThanOrEqual(3);
  });
});

describe('the same broken categoryId, and the status filter ignored (fault-filter-ignored)', () => {
  let result: CliResult;
  beforeAll(async () => {
    result = await runAgainst(['fault-list-category-string', 'fault-filter-ignored']);
  }, 120_000);

  it('fails list.status-filter too, on its own rule', () => {
    expect(result.code).toBe(1);
    expect(failedClauses(result.report).sort()).toEqual(['list.200-pets', 'list.status-filter']);
    const filter = result.report?.clauses.find((c) => c.id === 'list.status-filter')?.checks[0]?.failures?.[0];
    expect(filter?.actual).toMatch(/has status "(available|pending|sold)"/);
  });
});
