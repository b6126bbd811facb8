import fc from 'fast-check';
import { describe } from 'vitest';
import { INT64_MIN, newPet } from '../generators/index.ts';
import { stringifyJson } from '../src/json/lossless.ts';
import { fetchShownPet, type Fetched } from '../src/suite/read-lag.ts';
import type { BlockedBy } from '../src/report/model.ts';
import { scenario, type Judgements, type Scenario } from '../src/suite/scenario.ts';
import { categoryBasis, knownCategories } from './support/categories.ts';
import { createdBody, listed, listedNow, petIdText, plainPet, type Pet } from './support/store.ts';
import { removalOf } from '../src/contract/removal.ts';
import { sameBarStatus } from '../src/checks/common.ts';
import { jsonObject, type Exchange } from '../src/http/exchange.ts';

// Not one of them is a decimal int64; forms a lenient parser might read as a number (1e3, 0x10) are left out.
const MALFORMED_IDS = ['abc', '1.5', '9223372036854775808', '-9223372036854775809', '12abc', '%20'];

function removal(s: Scenario): Date {
  const date = removalOf(s.contract, 'getPet');
  if (!date) throw new Error('the contract marks no removal date for getPet');
  return date;
}

/**
 * GET /pets/{petId} of an animal the service has shown, a 404 tried again while it may still be lag
 * (`fresh`: just created); past the removal a 404 is what a removed operation answers, so it is taken at once.
 * An animal only listed may have been removed since (nothing in the spec keeps one in the store for
 * good): its first 404 is followed by a listing, and one that no longer shows it ends the read there,
 * `unshown`, evidence of nothing (a listing need not show every animal, so neither of a removal); one
 * that still shows it makes the 404 the server's own once the read-lag window is out.
 */
async function fetchPet(s: Scenario, pet: Pet, fresh = false): Promise<Fetched> {
  const send = () => s.send('getPet', { path: { petId: petIdText(pet) ?? String(pet.id) } });
  if (s.isRemoved('getPet')) return { exchange: await send(), misses: 0, lagMs: 0 };
  return fetchShownPet(s.ctx, send, fresh ? { fresh } : { stillShown: async () => (await listedAgain(s, pet)) !== null });
}

/** The animal as a listing taken now shows it; null where the listing no longer shows it, undefined where there is no listing to tell. */
async function listedAgain(s: Scenario, pet: Pet): Promise<Pet | null | undefined> {
  const listing = await listedNow(s);
  return listing && (listing.find((other) => petIdText(other) === petIdText(pet)) ?? null);
}

/**
 * Whether an animal the suite only listed (never created) was changed by another client between the
 * listing and its GET: the GET shows another name or categoryId than the listing did, and a listing
 * taken after the GET shows it as the GET did. Nothing in the spec fixes an animal's fields for good
 * (§3 shows no transitions; another interface may edit the store), so such a GET is evidence of nothing;
 * a later listing that still disagrees with the GET is the server's own inconsistency, and is judged.
 */
async function changedSinceListed(s: Scenario, pet: Pet, got: Exchange): Promise<boolean> {
  const shown = got.response?.status === 200 ? jsonObject(got) : undefined;
  if (!shown || sameBarStatus(s.ctx.env, shown, pet)) return false;
  const again = await listedAgain(s, pet);
  return !!again && !sameBarStatus(s.ctx.env, again, pet) && sameBarStatus(s.ctx.env, shown, again);
}

/** Some animal the store shows, creating one where writes are allowed and the store is empty; else why there is none. */
async function someListedPet(s: Scenario): Promise<{ pet: Pet; fresh: boolean } | { reason: string; blockedBy?: BlockedBy }> {
  const listing = await s.send('listPets', { query: 'limit=5' });
  const first = listed(listing)?.[0];
  if (first) return { pet: first, fresh: false };
  const blocked = s.writeBlocked('createPet');
  if (blocked) return { reason: `${s.leftOut(listing) ?? 'the store is empty'} and ${blocked}` };
  const known = await knownCategories(s);
  if ('reason' in known) return known;
  const pet = plainPet(0, 'available', known.ids);
  const exchange = await s.send('createPet', { body: stringifyJson(pet) });
  s.verify(exchange, { 'create.201-pet': { category: categoryBasis(known, pet.categoryId) } });
  const created = createdBody(exchange);
  return created ? { pet: created, fresh: true } : { reason: 'the store is empty and creating an animal failed' };
}

