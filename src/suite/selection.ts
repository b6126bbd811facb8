import type { Clause } from '../contract/clauses.ts';

function matches(token: string, clause: Clause): boolean {
  if (token === clause.id || clause.id.startsWith(`${token}.`)) return true;
  if (/^§?\d+(\.\d+)*$/.test(token)) {
    const section = token.replace('§', '');
    return clause.section === section || clause.section.startsWith(`${section}.`);
  }
  return clause.operations.includes(token);
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
