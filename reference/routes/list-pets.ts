// GET /v1/pets (listPets)

import { authenticate } from '../auth.ts';
import type { Ctx, Handler } from '../context.ts';
import { sendError, sendCoded, jsonContentType } from '../http.ts';
import { stringify, type JsonOut } from '../json.ts';
import { PET_STATUSES, petJson, type StoredPet } from '../store.ts';

const MIN_LIMIT = 1n;
const MAX_LIMIT = 100n;
const INT32_MAX = 2n ** 31n - 1n;
/** allowed-listing-lag: how long a created animal stays out of listings. */
const LISTING_LAG_MS = 300;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function defaultLimit(ctx: Ctx): number {
  return ctx.memory.stickyLimit ?? (ctx.dev.has('fault-limit-default-21') ? 21 : 20);
}

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
  const clamped = ctx.dev.has('allowed-limit-clamped');
  if (values.length === 0) return { ok: true, value: defaultLimit(ctx) };
  if (values.length > 1 && ctx.dev.has('fault-limit-repeated-500')) throw new TypeError('limit.trim is not a function');
  const text = values.length === 1 ? values[0] ?? '' : undefined;
  if (text === undefined || !/^-?\d+$/.test(text)) {
    if (clamped) return { ok: true, value: defaultLimit(ctx) };
    return { ok: false, message: text === undefined ? 'limit must be given at most once' : `limit must be an integer, got ${JSON.stringify(text)}` };
  }
  const n = BigInt(text);
  if (n > INT32_MAX && ctx.dev.has('fault-limit-overflow-500')) throw new Error(`NumberFormatException: For input string: "${text}"`);
  if (n > MAX_LIMIT && ctx.dev.has('fault-limit-max-101')) return { ok: true, value: 101 };
  if (n === MAX_LIMIT && ctx.dev.has('fault-limit-max-99')) return { ok: false, message: 'limit must be between 1 and 99' };
  if (n === MIN_LIMIT && ctx.dev.has('fault-limit-min-2')) return { ok: false, message: 'limit must be between 2 and 100' };
  // As SQLite reads LIMIT -1, or an API reads 0 as "no limit".
  if (n < MIN_LIMIT && ctx.dev.has('fault-limit-nonpositive-unbounded')) return { ok: true, value: Number.MAX_SAFE_INTEGER };
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
  const source = ctx.dev.has('allowed-list-random-order') ? shuffled(ctx.store.all()) : ctx.dev.has('allowed-list-newest-first') ? ctx.store.all().reverse() : ctx.store.ascending();
  const filtering = status !== undefined && !ctx.dev.has('fault-filter-ignored');
  const effectiveLimit = ctx.dev.has('fault-limit-ignored') ? 20 : ctx.dev.has('allowed-page-cap-10') ? Math.min(limit, PAGE_CAP) : limit;
  const afterPage = ctx.dev.has('fault-filter-after-page');
  let pets: StoredPet[] = [];
  let scanned = 0;
  const lagMs = ctx.dev.has('allowed-filtered-listing-lag') && status !== undefined ? FILTERED_LISTING_LAG_MS : ctx.dev.has('allowed-listing-lag') ? LISTING_LAG_MS : undefined;
  const indexedBefore = lagMs === undefined ? Infinity : Date.now() - lagMs;
  for (const pet of source) {
    if (pets.length >= effectiveLimit || (afterPage && scanned++ >= effectiveLimit)) break;
    if (Date.parse(pet.createdAt) > indexedBefore) continue;
    if (!filtering || pet.status === status) pets.push(pet);
  }
  if (filtering && pets.length >= 10 && ctx.dev.has('fault-filter-leaks-deep')) {
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
  if (ctx.dev.has('fault-seq-sticky-limit')) leaveLimitBehind(ctx, url);
  if (!authenticate(req, res, ctx, 'list-pets')) return;
  const limit = parseLimit(url.searchParams.getAll('limit'), ctx);
  ctx.memory.stickyLimit = undefined;
  const status = parseStatus(url.searchParams.getAll('status'));
  if (!limit.ok || !status.ok) {
    const messages = [limit, status].flatMap((p) => (p.ok ? [] : [p.message]));
    sendError(res, ctx, ctx.dev.has('allowed-422-invalid-query') ? 422 : 400, 'invalid_query', messages.join('; '));
    return;
  }
  const withCreatedAt = ctx.dev.has('allowed-extra-pet-fields');
  // A handler that applies the default only on its unfiltered path.
  const unbounded = ctx.dev.has('fault-status-filter-no-default-limit') && status.value !== undefined && !url.searchParams.has('limit');
  const items: JsonOut[] = select(ctx, status.value, unbounded ? Number.MAX_SAFE_INTEGER : limit.value).map((pet, index, all) => {
    const json = petJson(pet, { withCreatedAt });
    if ((index === 8 && all.length >= 10 && ctx.dev.has('fault-list-bad-item-deep')) || ctx.dev.has('fault-list-category-string')) json['categoryId'] = pet.categoryId.toString();
    return json;
  });
  const contentType = ctx.dev.has('fault-list-content-type-text') ? 'text/plain' : jsonContentType(ctx);
  sendCoded(res, ctx, 200, contentType, stringify(items));
};
