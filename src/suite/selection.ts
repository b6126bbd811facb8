import type { Clause } from '../contract/clauses.ts';

/** By clause id (or its prefix) or section (and its subsections); undefined: the token names neither. */
function matchesIdOrSection(token: string, clause: Clause): boolean | undefined {
  if (token === clause.id || clause.id.startsWith(`${token}.`)) return true;
  if (/^§?\d+(\.\d+)*$/.test(token)) {
    const section = token.replace('§', '');
    return clause.section === section || clause.section.startsWith(`${section}.`);
  }
  return undefined;
}

function matches(token: string, clause: Clause): boolean {
  return matchesIdOrSection(token, clause) ?? clause.operations.includes(token);
}

/**
 * --only and --skip: by clause id (or its prefix), section (and its subsections), or operation id.
 * --skip of an operation leaves out only the clauses about it alone: one that covers other operations
 * too stays selected, is judged there, and the skipped operation's requests are not sent (see
 * operationsLeftOut).
 */
export function isSelected(clause: Clause, only: readonly string[], skip: readonly string[]): boolean {
  if (only.length && !only.some((token) => matches(token, clause))) return false;
  if (skip.some((token) => matchesIdOrSection(token, clause))) return false;
  return !(clause.operations.length > 0 && clause.operations.every((operation) => skip.includes(operation)));
}

/** The --only/--skip tokens that select no clause at all (most likely typos). */
export function unknownSelectors(tokens: readonly string[], clauses: readonly Clause[]): string[] {
  return tokens.filter((token) => !clauses.some((clause) => matches(token, clause)));
}

/** The --skip tokens that name an operation (and no clause id or section): what the run sends nothing to. */
export function skippedOperations(skip: readonly string[], clauses: readonly Clause[]): string[] {
  const operations = new Set(clauses.flatMap((clause) => clause.operations));
  return skip.filter((token) => operations.has(token) && !clauses.some((clause) => matchesIdOrSection(token, clause)));
}

/**
 * --only's operation tokens confine the clauses they alone select to those operations: such a clause
 * is judged on their exchanges only, a scenario whose requests go to none of them is not run for it,
 * and its other operations are left out by the user's choice. Undefined for a clause --only selects
 * by its id or section (judged wherever it applies, as before), or when --only names no operation.
 */
export function onlyFocus(clause: Clause, only: readonly string[]): ReadonlySet<string> | undefined {
  const operations = only.filter((token) => clause.operations.includes(token) && matchesIdOrSection(token, clause) === undefined);
  if (operations.length === 0 || only.some((token) => matchesIdOrSection(token, clause) === true)) return undefined;
  return new Set(operations);
}

/** The operations of a clause confined by --only (onlyFocus) that it is not judged on, and why. */
export function leftOutByOnly(clause: Clause, only: readonly string[]): Map<string, string> {
  const focus = onlyFocus(clause, only);
  const left = new Map<string, string>();
  if (!focus) return left;
  for (const operation of clause.operations) if (!focus.has(operation)) left.set(operation, `outside --only ${[...focus].join(',')}`);
  return left;
}
