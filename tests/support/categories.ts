import type { Refusable } from '../../src/checks/types.ts';
import { limitBounds } from '../../src/contract/model.ts';
import { jsonBody } from '../../src/http/exchange.ts';
import { exactInteger, isInt64, sameInteger, stringifyJson } from '../../src/json/lossless.ts';
import type { BlockedBy } from '../../src/report/model.ts';
import { PROBE_CATEGORY_IDS, type CategoryId } from '../../src/suite/categories.ts';
import type { Judgements, Scenario } from '../../src/suite/scenario.ts';
import type { WorkerContext } from '../../src/suite/worker.ts';

export { PROBE_CATEGORY_IDS, type CategoryId };

/**
 * Which categoryIds a createPet must take. §2.2 makes categoryId an int64 "Identifier of the
 * category", §1 says each animal "belongs to a category", and §2.5 shows the category resource no
 * further: a server may refuse a categoryId that names no category it knows, with 400 ("values
 * invalid", §4.2). So a NewPet the suite requires a 201 for carries a categoryId the target is known
 * to accept; any other int64 may be refused with 400, and if it is taken it is judged as before.
 */

/** Where the known categoryIds came from, which a failure names. */
export type CategorySource = 'setting' | 'listing' | 'probe';

/** blockedBy: the target refused every categoryId tried, so what needed a 201 goes unjudged through its doing. */
export type KnownCategories = { ids: CategoryId[]; source: CategorySource } | { ids: []; reason: string; blockedBy?: BlockedBy };

/** At most this many categoryIds of the listing are tried, before PROBE_CATEGORY_IDS. */
const MAX_LEARNED = 4;

/** Whether a categoryId is one of the known ones (compared exactly, number or bigint). */
export function isKnownCategory(known: KnownCategories, categoryId: unknown): boolean {
  return known.ids.some((id) => sameInteger(id, categoryId));
}

/** Why a NewPet may be refused for a categoryId not known to name a category (400, §4.2). */
function unknownCategory(categoryId: unknown): Refusable {
  return { why: `categoryId ${stringifyJson(categoryId)} is not known to name a category, §2.5`, tooLong: false };
}

/** Why a NewPet may be refused for its categoryId, or undefined when it is a known one. */
export function categoryEdge(known: KnownCategories, categoryId: unknown): Refusable | undefined {
  return isKnownCategory(known, categoryId) ? undefined : unknownCategory(categoryId);
}

/** The known categoryIds in turn, for the index-th NewPet that must get 201. */
export function categoryAt(ids: readonly CategoryId[], index: number): CategoryId {
  const categoryId = ids[index % ids.length];
  if (categoryId === undefined) throw new Error('a NewPet every server must take needs a categoryId the target accepts');
  return categoryId;
}

/** Why the suite takes a known categoryId to be accepted, for a failure's Expected line. */
export function categoryBasis(known: KnownCategories, categoryId: unknown): string | undefined {
  if (!('source' in known) || !isKnownCategory(known, categoryId)) return undefined;
  const id = stringifyJson(categoryId);
  switch (known.source) {
    case 'setting':
      return `categoryId ${id} is one --category-ids names`;
    case 'listing':
      return `categoryId ${id} is that of an animal the listing shows, and was taken (201) when the suite tried it`;
    case 'probe':
      return `categoryId ${id} was taken (201) when the suite tried it`;
  }
}

/** A refusal for either reason: the Expected line names both, and 413 stays allowed for a long name. */
export function eitherRefusable(a: Refusable | undefined, b: Refusable | undefined): Refusable | undefined {
  if (!a || !b) return a ?? b;
  return { why: `${a.why}; ${b.why}`, tooLong: a.tooLong || b.tooLong };
}

const KNOWN = new WeakMap<WorkerContext, Promise<KnownCategories>>();

/**
 * The categoryIds this target is known to accept, worked out once per worker: --category-ids when
 * given; else those of the animals the listing shows; else, where writes are allowed, the first of
 * PROBE_CATEGORY_IDS it takes. The requests are judged in the scenario that first asks.
 */
export function knownCategories(s: Scenario): Promise<KnownCategories> {
  let known = KNOWN.get(s.ctx);
  if (!known) {
    known = learn(s);
    KNOWN.set(s.ctx, known);
  }
  return known;
}

async function learn(s: Scenario): Promise<KnownCategories> {
  if (s.config.categoryIds.length) return { ids: s.config.categoryIds.map(exactInteger), source: 'setting' };
  const listing = await s.send('listPets', { query: `limit=${limitBounds(s.contract).max}` });
  s.verify(listing, { 'list.200-pets': {} });
  const body = listing.response?.status === 200 ? jsonBody(listing) : undefined;
  const listed: CategoryId[] = [];
  for (const pet of body?.ok && Array.isArray(body.value) ? body.value : []) {
    const id = pet && typeof pet === 'object' && !Array.isArray(pet) ? pet.categoryId : undefined;
    if (isInt64(id) && !listed.some((seen) => sameInteger(seen, id))) listed.push(id);
    if (listed.length >= MAX_LEARNED) break;
  }
  const unknown = `no categoryId is known to be accepted: --category-ids is not given and ${s.leftOut(listing) ?? 'the listing shows no animal'}`;
  // Without writes nothing is created, so nothing rests on the listed ones being taken.
  if (s.writeBlocked('createPet')) return listed.length ? { ids: listed, source: 'listing' } : { ids: [], reason: unknown };
  // A listed categoryId may be one the target takes no more (the suite's own earlier random ones among them): each is tried first.
  const candidates = [...listed, ...PROBE_CATEGORY_IDS.filter((id) => !listed.some((seen) => sameInteger(seen, id)))];
  const tried: string[] = [];
  const answers: string[] = [];
  let refusedAll = true;
  for (const categoryId of candidates) {
    const input = { name: 'Probe', categoryId };
    const exchange = await s.send('createPet', { body: stringifyJson(input) });
    tried.push(String(categoryId));
    answers.push(String(exchange.response?.status ?? exchange.failure?.kind));
    // A 400 is what a server that knows no such category may answer: it shows nothing about create.201-pet.
    const judgements: Judgements = exchange.response?.status === 400 ? {} : { 'create.201-pet': { refusable: unknownCategory(categoryId) } };
    Object.assign(judgements, { 'create.category-constraints': { categoryId }, 'create.echo': { input } });
    s.verify(exchange, judgements);
    if (exchange.response?.status === 201) return { ids: [categoryId], source: listed.includes(categoryId) ? 'listing' : 'probe' };
    if (exchange.response?.status !== 400) refusedAll = false;
    // No answer: a real timeout is failed already, one not sent is evidence of nothing; either way the
    // checks that need a 201 cannot be judged, for the target's doing, and the next candidates would only wait.
    if (exchange.failure) return { ids: [], reason: `POST /v1/pets gave the categoryId probe no answer (${exchange.failure.kind}: ${exchange.failure.message})`, blockedBy: 'no-answer' };
  }
  const start = listed.length ? 'no categoryId is known to be accepted: --category-ids is not given' : unknown;
  if (refusedAll) return { ids: [], reason: `${start}, and POST /v1/pets took none of categoryId ${tried.join(', ')}: name one the target accepts with --category-ids`, blockedBy: 'unknown-category' };
  // Not all 400s: the target answered something other than a creation or a refusal, which a categoryId setting would not mend.
  return { ids: [], reason: `${start}, and POST /v1/pets answered none of categoryId ${tried.join(', ')} with a 201 (${answers.join(', ')}): see create.201-pet` };
}
