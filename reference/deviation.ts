// One switchable deviation of the reference server: how a module declares it and switches it on.
//
// Each module that changes behaviour under a deviation declares it next to its switch, in a list it
// exports (reference/deviations.ts gathers every module's list into the catalogue). A `fault` breaks
// exactly one clause of the conformance suite (its `breaks` field); an `allowed` variant is a
// behaviour the service specification permits, so a correct suite must still pass against it.

export interface Deviation {
  id: string;
  kind: 'fault' | 'allowed';
  description: string;
  /** Clause id the fault breaks (faults only). */
  breaks?: string;
  /** SHOULD clauses an allowed variant is warned on (an RFC's SHOULD it does not follow); any other warning is a false one. */
  warns?: readonly string[];
  /** CLI arguments the fault matrix runs it with (a short --timeout for a server that hangs). */
  args?: readonly string[];
  /**
   * The operation a fault leaves unanswered. Its requests sent side by side (--schedule concurrent)
   * each time out for real, so the first clause to fail is any of those judging it: the matrix then
   * also takes a run whose every failure is a timeout on this operation.
   */
  hangs?: string;
  /** The key the fault matrix runs it with, where the fault shows only with such a key: all digits. */
  key?: 'numeric';
}

export function fault<const I extends string>(id: I, breaks: string, description: string, args?: readonly string[], hangs?: string) {
  return { id, kind: 'fault' as const, breaks, description, ...(args ? { args } : {}), ...(hangs ? { hangs } : {}) };
}

/** The fault, run by the fault matrix with a key of digits only (a fault of numeric keys). */
export function withNumericKey<const D extends Deviation>(deviation: D): D & { key: 'numeric' } {
  return { ...deviation, key: 'numeric' };
}

/** A hanging server costs the run about twice --timeout: the matrix gives those rows a short one. */
export const SHORT_TIMEOUT = ['--timeout', '2000'] as const;

export function allowed<const I extends string>(id: I, description: string, warns: readonly string[] = []) {
  return { id, kind: 'allowed' as const, description, warns };
}

/** What a switch reads: the set of switched-on deviations (the server's Ctx has it). */
interface Switched {
  dev: { has(id: string): boolean };
}

/**
 * The switch of a module: `on(ctx, id)` is true when deviation `id` is switched on, and accepts only
 * the ids of the lists it is given (the module's own, and those of a module it shares a deviation
 * with), so a typo or a deviation declared nowhere does not compile.
 */
export function switches<const L extends readonly (readonly { id: string }[])[]>(..._lists: L): (ctx: Switched, id: L[number][number]['id']) => boolean {
  return (ctx, id) => ctx.dev.has(id);
}
