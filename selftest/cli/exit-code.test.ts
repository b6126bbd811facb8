import { describe, expect, it } from 'vitest';
import { settleVerdict } from '../../src/cli/exit-code.ts';
import type { ClauseResult, RunReport } from '../../src/report/model.ts';

const settled = (engineErrors: string[], clauses: ClauseResult[], gateFailures: number) => {
  const report: Pick<RunReport, 'clauses' | 'engineErrors' | 'exitCode' | 'verdict'> = { clauses, engineErrors, exitCode: 0, verdict: 'pass' };
  settleVerdict(report, gateFailures);
  return { exitCode: report.exitCode, verdict: report.verdict };
};

const unjudgedMust = { id: 'get.200-pet', level: 'MUST', outcome: 'skip', checks: [{ blockedBy: 'rate-limit' }] } as unknown as ClauseResult;

describe('settleVerdict: only a run that exits 0 passes', () => {
  it('passes a run with nothing failed, nothing unjudged and no engine error', () => {
    expect(settled([], [], 0)).toEqual({ exitCode: 0, verdict: 'pass' });
  });

  it('fails a run with a failure (1), one that could not judge a MUST clause (3), and one the engine broke under (4)', () => {
    expect(settled([], [], 2)).toEqual({ exitCode: 1, verdict: 'fail' });
    expect(settled([], [unjudgedMust], 0)).toEqual({ exitCode: 3, verdict: 'fail' });
    expect(settled(['tests/4.1-list-pets.test.ts: boom'], [], 0)).toEqual({ exitCode: 4, verdict: 'fail' });
  });
});
