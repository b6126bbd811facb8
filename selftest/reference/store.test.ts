// reference/store.ts: listings walk pets in id order, whatever order they were stored in.

import { describe, expect, it } from 'vitest';
import { PetStore, type StoredPet } from '../../reference/store.ts';

const pet = (id: bigint): StoredPet => ({ id, name: `pet ${id}`, categoryId: 1n, createdAt: '2026-01-01T00:00:00Z' });
const ids = (pets: Iterable<StoredPet>) => [...pets].map((p) => p.id);

describe('PetStore', () => {
  it('lists pets stored in id order as stored', () => {
    const store = new PetStore(1n);
    for (let i = 0; i < 5; i++) store.put(pet(store.allocateId()));
    expect(ids(store.ascending())).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(ids(store.all())).toEqual([1n, 2n, 3n, 4n, 5n]);
  });

  it('sorts by id once a pet was stored out of order', () => {
    const store = new PetStore(1n);
    for (const id of [5n, 2n, 9n, 1n]) store.put(pet(id));
    expect(ids(store.ascending())).toEqual([1n, 2n, 5n, 9n]);
    expect(ids(store.all())).toEqual([1n, 2n, 5n, 9n]);
  });

  it('keeps the order when a pet is stored again under its id', () => {
    const store = new PetStore(1n);
    for (const id of [1n, 2n, 3n]) store.put(pet(id));
    store.put({ ...pet(1n), name: 'renamed' });
    expect(ids(store.ascending())).toEqual([1n, 2n, 3n]);
    expect(store.get(1n)?.name).toBe('renamed');
  });
});
