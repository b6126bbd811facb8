// What one call leaves behind for the next, where a deviation makes it so: the faults only a
// sequence of calls shows (fault-seq-*), and the other clients of a shared store (allowed-*).

import { allowed, fault, switches, type Deviation } from './deviation.ts';
import { isSeeded, nextStatus, PET_STATUSES, type PetStore } from './store.ts';

export const CALL_MEMORY_DEVIATIONS = [
  fault('fault-seq-lost-write-after-refusal', 'state.id-keeps-naming', 'The first POST /v1/pets that passes validation after one refused for its body (400) is answered 201 but not stored: the refused request left its transaction open, and the write went into it and was rolled back with it.'),
  fault('fault-seq-forgets-on-401', 'state.id-keeps-naming', 'Any request refused 401, on any operation, removes the animal created last (a clean-up meant for a failed create runs on every refusal).'),
  allowed('allowed-other-clients-create', "Other clients share the store: before every 3rd request another client's animal is added (its own name, categoryId 1 to 4, a status or none)."),
  allowed('allowed-removed-by-others', "Other clients share the store and remove animals from it: before every 2nd request another client's animal is added, and before every 5th one animal the suite did not create (one the store started with, or another client's) is removed, as another test run tidying up after itself or an admin tool would; GET /v1/pets/{petId} of it then answers 404 (nothing in the spec keeps an animal in the store for good)."),
  allowed('allowed-status-moved-any', 'Another system moves statuses: before every 4th request the animal created last, whoever created it, moves to the next status (available, pending, sold, available), and so does one animal at random (§3: "Transitions: not shown"). A filtered page may then hold fewer animals of a status than the suite created of it; the suite fetches those again before it judges list.full-page (SHOULD), which still warns should one move back to its status in between.', ['list.full-page']),
] as const satisfies readonly Deviation[];

const on = switches(CALL_MEMORY_DEVIATIONS);

const OTHER_CLIENTS_NAMES = ['Oscar', 'Pippa', 'Rocky', 'Tilly', 'Ziggy'];

export class CallMemory {
  /** allowed-renamed-by-others: how many seeded animals another client has renamed. */
  renames = 0;
  /** fault-seq-negative-cache: ids a GET found no animal under, answered 404 from then on. */
  readonly missingIds = new Set<bigint>();
  /** fault-seq-lost-write-after-refusal: the last POST /v1/pets was refused for its body. */
  createRefused = false;
  /** fault-seq-forgets-on-401: the animal created last. */
  lastCreated: bigint | undefined;
  /** fault-seq-sticky-limit: the limit a listing refused 401 left behind. */
  stickyLimit: number | undefined;
  /** fault-seq-message-buffer: the text of the message accepted last, and whether a refusal came since. */
  lastMessage: string | undefined;
  messageRefused = false;
  /** fault-message-id-wraps-50: the messages given an id so far. */
  messagesAccepted = 0;
  /** fault-sunset-early-one-in-four: the answers of GET /v1/pets/{petId} given deprecation headers so far. */
  getPetAnswers = 0;
  private requests = 0;
  /** allowed-removed-by-others: the animals other clients added. */
  private readonly othersIds = new Set<bigint>();

  constructor(
    readonly dev: { has(id: string): boolean },
    private readonly store: PetStore,
  ) {}

  /**
   * Before each request: allowed-other-clients-create stores another client's animal every 3rd
   * request; allowed-status-moved-any moves one animal's status (any animal's, the suite's too)
   * every 4th, as another system selling and reserving animals would (§3: "Transitions: not shown");
   * allowed-removed-by-others adds and removes animals of others.
   */
  othersAct(): void {
    this.requests++;
    if (on(this, 'allowed-other-clients-create') && this.requests % 3 === 0) {
      const n = this.requests / 3;
      this.store.put({
        id: this.store.allocateId(),
        name: OTHER_CLIENTS_NAMES[n % OTHER_CLIENTS_NAMES.length]!,
        categoryId: BigInt(1 + (n % 4)),
        status: n % 4 === 3 ? undefined : PET_STATUSES[n % 3],
        createdAt: new Date().toISOString(),
      });
    }
    if (on(this, 'allowed-removed-by-others')) this.othersAddAndRemove();
    if (on(this, 'allowed-status-moved-any') && this.requests % 4 === 0) {
      const all = this.store.all().filter((pet) => pet.status !== undefined);
      for (const pet of [all.at(-1), all[Math.floor(Math.random() * all.length)]]) if (pet) pet.status = nextStatus(pet.status);
    }
  }

  private othersAddAndRemove(): void {
    if (this.requests % 2 === 0) {
      const id = this.store.allocateId();
      this.othersIds.add(id);
      this.store.put({ id, name: 'Other', categoryId: 1n, status: PET_STATUSES[(this.requests / 2) % 3], createdAt: new Date().toISOString() });
    }
    if (this.requests % 5 !== 0) return;
    const notTheSuites = this.store.all().filter((pet) => isSeeded(pet) || this.othersIds.has(pet.id));
    const removed = notTheSuites[Math.floor(Math.random() * notTheSuites.length)];
    if (removed) this.store.delete(removed.id);
  }

  /** After a create the handler refused for its body (fault-seq-lost-write-after-refusal). */
  createWasRefused(): void {
    if (on(this, 'fault-seq-lost-write-after-refusal')) this.createRefused = true;
  }

  /**
   * Whether a create that passed validation is stored: under fault-seq-lost-write-after-refusal,
   * not the first after a refusal (the refused request's transaction was left open, and this write
   * went into it and was rolled back with it), though it is answered 201.
   */
  keepsCreate(id: bigint): boolean {
    this.lastCreated = id;
    const lost = this.createRefused;
    this.createRefused = false;
    return !lost;
  }

  /** Whatever the operation, a 401: fault-seq-forgets-on-401 removes the animal created last (a clean-up meant for a failed create runs on every refusal). */
  refusedCredentials(): void {
    if (!on(this, 'fault-seq-forgets-on-401') || this.lastCreated === undefined) return;
    this.store.delete(this.lastCreated);
    this.lastCreated = undefined;
  }
}
