import { readFileSync } from 'node:fs';
import { fromPackage } from '../paths.ts';
import { parse as parseYaml } from 'yaml';
import { cached } from './cache.ts';

/** MUST fails the run, SHOULD warns, OBSERVE records an open choice where the spec is silent. */
export type Level = 'MUST' | 'SHOULD' | 'OBSERVE';

export interface Clause {
  id: string;
  section: string;
  title: string;
  sentence: string;
  level: Level;
  operations: string[];
  /** The RFC a clause rests on when the service spec does not state it itself. */
  basis?: string;
  /** The least evidence a pass needs besides a judged exchange on each of its operations. */
  minimum?: Minimum;
  /** Its line in the server's profile (what it chose where the spec leaves a choice open). */
  profile?: Profile;
}

export interface Profile {
  title: string;
  /** Shown for a pass (e.g. "present"); without it a pass shows nothing. */
  pass?: string;
  /** Shown for a warning; without it a warning shows nothing. */
  warn?: string;
}

export interface Minimum {
  /** The operations whose exchanges it judges, where not all of `operations` (e.g. a Location followed with GET). */
  operations?: string[];
  /** Judged exchanges, all operations together (uniqueness needs two). */
  exchanges?: number;
  /** A judged exchange for each value of this contract enum, read from the named field of the check's context. */
  each?: { enum: string; field: string };
  /**
   * The operation whose products it judges (a listing of animals this run created, `createPet`):
   * planned skipped where the settings send it nothing, and told so where no answer showed one.
   */
  made?: string;
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
    if (clause.profile !== undefined && typeof clause.profile.title !== 'string') throw new Error(`clause ${clause.id}: profile needs a title`);
    const minimum = clause.minimum;
    if (minimum !== undefined) {
      if (clause.level === 'OBSERVE') throw new Error(`clause ${clause.id} is OBSERVE: it has no minimum to pass`);
      if (minimum.exchanges !== undefined && !(Number.isInteger(minimum.exchanges) && minimum.exchanges > 1)) throw new Error(`clause ${clause.id}: minimum.exchanges must be an integer above 1`);
      if (minimum.each !== undefined && !(minimum.each.enum && minimum.each.field)) throw new Error(`clause ${clause.id}: minimum.each needs enum and field`);
      if (minimum.made !== undefined && typeof minimum.made !== 'string') throw new Error(`clause ${clause.id}: minimum.made names an operation`);
      const stray = minimum.operations?.filter((operation) => !clause.operations.includes(operation)) ?? [];
      if (stray.length || minimum.operations?.length === 0) throw new Error(`clause ${clause.id}: minimum.operations must be some of its operations${stray.length ? ` (not ${stray.join(', ')})` : ''}`);
    }
  }
  return clauses;
}

/**
 * Orders section numbers naturally: 2.4 < 4 < 4.1 < 4.10 < 10. A part that is not a number (in a
 * report.json written by another version) compares as text.
 */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) {
      if (Number(x) !== Number(y)) return Number(x) - Number(y);
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}
