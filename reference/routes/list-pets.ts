// GET /v1/pets (listPets)

import { authenticate } from '../auth.ts';
import type { Ctx, Handler } from '../context.ts';
import { allowed, fault, switches, type Deviation } from '../deviation.ts';
import { sendError, sendCoded, jsonContentType } from '../http.ts';
import { stringify, type JsonOut } from '../json.ts';
import { PET_STATUSES, petJson, type StoredPet } from '../store.ts';

/** The deviations switched in this module (reference/deviations.ts gathers them into the catalogue). */
export const LIST_PETS_DEVIATIONS = [
  fault('fault-limit-default-21', 'list.limit-default', 'Without a limit, up to 21 pets are returned instead of 20.'),
  fault('fault-limit-max-101', 'list.limit-max', 'A numeric limit above 100 is clamped to 101 (200, up to 101 pets) instead of rejected; non-numeric limits still give 400.'),
  fault('fault-limit-max-99', 'list.limit-bounds-accepted', 'limit=100 is rejected with 400.'),
  fault('fault-limit-min-2', 'list.limit-bounds-accepted', 'limit=1 is rejected with 400.'),
  fault('fault-limit-overflow-500', 'errors.no-5xx', 'A limit of digits beyond int32 (2147483648 or more) yields 500 (Error body), as an unguarded Integer.parseInt throws, instead of 400.'),
  fault('fault-status-filter-no-default-limit', 'list.limit-default', 'GET /v1/pets?status=S without limit answers every animal of that status: the default of 20 is applied only when no status is given.'),
  fault('fault-limit-nonpositive-unbounded', 'list.limit-max', 'limit=0 or a negative limit answers every animal (as SQLite reads LIMIT -1), not a 400.'),
  fault('fault-limit-repeated-500', 'errors.no-5xx', 'A limit given twice (limit=1&limit=500) yields 500 (Error body), as a handler that gets the list Express makes of it and calls a string method on it would.'),
  fault('fault-limit-exponent-applied', 'list.limit-max', 'A limit in exponent notation is validated on the digits before the "e" and applied as the number it denotes: limit=1e3 answers up to 1,000 animals.'),
  fault('fault-limit-only-first-param', 'list.limit-respected', 'limit is read by a pattern anchored at the start of the query (/^limit=(\\d+)/): ?limit=2&status=sold gets 2 animals, ?status=sold&limit=2 gets the default 20.'),
  fault('fault-limit-ignored', 'list.limit-respected', 'A valid limit is validated but ignored: up to 20 pets are returned whatever it says.'),
  fault('fault-filter-ignored', 'list.status-filter', 'A valid status filter is validated but ignored.'),
  fault('fault-filter-ignored-stamped', 'list.status-filter', 'A valid status filter is validated but ignored, and every animal of the page is shown with the filter\'s status (a serializer stamping the query\'s value): only GET /v1/pets/{petId} of a listed animal, or the unfiltered listing, shows its own.'),
  fault('fault-filter-ignored-unshown', 'list.status-filter', 'Listings show no status (as allowed-list-without-status) and a valid status filter is validated but ignored: only GET /v1/pets/{petId} of a listed animal shows it of another status.'),
  fault('fault-filter-leaks-deep', 'list.status-filter', 'A filtered listing of 10+ items has ONE pet of another status inserted at index 8.'),
  fault('fault-filter-after-page', 'list.full-page', 'A status filter is applied to the first limit animals of the unfiltered order, not to the store (fewer shown than exist).'),
  fault('fault-list-bad-item-deep', 'list.200-pets', 'In listings of 10+ items, the item at index 8 carries categoryId as a JSON string.'),
  fault('fault-list-id-shift', 'get.200-pet', 'Listings show every animal past the 20th (by id) under its id plus 1,000,000, an id no animal has: GET /v1/pets/{petId} of it answers 404.'),
  fault('fault-list-truncates-names', 'list.shows-created', 'Listings cut names longer than 8 characters to their first 8, as a list view over a narrower column would; the 201 and GET /v1/pets/{petId} show them whole.'),
  fault('fault-list-rounds-category-ids', 'list.shows-created', 'Listings write categoryId through a double, so one beyond 2^53 comes out rounded; the 201 and GET /v1/pets/{petId} show it exact.'),
  fault('fault-list-category-string', 'list.200-pets', 'Every listed animal carries categoryId as a JSON string ("7"), as a serialiser that writes int64 as strings for JavaScript clients would; the limit and the status filter are applied as usual.'),
  fault('fault-listing-past-bound', 'list.limit-respected', 'A listing with a limit of 3 or less repeats its page until it holds 10,001 animals, one more than the suite parses in an array (its own bound): such a listing is judged on its outermost shape and its count of items, which the limit does not allow.'),
  fault('fault-list-invalid-query-envelope', 'list.200-pets', 'An invalid limit or status is answered 200 {"items":[],"error":"<why>"}, as an error handler that always answers 200 with an envelope does; valid queries get their listing.'),
  fault('fault-list-content-type-text', 'json.content-type', 'Successful GET /v1/pets responses carry Content-Type: text/plain (body unchanged).'),
  allowed('allowed-limit-clamped', 'An out-of-range limit is clamped into 1..100; an unparsable, empty or repeated limit falls back to 20; 200 either way.'),
  allowed('allowed-extra-pet-fields', 'Pet bodies also carry createdAt (ISO 8601).'),
  allowed('allowed-list-newest-first', 'Listings are in descending id order (newest first).'),
  allowed('allowed-422-invalid-query', 'GET /v1/pets refuses an invalid limit or status with 422 (Error body) instead of 400; §4.1 lists no status for it.'),
  allowed('allowed-listing-lag', 'GET /v1/pets leaves out animals created less than 300 ms before, as a listing served from a search index refreshed behind the primary would (the spec promises no read-your-writes timing).'),
  fault('fault-seq-sticky-limit', 'list.limit-default', 'A listing refused 401 leaves its limit behind as the default of the next listing (the handler parses limit into a shared defaults object before the key is checked, and only a listing it serves puts the default back).'),
  allowed('allowed-filtered-listing-lag', 'GET /v1/pets?status=… leaves out animals created less than 500 ms before (a filtered listing served from an index refreshed behind the primary); unfiltered listings do not lag.'),
  allowed('allowed-page-cap-10', 'A page holds at most 10 animals whatever limit says (limit is a maximum and the pagination mechanism is not shown, §4.1).', ['list.full-page']),
  allowed('allowed-list-without-status', 'Listings show each animal as id, name and categoryId only, never its status, though the filter by status is applied (§2.1: status is not required of a Pet as returned).'),
  allowed('allowed-list-random-order', 'A listing takes its page from the store in a random order each time (the order of a listing is not stated).'),
] as const satisfies readonly Deviation[];

