// Catalogue of switchable deviations of the reference server.
//
// Each deviation is declared in the module that switches it on (reference/deviation.ts says how),
// beside the one point in the code where it matters; this module gathers those lists into the one
// catalogue the server, its CLI, the fault matrix and the self-tests read.

import { AUTH_DEVIATIONS } from './auth.ts';
import { CALL_MEMORY_DEVIATIONS } from './call-memory.ts';
import type { Deviation } from './deviation.ts';
import { HTTP_DEVIATIONS } from './http.ts';
import { ROUTER_DEVIATIONS } from './router.ts';
import { CREATE_PET_DEVIATIONS } from './routes/create-pet.ts';
import { GET_PET_DEVIATIONS } from './routes/get-pet.ts';
import { LIST_PETS_DEVIATIONS } from './routes/list-pets.ts';
import { MESSAGES_DEVIATIONS } from './routes/messages.ts';
import { STORE_ORDERS_DEVIATIONS } from './routes/store-orders.ts';
import { STORE_DEVIATIONS } from './store.ts';

export type { Deviation } from './deviation.ts';

/** Every module's list, by the file that declares and switches it (selftest/reference checks each id has one). */
export const DECLARED = {
  'reference/router.ts': ROUTER_DEVIATIONS,
  'reference/auth.ts': AUTH_DEVIATIONS,
  'reference/http.ts': HTTP_DEVIATIONS,
  'reference/store.ts': STORE_DEVIATIONS,
  'reference/routes/list-pets.ts': LIST_PETS_DEVIATIONS,
  'reference/routes/create-pet.ts': CREATE_PET_DEVIATIONS,
  'reference/routes/get-pet.ts': GET_PET_DEVIATIONS,
  'reference/routes/store-orders.ts': STORE_ORDERS_DEVIATIONS,
  'reference/routes/messages.ts': MESSAGES_DEVIATIONS,
  'reference/call-memory.ts': CALL_MEMORY_DEVIATIONS,
} as const;

const CATALOGUE = [
  ...AUTH_DEVIATIONS,
  ...LIST_PETS_DEVIATIONS,
  ...HTTP_DEVIATIONS,
  ...CREATE_PET_DEVIATIONS,
  ...GET_PET_DEVIATIONS,
  ...STORE_ORDERS_DEVIATIONS,
  ...MESSAGES_DEVIATIONS,
  ...ROUTER_DEVIATIONS,
  ...STORE_DEVIATIONS,
  ...CALL_MEMORY_DEVIATIONS,
] as const satisfies readonly Deviation[];

export type DeviationId = (typeof CATALOGUE)[number]['id'];

/** Faults first, then allowed variants (the order of the fault matrix and of `reference --list`). */
export const DEVIATIONS: readonly Deviation[] = [...CATALOGUE.filter((d) => d.kind === 'fault'), ...CATALOGUE.filter((d) => d.kind === 'allowed')];

const KNOWN = new Set<string>(CATALOGUE.map((d) => d.id));

/** The set of switched-on deviations. `has` only accepts catalogue ids, so a typo does not compile. */
export interface Deviations {
  has(id: DeviationId): boolean;
  readonly ids: readonly DeviationId[];
}

/** Builds the switch set; throws naming the first id not in the catalogue. */
export function deviationSet(ids: readonly string[] = []): Deviations {
  for (const id of ids) {
    if (!KNOWN.has(id)) throw new Error(`unknown deviation id: ${JSON.stringify(id)}`);
  }
  const on = new Set<string>(ids);
  return { has: (id) => on.has(id), ids: [...on] as DeviationId[] };
}
