// In-memory pet store. Ids are int64 bigints, assigned sequentially.

import { allowed, switches, type Deviation } from './deviation.ts';
import type { JsonOut } from './json.ts';

export type PetStatus = 'available' | 'pending' | 'sold';
export const PET_STATUSES: readonly string[] = ['available', 'pending', 'sold'];

export interface StoredPet {
  id: bigint;
  name: string;
  categoryId: bigint;
  /** Normally a PetStatus; fault-create-accepts-bad-status stores any string. */
  status?: string;
  createdAt: string;
}

export class PetStore {
  private readonly pets = new Map<bigint, StoredPet>();
  /** Whether the Map's insertion order is id order, so listings need no sort. */
  private insertedInOrder = true;
  private highestId: bigint | undefined;
  private nextId: bigint;
  private lastId: bigint | undefined;
  /** Number of pets created through the API (seed excluded). */
  createdCount = 0;

  constructor(firstId: bigint) {
    this.nextId = firstId;
  }

  allocateId(): bigint {
    const id = this.nextId;
    this.nextId += 1n;
    this.lastId = id;
    return id;
  }

  /** The id most recently handed out, if any. */
  get previousId(): bigint | undefined {
    return this.lastId;
  }

  put(pet: StoredPet): void {
    if (!this.pets.has(pet.id)) {
      if (this.highestId !== undefined && pet.id < this.highestId) this.insertedInOrder = false;
      else this.highestId = pet.id;
    }
    this.pets.set(pet.id, pet);
  }

  delete(id: bigint): void {
    this.pets.delete(id);
  }

  get(id: bigint): StoredPet | undefined {
    return this.pets.get(id);
  }

  /** All pets in ascending id order. */
  all(): StoredPet[] {
    const pets = [...this.pets.values()];
    return this.insertedInOrder ? pets : pets.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Pets in ascending id order, lazily: a page of a large store costs its own size. */
  ascending(): Iterable<StoredPet> {
    return this.insertedInOrder ? this.pets.values() : this.all();
  }
}

const SEED: readonly { name: string; categoryId: bigint; status?: PetStatus }[] = [
  { name: 'Rex', categoryId: 1n, status: 'available' },
  { name: 'Bella', categoryId: 2n, status: 'pending' },
  { name: 'Milo', categoryId: 3n, status: 'sold' },
  { name: 'Luna', categoryId: 1n, status: 'available' },
  { name: 'Max', categoryId: 2n, status: 'pending' },
  { name: 'Coco', categoryId: 3n, status: 'sold' },
  { name: 'Daisy', categoryId: 1n, status: 'available' },
  { name: 'Charlie', categoryId: 2n, status: 'pending' },
  { name: 'Buddy', categoryId: 3n, status: 'sold' },
  { name: 'Nemo', categoryId: 4n },
];

const seeded = new WeakSet<StoredPet>();

/** 10 pets: 3 of each status (interleaved) and, last, one without status. */
export function seedStore(store: PetStore): void {
  const createdAt = new Date().toISOString();
  for (const seed of SEED) {
    const pet = { ...seed, id: store.allocateId(), createdAt };
    seeded.add(pet);
    store.put(pet);
  }
}

export function isSeeded(pet: StoredPet): boolean {
  return seeded.has(pet);
}

/** The status after the one given, in the order available, pending, sold; any other status stays. */
export function nextStatus(status: string | undefined): string | undefined {
  const index = status === undefined ? -1 : PET_STATUSES.indexOf(status);
  return index < 0 ? status : PET_STATUSES[(index + 1) % PET_STATUSES.length];
}

export interface PetView {
  withCreatedAt: boolean;
}

/** The Pet body: id, name, categoryId, status (only when set), and createdAt when asked. */
export function petJson(pet: StoredPet, view: PetView): { [key: string]: JsonOut | undefined } {
  return {
    id: pet.id,
    name: pet.name,
    categoryId: pet.categoryId,
    status: pet.status,
    createdAt: view.withCreatedAt ? pet.createdAt : undefined,
  };
}

/** The deviations of the store as the server opens it. */
export const STORE_DEVIATIONS = [
  allowed('allowed-big-ids', 'Pet ids start at 2^60+1 (beyond 2^53), seed included.'),
  allowed('allowed-empty-store', 'The store starts empty (no seed pets).'),
  allowed('allowed-ids-from-zero', 'Pet ids start at 0 (the first seed pet has id 0).'),
] as const satisfies readonly Deviation[];

const on = switches(STORE_DEVIATIONS);

/** The store a server starts with: seeded with 10 pets when `seed` (and no deviation empties it). */
export function openStore(ctx: Parameters<typeof on>[0], seed: boolean): PetStore {
  const store = new PetStore(on(ctx, 'allowed-big-ids') ? 2n ** 60n + 1n : on(ctx, 'allowed-ids-from-zero') ? 0n : 1n);
  if (seed && !on(ctx, 'allowed-empty-store')) seedStore(store);
  return store;
}
