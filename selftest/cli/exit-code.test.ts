import { describe, expect, it } from 'vitest';
import { settleVerdict, unvouchedClauses, unvouchedLines } from '../../src/cli/exit-code.ts';
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

  it('a MUST clause left partial by answers past --max-body cannot be vouched for either (3), and the line names the cap, not a silent target', () => {
    const capped = { id: 'list.limit-default', level: 'MUST', outcome: 'partial', checks: [], shortfalls: [{ operation: 'listPets', reason: 'r', blockedBy: 'body-cap' }] } as unknown as ClauseResult;
    expect(settled([], [capped], 0)).toEqual({ exitCode: 3, verdict: 'fail' });
    const lines = unvouchedLines(unvouchedClauses([capped]), 600_000, 4_194_304);
    expect(lines).toEqual([expect.stringMatching(/^animal-store-conformance: body past --max-body: 1 MUST clause was left unjudged, in whole or in part, because answers were longer than --max-body \(4194304 bytes\)/)]);
  });

  it("a MUST clause left unjudged by JSON answers past the suite's bounds cannot be vouched for (3), and the line names the bounds as the suite's own", () => {
    const deep = { id: 'list.200-pets', level: 'MUST', outcome: 'skip', checks: [{ blockedBy: 'json-bound' }] } as unknown as ClauseResult;
    expect(settled([], [deep], 0)).toEqual({ exitCode: 3, verdict: 'fail' });
    expect(unvouchedLines(unvouchedClauses([deep]), 600_000, 4_194_304)).toEqual([
      expect.stringMatching(/^animal-store-conformance: JSON past the suite's bounds: 1 MUST clause was left unjudged, in whole or in part, because JSON answers went past a bound of the suite's own reading \(64 levels of nesting, 1,000 members/),
    ]);
  });
});
