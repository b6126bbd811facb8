import type { Exchange } from '../http/exchange.ts';

/** A MUST-level check failed: the server broke a clause. Anything else thrown is an engine error. */
export class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
  constructor(
    readonly check: string,
    readonly clause: string,
    readonly expected: string,
    readonly actual: string,
    readonly exchange: Exchange,
  ) {
    super(`${clause} (${check})\n  Expected: ${expected}\n  Actual:   ${actual}`);
  }
}
