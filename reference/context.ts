import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallMemory } from './call-memory.ts';
import type { Deviations } from './deviations.ts';
import type { PetStore } from './store.ts';

/** Everything a route handler needs besides the request itself. */
export interface Ctx {
  apiKey: string;
  dev: Deviations;
  store: PetStore;
  /** The last request id a deviation that numbers its answers gave out. */
  requestIds: number;
  /** What one call leaves behind for the next (sequence faults), and other clients of the store. */
  memory: CallMemory;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, ctx: Ctx, url: URL) => Promise<void>;
