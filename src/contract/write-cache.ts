import { readFileSync, writeFileSync } from 'node:fs';
import { fromPackage } from '../paths.ts';
import { digest, SPEC_CACHE, type SpecCache } from './cache.ts';
import { CLAUSES_PATH, parseClauses } from './clauses.ts';
import { DEFAULT_SPEC_PATH, parseContract } from './load.ts';

/** Parses and validates the contract and the clause catalogue, and keeps them for later runs (the build calls it). */
export async function writeSpecCache(): Promise<void> {
  const openapi = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
  const clauses = readFileSync(CLAUSES_PATH, 'utf8');
  const cache: SpecCache = {
    contract: { sha256: digest(openapi), value: await parseContract(openapi) },
    clauses: { sha256: digest(clauses), value: parseClauses(clauses) },
  };
  writeFileSync(fromPackage(SPEC_CACHE), `${JSON.stringify(cache)}\n`);
}