const on = switches(LIST_PETS_DEVIATIONS);

const MIN_LIMIT = 1n;
const MAX_LIMIT = 100n;
const INT32_MAX = 2n ** 31n - 1n;
/** allowed-listing-lag: how long a created animal stays out of listings. */
const LISTING_LAG_MS = 300;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function defaultLimit(ctx: Ctx): number {
  return ctx.memory.stickyLimit ?? (on(ctx, 'fault-limit-default-21') ? 21 : 20);
}

/** fault-listing-past-bound: one more element than the suite parses in an array (JSON_BOUNDS.maxElements). */
const PAST_ELEMENT_BOUND = 10_001;

/** allowed-page-cap-10: the most a page holds, whatever limit says (a page cap below the maximum). */
const PAGE_CAP = 10;
/** allowed-filtered-listing-lag: how long a created animal stays out of listings filtered by status. */
const FILTERED_LISTING_LAG_MS = 500;

/** allowed-list-random-order: the store in an order of its own each time. */
function shuffled(pets: StoredPet[]): StoredPet[] {
  for (let i = pets.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pets[i], pets[j]] = [pets[j]!, pets[i]!];
  }
  return pets;
}

/** `limit`: one value, decimal digits (optional '-'), 1..100; absent gives the default. */
function parseLimit(values: string[], ctx: Ctx): Parsed<number> {
  const clamped = on(ctx, 'allowed-limit-clamped');
  if (values.length === 0) return { ok: true, value: defaultLimit(ctx) };
  if (values.length > 1 && on(ctx, 'fault-limit-repeated-500')) throw new TypeError('limit.trim is not a function');
  const text = values.length === 1 ? values[0] ?? '' : undefined;
  const exponent = text === undefined ? null : /^(\d+)e(\d+)$/i.exec(text);
  if (exponent && on(ctx, 'fault-limit-exponent-applied') && BigInt(exponent[1]!) >= MIN_LIMIT && BigInt(exponent[1]!) <= MAX_LIMIT) return { ok: true, value: Number(text) };
  if (text === undefined || !/^-?\d+$/.test(text)) {
    if (clamped) return { ok: true, value: defaultLimit(ctx) };
    return { ok: false, message: text === undefined ? 'limit must be given at most once' : `limit must be an integer, got ${JSON.stringify(text)}` };
  }
  const n = BigInt(text);
  if (n > INT32_MAX && on(ctx, 'fault-limit-overflow-500')) throw new Error(`NumberFormatException: For input string: "${text}"`);
  if (n > MAX_LIMIT && on(ctx, 'fault-limit-max-101')) return { ok: true, value: 101 };
  if (n === MAX_LIMIT && on(ctx, 'fault-limit-max-99')) return { ok: false, message: 'limit must be between 1 and 99' };
  if (n === MIN_LIMIT && on(ctx, 'fault-limit-min-2')) return { ok: false, message: 'limit must be between 2 and 100' };
  // As SQLite reads LIMIT -1, or an API reads 0 as "no limit".
  if (n < MIN_LIMIT && on(ctx, 'fault-limit-nonpositive-unbounded')) return { ok: true, value: Number.MAX_SAFE_INTEGER };
  if (n < MIN_LIMIT || n > MAX_LIMIT) {
    if (clamped) return { ok: true, value: Number(n < MIN_LIMIT ? MIN_LIMIT : MAX_LIMIT) };
    return { ok: false, message: `limit must be between ${MIN_LIMIT} and ${MAX_LIMIT}, got ${text}` };
  }
  return { ok: true, value: Number(n) };
}

