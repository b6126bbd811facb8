import { describe, expect, it } from 'vitest';
import { DEVIATIONS } from '../../reference/deviations.ts';
import { HOSTILE_MODES } from '../../reference/hostile.ts';
import { renderMatrix, runMatrix, type MatrixRow } from './matrix.ts';

// The suite, run through its CLI exactly as a user runs it, against every deviation of the reference server.
describe('the fault matrix', () => {
  let rows: MatrixRow[] = [];

  // About 470 s in CI for about 250 rows (2026-12-07), and 960 s for `npm run matrix` alone on a VM
  // slower that day; the bound leaves room for a slower or busier machine.
  it('runs the CLI against every fault, allowed variant and hostile transport', { timeout: 2_400_000 }, async () => {
    rows = await runMatrix({ runs: 10, seed: 424242, parallel: 3 });
    console.log(renderMatrix(rows));
    expect(rows).toHaveLength(DEVIATIONS.length + HOSTILE_MODES.length);
  });

  it('has at least 40 faults and 10 allowed variants', () => {
    expect(DEVIATIONS.filter((d) => d.kind === 'fault').length).toBeGreaterThanOrEqual(40);
    expect(DEVIATIONS.filter((d) => d.kind === 'allowed').length).toBeGreaterThanOrEqual(10);
  });

  it('catches every fault, naming the clause it breaks', () => {
    const missed = rows.filter((r) => r.kind === 'fault' && !r.ok).map((r) => `${r.id}: expected ${r.expected}; ${r.problem}`);
    expect(missed).toEqual([]);
  });

  it('passes every server the spec allows', () => {
    expect(rows.filter((r) => r.kind === 'allowed' && !r.ok).map((r) => `${r.id}: ${r.problem}`)).toEqual([]);
  });

  it('ends every hostile run with a clear failure in bounded time, no crash, the key in no output', () => {
    expect(rows.filter((r) => r.kind === 'hostile' && !r.ok).map((r) => `${r.id}: ${r.problem}`)).toEqual([]);
  });
});
