import type fc from 'fast-check';
import type { Exchange } from '../../src/http/exchange.ts';
import { jsonBody, jsonObject } from '../../src/http/exchange.ts';
import { limitBounds } from '../../src/contract/model.ts';
import { isInt, isInt64, stringifyJson } from '../../src/json/lossless.ts';
import { readAfterWrite } from '../../src/suite/read-lag.ts';
import { BudgetExhausted } from '../../src/suite/property.ts';
import type { Scenario } from '../../src/suite/scenario.ts';
import { categoryAt, categoryBasis, knownCategories, type CategoryId } from './categories.ts';

export type Pet = Record<string, unknown>;

/** What the scenarios that fill the store (ensurePets) may create, as the dry run lists it. */
export const SET_UP_ANIMALS = 'up to 105 set-up animals where the store holds fewer, so listings can be paged (§4.1, §8)';

/** The animals one listing returns, or undefined when it is not a 200 array. */
export function listed(exchange: Exchange): Pet[] | undefined {
  if (exchange.response?.status !== 200) return undefined;
  const body = jsonBody(exchange);
  return body.ok && Array.isArray(body.value) ? (body.value as Pet[]) : undefined;
}

/**
 * The id to fetch an animal by: an int64, or one written as a decimal string (as proto3's JSON
 * mapping writes an int64), which fails the schema's clause but still names the animal. An integer
 * beyond int64 names none a petId can ask for (the schema's clause fails it; a 400 for it is right).
 */
export function petIdText(pet: Pet | undefined): string | undefined {
  const id = pet?.id;
  if (isInt(id)) return isInt64(id) ? String(id) : undefined;
  return typeof id === 'string' && /^-?\d{1,19}$/.test(id) ? id : undefined;
}

export function createdBody(exchange: Exchange): Pet | undefined {
  return exchange.response?.status === 201 ? jsonObject(exchange) : undefined;
}

/** 0 -> a, 25 -> z, 26 -> ba: a name part in the core (generators/text.ts) for any index. */
function letters(index: number): string {
  const digit = String.fromCharCode(97 + (index % 26));
  return index < 26 ? digit : letters(Math.floor(index / 26)) + digit;
}

/**
 * A plain valid NewPet for set-up requests (the generators vary inputs; set-up need not), under one
 * of the categoryIds the target is known to accept (./categories.ts).
 */
export function plainPet(index: number, status: string | undefined, categoryIds: readonly CategoryId[]): Pet {
  const pet: Pet = { name: `Pet ${letters(index)}`, categoryId: categoryAt(categoryIds, index) };
  if (status) pet.status = status;
  return pet;
}

/** The animals of one status a scenario counts on: those its filtered listing showed, and those it created with the status. */
export interface Counted {
  count: number;
  /** The ids of those animals, where their bodies name one. */
  ids: string[];
  /** Of those ids, the ones the run only listed (it did not create them). */
  listedOnly: ReadonlySet<string>;
}

/** Each status filter at `limit`: only that status, and as full as the animals known of it allow. */
export async function checkFilteredPages(s: Scenario, counts: Record<string, Counted>, limit: number): Promise<void> {
  for (const [status, counted] of Object.entries(counts)) {
    const want = Math.min(limit, counted.count);
    // The filter first; the valid queries' property draws both orders.
    const send = () => s.send('listPets', { query: `status=${status}&limit=${limit}` });
    // A page short of animals just created is listed again while the window lasts, as a search index may trail the writes.
    const { exchange } = await readAfterWrite(s.ctx, 'listPets', send, (page) => (listed(page)?.length ?? want) < want);
    const short = (listed(exchange)?.length ?? want) < want;
    const holding = short ? await stillHolding(s, status, counted) : { count: counted.count, seen: 0 };
    const known = holding.count;
    // An empty page where a GET just showed animals of the status: the filter is left unjudged by the target (exit 3), not passed.
    if (listed(exchange)?.length === 0 && holding.seen > 0) {
      s.heldBack('list.status-filter', `GET /pets?status=${status}&limit=${limit} listed none of the ${holding.seen} animals of that status the run created (or saw listed) that a GET then showed still holding it`, 'not-listed');
    }
    const shownApart = await statusesApart(s, exchange, status, counts);
    s.verify(exchange, { 'list.200-pets': {}, 'list.status-filter': { status, fetched: shownApart.held }, 'list.full-page': { limit, known } });
    if (shownApart.other.size > 0) await listedUnderOther(s, status, shownApart.other);
  }
}

/** How many listed animals a filtered page has fetched by id (GET /pets/{petId}). */
const LISTED_FETCHED = 3;

