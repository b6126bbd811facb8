import type { Exchange } from '../http/exchange.ts';

/**
 * Every MUST-level check that failed on one exchange: the server broke those clauses. Anything else
 * thrown inside a scenario is an engine error.
 */
export class ConformanceFailures extends Error {
  override name = 'ConformanceFailures';
  constructor(
    readonly failures: { clause: string; expected: string; actual: string }[],
    readonly exchange: Exchange,
  ) {
    super(failures.map((f) => `${f.clause}\n  Expected: ${f.expected}\n  Actual:   ${f.actual}`).join('\n'));
  }
}
