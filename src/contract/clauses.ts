import { readFileSync } from 'node:fs';
import { fromPackage } from '../paths.ts';
import { parse as parseYaml } from 'yaml';
import type { Level } from '../report/model.ts';
import { cached } from './cache.ts';

export interface Clause {
  id: string;
  section: string;
  title: string;
  sentence: string;
  level: Level;
  operations: string[];
  /** The RFC a clause rests on when the service spec does not state it itself. */
  basis?: string;
}

export const CLAUSES_PATH = fromPackage('spec', 'clauses.yaml');

const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'OBSERVE'];

/** The clause catalogue: the build's (spec-cache.json) while it holds for this text. */
export function loadClauses(path = CLAUSES_PATH): Clause[] {
  const text = readFileSync(path, 'utf8');
  return (path === CLAUSES_PATH ? cached<Clause[]>('clauses', text) : undefined) ?? parseClauses(text);
}

/** The clause catalogue, checked for shape as it is parsed. */
export function parseClauses(text: string): Clause[] {
  const doc = parseYaml(text) as { clauses?: Clause[] };
  const clauses = doc.clauses ?? [];
  const seen = new Set<string>();
  for (const clause of clauses) {
    if (!/^[a-z0-9]+(?:[.-][a-z0-9]+)+$/.test(clause.id)) throw new Error(`clause id ${JSON.stringify(clause.id)} is not a slug`);
    if (seen.has(clause.id)) throw new Error(`clause ${clause.id} is listed twice`);
    seen.add(clause.id);
    if (!LEVELS.includes(clause.level)) throw new Error(`clause ${clause.id} has level ${clause.level}`);
    if (!/^\d+(\.\d+)*$/.test(String(clause.section))) throw new Error(`clause ${clause.id} has section ${clause.section}`);
    if (!clause.sentence || !clause.title || !clause.operations?.length) throw new Error(`clause ${clause.id} lacks a sentence, title or operations`);
  }
  return clauses;
}

/** Orders sections numerically: 2.4 < 4 < 4.1 < 4.10. */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}