/**
 * For a filtered page, the status a GET shows of a few of its animals: `held`, those showing the
 * filter's, and `other`, those showing another. Those listed without a status (§2.1 makes it
 * optional) go first, then those showing the filter's; of each, those the run counted under another
 * status first.
 */
async function statusesApart(s: Scenario, page: Exchange, status: string, counts: Record<string, Counted>): Promise<{ held: Map<string, string>; other: Map<string, string> }> {
  const apart = { held: new Map<string, string>(), other: new Map<string, string>() };
  const pets = (listed(page) ?? []).filter((pet) => pet !== null && typeof pet === 'object');
  const countedOther = new Set(Object.entries(counts).flatMap(([other, counted]) => (other === status ? [] : counted.ids)));
  const countedFirst = (some: Pet[]) => {
    const ids = some.map(petIdText).filter((id) => id !== undefined);
    return [...ids.filter((id) => countedOther.has(id)), ...ids.filter((id) => !countedOther.has(id))];
  };
  const unshown = pets.filter((pet) => !('status' in pet));
  const showingIt = pets.filter((pet) => pet.status === status);
  const ids = [...countedFirst(unshown), ...countedFirst(showingIt)].slice(0, LISTED_FETCHED);
  if (ids.length === 0 || s.isRemoved('getPet')) return apart;
  for (const [id, shown] of await shownStatuses(s, ids)) (shown === status ? apart.held : apart.other).set(id, shown);
  return apart;
}

/**
 * GET /pets/{petId} of each id, side by side, each answer judged by the common checks: the animal a
 * 200 shows, by id, and whether the budget kept any GET from being sent.
 */
async function fetchAnimals(s: Scenario, ids: readonly string[]): Promise<{ shown: [string, Pet][]; missing: string[]; cut: boolean }> {
  const answers = await s.allOf(ids.map((petId) => s.send('getPet', { path: { petId } })));
  const shown: [string, Pet][] = [];
  const missing: string[] = [];
  for (const [i, answer] of answers.entries()) {
    if (!answer) continue;
    s.verify(answer, {});
    const body = answer.response?.status === 200 ? jsonObject(answer) : undefined;
    // Another animal than the one asked for is get.200-pet's to fail, and shows nothing of this one.
    if (body && petIdText(body) === ids[i]) shown.push([ids[i]!, body]);
    else if (answer.response?.status === 404) missing.push(ids[i]!);
  }
  return { shown, missing, cut: answers.includes(undefined) };
}

/** The status a 200 of GET /pets/{petId} shows, by id, where one does. */
async function shownStatuses(s: Scenario, ids: readonly string[]): Promise<Map<string, string>> {
  const { shown } = await fetchAnimals(s, ids);
  return new Map(shown.flatMap(([id, pet]) => (typeof pet.status === 'string' ? [[id, pet.status] as const] : [])));
}

/**
 * Animals a page filtered by `status` listed, whose GET showed another status (`other`):
 * listed again (while the read-lag window lets a search index trail a move, as long as it still
 * holds them), then fetched again. One listed under `status` between two GETs that show the same
 * other status fails the filter: it would have had to move there and back between them (§3 shows no
 * transitions, so moves by others are allowed, not two in that moment).
 */
async function listedUnderOther(s: Scenario, status: string, other: ReadonlyMap<string, string>): Promise<void> {
  const holdsAny = (page: Exchange) => (listed(page) ?? []).some((pet) => other.has(petIdText(pet) ?? ''));
  const send = () => s.send('listPets', { query: `status=${status}&limit=${limitBounds(s.contract).max}` });
  const { exchange: again } = await readAfterWrite(s.ctx, 'listPets under a status a GET no longer shows', send, holdsAny);
  const still = (listed(again) ?? []).map((pet) => petIdText(pet) ?? '').filter((id) => other.has(id));
  const after = await shownStatuses(s, still.slice(0, LISTED_FETCHED));
  const both = new Map([...after].filter(([id, shown]) => other.get(id) === shown));
  s.verify(again, { 'list.200-pets': {}, 'list.status-filter': { status, fetched: both } });
}

/**
 * How many of the animals counted still hold `status`: §3 shows no transitions, so a server may move
 * an animal to another status once created, and a filtered page without it is then not short. Each is
 * fetched again (GET /pets/{id}, while the clock leaves the operation in place), and a 200 that shows
 * another status takes it off the count, as does a 404 of one the run only listed that a listing
 * then no longer shows (another client may remove it: nothing in the spec keeps an animal for good).
 * Any other 404 (a replica trailing), a 429, no answer or one not judged leave it counted, as do
 * animals without an id to fetch. `seen`: those a 200 showed still holding it.
 */
