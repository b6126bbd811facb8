import type { Clause } from '../contract/clauses.ts';
import type { Contract } from '../contract/model.ts';
import { RATE_LIMITED_MARK, type BlockedBy, type Shortfall } from '../report/model.ts';
import { unjudgedCause } from '../suite/body-cap.ts';

/** What one clause's checks gathered over the run, whatever their outcomes. */
export interface Coverage {
  /** Exchanges judged per operation. */
  judged: Record<string, number>;
  /** Per operation, requests that judged nothing (not sent, or cut short), and why. */
  unjudged: Record<string, { reason: string; count: number }>;
  /** Values of the clause's minimum.each judged. */
  covered: Set<string>;
  /** Skips the target is to blame for (429s, no categoryId taken, the budget). */
  blocked: { reason: string; blockedBy: BlockedBy }[];
  /** Per operation, answers handed back rate limited in the scenarios that judged it (ClauseCoverage.rateLimitedOn). */
  rateLimitedOn: Record<string, number>;
}

/** Operations the user's settings keep out of a run, and why (writes off, no message host, the removal clock). */
export type LeftOut = ReadonlyMap<string, string>;

function requests(count: number): string {
  return `${count} ${count === 1 ? 'request' : 'requests'}`;
}

/**
 * What a clause's evidence did not reach: each operation it covers that nothing judged, and the
 * minimum of spec/clauses.yaml it fell short of. A clause that would pass with any is partial.
 */
export function shortfallsOf(clause: Clause, coverage: Coverage, options: { leftOut: LeftOut; enumValues: (name: string) => string[] }): Shortfall[] {
  if (clause.level === 'OBSERVE') return [];
  const shortfalls: Shortfall[] = [];
  const blocked = coverage.blocked[0];
  const blame = (): Pick<Shortfall, 'blockedBy'> => (blocked ? { blockedBy: blocked.blockedBy } : {});
  for (const operation of clause.minimum?.operations ?? clause.operations) {
    if ((coverage.judged[operation] ?? 0) > 0) continue;
    const leftOut = options.leftOut.get(operation);
    const unjudged = coverage.unjudged[operation];
    if (leftOut) shortfalls.push({ operation, reason: leftOut, choice: true });
    else if (unjudged) shortfalls.push({ operation, reason: `${requests(unjudged.count)} judged nothing: ${unjudged.reason}`, blockedBy: unjudgedCause(unjudged.reason) });
    else if (blocked) shortfalls.push({ operation, reason: blocked.reason, blockedBy: blocked.blockedBy });
    else if (coverage.rateLimitedOn[operation]) shortfalls.push({ operation, reason: `${requests(coverage.rateLimitedOn[operation])} on it handed back ${RATE_LIMITED_MARK}`, blockedBy: 'rate-limit' });
    else shortfalls.push({ operation, reason: 'no exchange with this operation bore on the clause in this run' });
  }
  const total = Object.values(coverage.judged).reduce((sum, count) => sum + count, 0);
  const firstUnjudged = Object.values(coverage.unjudged)[0];
  const unsent = Object.values(coverage.unjudged).reduce((sum, entry) => sum + entry.count, 0);
  const why = unsent > 0 ? `; ${requests(unsent)} that would have borne on it judged nothing (${Object.values(coverage.unjudged)[0]!.reason})` : '';
  const least = clause.minimum?.exchanges;
  if (least !== undefined && total > 0 && total < least) {
    shortfalls.push({ reason: `judged on ${total} ${total === 1 ? 'exchange' : 'exchanges'}, and the clause needs at least ${least}${why}`, ...(firstUnjudged ? { blockedBy: unjudgedCause(firstUnjudged.reason) } : blame()) });
  }
  // A scenario that bore on it was cut short by the budget, or one of its checks was skipped for it.
  const outOfTime = coverage.blocked.find((b) => b.blockedBy === 'budget');
  if (outOfTime && total > 0 && !shortfalls.some((s) => s.blockedBy === 'budget')) shortfalls.push({ reason: outOfTime.reason, blockedBy: 'budget' });
  const each = clause.minimum?.each;
  if (each && total > 0) {
    const missing = options.enumValues(each.enum).filter((value) => !coverage.covered.has(value));
    if (missing.length) {
      shortfalls.push({ reason: `not judged for ${each.field} ${missing.join(', ')} (the clause needs every ${each.enum} value)${why}`, ...(firstUnjudged ? { blockedBy: unjudgedCause(firstUnjudged.reason) } : blame()) });
    }
  }
  return shortfalls;
}

/** The values of a contract schema that is an enum (PetStatus), as strings. */
export function enumValues(contract: Contract, name: string): string[] {
  const values = contract.schemas[name]?.enum;
  if (!values?.length) throw new Error(`the contract has no enum schema ${name}`);
  return values.map(String);
}