/** `status`: one value, exactly one of the PetStatus values (case-sensitive). */
function parseStatus(values: string[]): Parsed<string | undefined> {
  if (values.length === 0) return { ok: true, value: undefined };
  const text = values.length === 1 ? values[0] : undefined;
  if (text === undefined) return { ok: false, message: 'status must be given at most once' };
  if (!PET_STATUSES.includes(text)) return { ok: false, message: `status must be one of ${PET_STATUSES.join(', ')}, got ${JSON.stringify(text)}` };
  return { ok: true, value: text };
}

function select(ctx: Ctx, status: string | undefined, limit: number): StoredPet[] {
  const source = on(ctx, 'allowed-list-random-order') ? shuffled(ctx.store.all()) : on(ctx, 'allowed-list-newest-first') ? ctx.store.all().reverse() : ctx.store.ascending();
  const filtering = status !== undefined && !on(ctx, 'fault-filter-ignored') && !on(ctx, 'fault-filter-ignored-unshown') && !on(ctx, 'fault-filter-ignored-stamped');
  const effectiveLimit = on(ctx, 'fault-limit-ignored') ? 20 : on(ctx, 'allowed-page-cap-10') ? Math.min(limit, PAGE_CAP) : limit;
  const afterPage = on(ctx, 'fault-filter-after-page');
  let pets: StoredPet[] = [];
  let scanned = 0;
  const lagMs = on(ctx, 'allowed-filtered-listing-lag') && status !== undefined ? FILTERED_LISTING_LAG_MS : on(ctx, 'allowed-listing-lag') ? LISTING_LAG_MS : undefined;
  const indexedBefore = lagMs === undefined ? Infinity : Date.now() - lagMs;
  for (const pet of source) {
    if (pets.length >= effectiveLimit || (afterPage && scanned++ >= effectiveLimit)) break;
    if (Date.parse(pet.createdAt) > indexedBefore) continue;
    if (!filtering || pet.status === status) pets.push(pet);
  }
  if (filtering && pets.length >= 10 && on(ctx, 'fault-filter-leaks-deep')) {
    const intruder = ctx.store.all().find((p) => p.status !== status);
    if (intruder) pets.splice(8, 0, intruder);
    pets = pets.slice(0, effectiveLimit);
  }
  return pets;
}