async function stillHolding(s: Scenario, status: string, counted: Counted): Promise<{ count: number; seen: number }> {
  if (s.isRemoved('getPet')) return { count: counted.count, seen: 0 };
  const { shown, missing, cut } = await fetchAnimals(s, counted.ids);
  // An animal the budget kept from being fetched again may have moved: the short page is not judged.
  if (cut) throw new BudgetExhausted(true);
  const seen = shown.filter(([, pet]) => pet.status === status).length;
  return { count: counted.count - (shown.length - seen) - (await unlisted(s, missing.filter((id) => counted.listedOnly.has(id)))), seen };
}

/** How many of `ids` a listing taken now does not show (none where there is no listing to tell). */
async function unlisted(s: Scenario, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const listing = await listedNow(s);
  const shown = new Set(listing?.map(petIdText));
  return listing ? ids.filter((id) => !shown.has(id)).length : 0;
}

/** The animals the largest page a listing takes now shows; undefined where it shows none (no 200 Pets). */
export async function listedNow(s: Scenario): Promise<Pet[] | undefined> {
  return listed(await s.send('listPets', { query: `limit=${limitBounds(s.contract).max}` }));
}

/**
 * Makes sure the store shows at least `perStatus` animals of every status, creating them where
 * writes are allowed and some categoryId is known to be accepted. Returns how many of each it can
 * count on (capped by what one page shows).
 */
export async function ensurePets(s: Scenario, statuses: readonly string[], perStatus: number): Promise<Record<string, Counted>> {
  // Scenarios that run side by side fill one after another: the later one finds the earlier one's animals.
  const previous = FILLING.get(s.ctx) ?? Promise.resolve();
  const filled = previous.then(() => fill(s, statuses, perStatus));
  FILLING.set(s.ctx, filled.catch(() => undefined));
  return filled;
}

/** Per worker, the fill under way (see ensurePets). */
const FILLING = new WeakMap<object, Promise<unknown>>();

async function fill(s: Scenario, statuses: readonly string[], perStatus: number): Promise<Record<string, Counted>> {
  // Each status on its own, side by side; critical: the scenarios filling after this one wait for it.
  const counts = await s.allOf(statuses.map((status) => fillStatus(s, status, perStatus)));
  // A status whose fill the budget cut short counts on nothing.
  return Object.fromEntries(statuses.map((status, i) => [status, counts[i] ?? { count: 0, ids: [], listedOnly: new Set() }]));
}

async function fillStatus(s: Scenario, status: string, perStatus: number): Promise<Counted> {
  const exchange = await s.send('listPets', { query: `limit=${limitBounds(s.contract).max}&status=${status}`, critical: true });
  // Recorded, not thrown: a listing that breaks Pet in one field must not keep the filter and the limits from being judged.
  s.verify(exchange, { 'list.200-pets': {} });
  const shown = listed(exchange)?.filter((pet) => pet.status === status) ?? [];
  const ids = shown.map(petIdText).filter((id) => id !== undefined);
  // Another scenario's creates are listed too: those the run is known to have created are not only listed.
  const listedOnly = new Set(ids.filter((id) => !s.ctx.env.createdIds?.has(id)));
  let have = shown.length;
  const missing = s.writeBlocked('createPet') ? 0 : Math.max(0, perStatus - have);
  const known = missing > 0 ? await knownCategories(s) : undefined;
  if (known && 'reason' in known) s.leaveUnjudged(`the store could not be filled: ${known.reason}`, known.blockedBy);
  else if (known) {
    const pets = Array.from({ length: missing }, (_, i) => plainPet(have + i, status, known.ids));
    const batch = pets.map((pet) => s.send('createPet', { body: stringifyJson(pet), critical: true }));
    for (const [i, created] of (await s.allOf(batch)).entries()) {
      if (!created) continue;
      s.verify(created, { 'create.201-pet': { category: categoryBasis(known, pets[i]!.categoryId) } });
      // A 429 judges nothing, and creates nothing.
      const body = createdBody(created);
      if (!body) continue;
      have++;
      const id = petIdText(body);
      if (id !== undefined) ids.push(id);
    }
  }
  return { count: have, ids, listedOnly };
}

/**
 * Sends every invalid query of `cases` (a rule broken and the query text) and judges each answer:
 * a refusal (a 4xx Error) or a page of at most the maximum limit, never a 5xx.
 */
export function checkInvalidQueries(s: Scenario, label: string, cases: readonly fc.Arbitrary<{ rule: string; text: string }>[], options: { runs?: number } = {}): Promise<boolean> {
  return s.everyCase(label, cases, {
    send: (query) => s.send('listPets', { query: query.text }),
    receive: (query, exchange) =>
      s.require(exchange, {
        'list.invalid-query': { query: `${query.rule}: ?${query.text}` },
        'list.invalid-query-handling': { query: query.rule },
        'list.limit-max': { query: `?${query.text}` },
      }),
  }, options);
}
