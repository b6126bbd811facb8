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

/** --only and --skip: by clause id (or its prefix), section (and its subsections), or operation id. */
export function isSelected(clause: Clause, only: readonly string[], skip: readonly string[]): boolean {
  if (only.length && !only.some((token) => matches(token, clause))) return false;
  return !skip.some((token) => matches(token, clause));
}

/** The --only/--skip tokens that select no clause at all (most likely typos). */
export function unknownSelectors(tokens: readonly string[], clauses: readonly Clause[]): string[] {
  return tokens.filter((token) => !clauses.some((clause) => matches(token, clause)));
}

/**
 * For each --skip token that names an operation: the clauses it deselects that cover other
 * operations too (selection is per clause, so those go unjudged on every operation).
 */
export function skippedBeyondOperation(skip: readonly string[], clauses: readonly Clause[]): { operation: string; clauses: Clause[] }[] {
  const operations = new Set(clauses.flatMap((clause) => clause.operations));
  return skip
    .filter((token) => operations.has(token) && !clauses.some((clause) => matchesIdOrSection(token, clause)))
    .map((operation) => ({ operation, clauses: clauses.filter((clause) => clause.operations.includes(operation) && clause.operations.length > 1) }))
    .filter((found) => found.clauses.length > 0);
}