/** How many listed animals fetchSomeListedPet tries, each answered 404 and no longer listed. */
const REMOVED_TRIES = 3;

/**
 * GET of some animal the store shows (someListedPet): another where one only listed was answered 404
 * and no longer listed (fetchPet's `unshown`); the next listing's first animal is another, as that
 * one no longer heads it.
 */
async function fetchSomeListedPet(s: Scenario): Promise<{ exchange: Exchange; id: string } | { reason: string; blockedBy?: BlockedBy }> {
  for (let tries = 1; ; tries++) {
    const found = await someListedPet(s);
    if ('reason' in found) return found;
    const fetched = await fetchPet(s, found.pet, found.fresh);
    if (!fetched.unshown) return { exchange: fetched.exchange, id: String(found.pet.id) };
    s.verify(fetched.exchange, {});
    if (tries === REMOVED_TRIES) return { reason: `each of ${REMOVED_TRIES} animals listed was answered 404 by its GET and no longer listed after it (removed by another client, or left off the page)` };
  }
}

describe('§4.3 Get an animal: GET /pets/{petId} (deprecated)', () => {
  // A 404 just after the 201 or the listing is tried again for up to 5 s (src/suite/read-lag.ts).
  scenario('a created animal comes back by its id, equal to what creation returned', { checks: ['get.200-pet', 'get.read-lag'], writes: true, deprecated: 'getPet', shard: 'inputs' }, async (s) => {
    const known = await knownCategories(s);
    if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
    await s.property('created then fetched', newPet(s.contract, known.ids), {
      send: async (input) => {
        const created = createdBody(await s.send('createPet', { body: stringifyJson(input) }));
        // An id that is no int64 fails create.201-pet: a GET of it would only blame getPet too.
        if (!created || petIdText(created) === undefined) return undefined;
        return { created, fetched: await fetchPet(s, created, true) };
      },
      receive: (_input, result) => {
        // Another system may move even an animal just created on to another status (§3: "Transitions: not shown").
        if (result) s.require(result.fetched.exchange, { 'get.200-pet': { expected: result.created, statusMayChange: true, shownBy: 'its 201' }, 'get.read-lag': result.fetched });
      },
    });
  });

  scenario(
    'listed animals come back by id, equal to their listing',
    {
      checks: ['get.200-pet', 'get.read-lag'],
      deprecated: 'getPet',
      needs: ['listPets'],
      writesIfAllowed: 'one animal of its own first, so that the page holds one past those the store started with (§4.3)',
    },
    async (s) => {
      // Run before the scenarios that fill the store, the page would hold only the animals the store started with.
      if (!s.writeBlocked('createPet')) {
        const known = await knownCategories(s);
        if (!('reason' in known)) {
          const pet = plainPet(1, 'available', known.ids);
          s.verify(await s.send('createPet', { body: stringifyJson(pet) }), { 'create.201-pet': { category: categoryBasis(known, pet.categoryId) } });
        }
      }
      // Ten from across a full page, not its first ten alone, and the one with the highest id, wherever the
      // order puts it: a fault may show only past the first animals (higher ids, longer names).
      const page = listed(await s.send('listPets', { query: 'limit=100' })) ?? [];
      const count = Math.min(10, page.length);
      const spread = new Set(Array.from({ length: count }, (_, i) => page[count === 1 ? 0 : Math.round((i * (page.length - 1)) / (count - 1))]!));
      const numbered = page.filter((pet) => petIdText(pet) !== undefined);
      const highest = numbered.reduce<Pet | undefined>((top, pet) => (!top || BigInt(petIdText(pet)!) > BigInt(petIdText(top)!) ? pet : top), undefined);
      if (highest) spread.add(highest);
      let unshown = 0;
      for (const pet of spread) {
        if (petIdText(pet) === undefined) continue;
        const fetched = await fetchPet(s, pet);
        if (fetched.unshown) unshown++;
        if (fetched.unshown || (await changedSinceListed(s, pet, fetched.exchange))) continue;
        s.verify(fetched.exchange, { 'get.200-pet': { expected: pet, statusMayChange: true, shownBy: 'GET /pets?limit=100' }, 'get.read-lag': fetched });
      }
      if (unshown > 0) s.skipCheck('get.200-pet', `${unshown} of the ${spread.size} listed animals fetched were answered 404 and no longer listed after it (removed by another client, or left off the page): evidence of nothing`);
    },
  );

  scenario('an id no animal has gives 404 with an Error', { checks: ['get.unknown-404', 'errors.shape', 'errors.status-field'], deprecated: 'getPet', shard: 'inputs' }, async (s) => {
    const known = new Set((listed(await s.send('listPets', { query: 'limit=100' })) ?? []).map((pet) => String(pet.id)));
    // High in the int64 range, where sequential ids do not reach; an id that turns out to exist is not judged.
    const unknownId = fc.bigInt({ min: 2n ** 62n, max: 2n ** 63n - 1n }).map(String).filter((id) => !known.has(id));
    await s.property(
      'unknown ids',
      unknownId,
      { send: (id) => s.send('getPet', { path: { petId: id } }), receive: (id, exchange) => s.require(exchange, { 'get.unknown-404': { id } }) },
      { runs: Math.min(s.config.runs, 20) },
    );
  });

  scenario('a petId of 0 or below gives 404, or the animal that has it', { checks: ['get.same-id', 'get.unknown-404'], deprecated: 'getPet' }, async (s) => {
    // Sequential ids start above them: a server that takes the petId as an index into its store answers with another
    // animal. The least int64 is a petId too, one whose absolute value overflows; none is malformed, so none gets a 400.
    for (const petId of ['0', '-1', INT64_MIN.toString()]) s.verify(await s.send('getPet', { path: { petId } }), { 'get.unknown-404': { id: petId, mayExist: true } });
  });

  scenario('a petId that is not an int64 gives a 4xx with an Error', { checks: ['get.malformed-id', 'errors.shape', 'errors.status-field', 'errors.no-5xx'], deprecated: 'getPet' }, async (s) => {
    for (const id of MALFORMED_IDS) {
      s.verify(await s.send('getPet', { path: { petId: decodeURIComponent(id) } }), { 'get.malformed-id': { id } });
    }
  });

  scenario(
    'the deprecated operation still answers before 5 December 2030, and its deprecation headers are well formed',
    {
      checks: ['deprecation.operational', 'deprecation.headers-well-formed', 'deprecation.sunset-not-early', 'deprecation.signals', 'deprecation.after-removal', 'errors.no-5xx'],
      removal: { operationId: 'getPet', before: ['deprecation.operational'], after: ['deprecation.after-removal'] },
      operations: ['getPet'],
      writesIfAllowed: 'one set-up animal to fetch where the listing shows none (§4.3)',
      checksNeed: { checks: ['deprecation.operational', 'deprecation.signals', 'deprecation.after-removal'], anyOf: ['listPets', 'createPet'] },
    },
    async (s) => {
      const removalDate = removal(s);
      // Past its removal the operation may be gone: a router's own 404 page is no answer of the
      // operation's, so only what it answers is recorded, and no 5xx still holds.
      const gone = s.isRemoved('getPet');
      const common = gone ? { common: false } : {};
      const noServerError: Judgements = gone ? { 'errors.no-5xx': {} } : {};
      // A 404 of the deprecated operation carries its headers too, whatever the store holds.
      const missing = await s.send('getPet', { path: { petId: '9223372036854775807' } });
      s.verify(missing, { 'deprecation.headers-well-formed': {}, 'deprecation.sunset-not-early': { removal: removalDate }, ...noServerError }, common);
      const found = await fetchSomeListedPet(s);
      if ('reason' in found) {
        s.skipCheck('deprecation.operational', found.reason, found.blockedBy);
        return;
      }
      const { exchange, id } = found;
      s.verify(exchange, {
        'deprecation.operational': { removal: removalDate, id },
        'deprecation.headers-well-formed': {},
        'deprecation.sunset-not-early': { removal: removalDate },
        'deprecation.signals': {},
        'deprecation.after-removal': { removal: removalDate },
        ...noServerError,
      }, common);
    },
  );
});