/**
 * fault-seq-sticky-limit: the handler parses limit into a shared defaults object before the key is
 * checked, and only a listing it serves puts the default back: a listing refused 401 leaves its
 * limit as the default of the next one.
 */
function leaveLimitBehind(ctx: Ctx, url: URL): void {
  const text = url.searchParams.get('limit');
  const n = text !== null && /^\d{1,3}$/.test(text) ? BigInt(text) : undefined;
  if (n !== undefined && n >= MIN_LIMIT && n <= MAX_LIMIT) ctx.memory.stickyLimit = Number(n);
}

export const listPets: Handler = async (req, res, ctx, url) => {
  if (on(ctx, 'fault-seq-sticky-limit')) leaveLimitBehind(ctx, url);
  if (!authenticate(req, res, ctx, 'list-pets')) return;
  const limit = parseLimit(on(ctx, 'fault-limit-only-first-param') && !url.search.startsWith('?limit=') ? [] : url.searchParams.getAll('limit'), ctx);
  ctx.memory.stickyLimit = undefined;
  const status = parseStatus(url.searchParams.getAll('status'));
  if (!limit.ok || !status.ok) {
    const messages = [limit, status].flatMap((p) => (p.ok ? [] : [p.message]));
    if (on(ctx, 'fault-list-invalid-query-envelope')) sendCoded(res, ctx, 200, jsonContentType(ctx), stringify({ items: [], error: messages.join('; ') }));
    else sendError(res, ctx, on(ctx, 'allowed-422-invalid-query') ? 422 : 400, 'invalid_query', messages.join('; '));
    return;
  }
  const withCreatedAt = on(ctx, 'allowed-extra-pet-fields');
  // A handler that applies the default only on its unfiltered path.
  const unbounded = on(ctx, 'fault-status-filter-no-default-limit') && status.value !== undefined && !url.searchParams.has('limit');
  const items: JsonOut[] = select(ctx, status.value, unbounded ? Number.MAX_SAFE_INTEGER : limit.value).map((pet, index, all) => {
    const json = petJson(pet, { withCreatedAt });
    if ((index === 8 && all.length >= 10 && on(ctx, 'fault-list-bad-item-deep')) || on(ctx, 'fault-list-category-string')) json['categoryId'] = pet.categoryId.toString();
    if (on(ctx, 'fault-list-truncates-names')) json['name'] = pet.name.slice(0, 8);
    if (on(ctx, 'allowed-list-without-status') || on(ctx, 'fault-filter-ignored-unshown')) delete json['status'];
    if (on(ctx, 'fault-filter-ignored-stamped') && status.value !== undefined) json['status'] = status.value;
    if (on(ctx, 'fault-list-id-shift') && pet.id > 20n) json['id'] = pet.id + 1_000_000n;
    if (on(ctx, 'fault-list-rounds-category-ids')) json['categoryId'] = BigInt(Number(pet.categoryId));
    return json;
  });
  if (on(ctx, 'fault-listing-past-bound') && limit.value <= 3 && items.length > 0) {
    const page = items.slice();
    while (items.length < PAST_ELEMENT_BOUND) items.push(page[items.length % page.length]!);
  }
  const contentType = on(ctx, 'fault-list-content-type-text') ? 'text/plain' : jsonContentType(ctx);
  sendCoded(res, ctx, 200, contentType, stringify(items));
};
