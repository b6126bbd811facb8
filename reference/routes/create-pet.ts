// POST /v1/pets (createPet)

import type { ServerResponse } from 'node:http';
import { authenticate } from '../auth.ts';
import type { Ctx, Handler } from '../context.ts';
import { isJsonContentType, readBodyOrReply, sendError, sendJson, sentHeldRejection } from '../http.ts';
import { field, int64OfDecimal, int64OfLiteral, isJsonNumber, isJsonObject, parseJsonBody, INT64_MAX, type ParsedJson } from '../json.ts';
import { PET_STATUSES, petJson, type StoredPet } from '../store.ts';

const NEW_PET_FIELDS = new Set(['name', 'categoryId', 'status']);

type NewPet = { name: string; categoryId: bigint; status: string | undefined };
type Validated = { ok: true; pet: NewPet } | { ok: false; message: string };

function validateName(value: ParsedJson | undefined, ctx: Ctx): { ok: true; name: string } | { ok: false; message: string } {
  if (value === undefined) {
    return ctx.dev.has('fault-create-accepts-missing-name') ? { ok: true, name: '' } : { ok: false, message: 'name is required' };
  }
  if (value === null) {
    return ctx.dev.has('fault-create-accepts-null-name') ? { ok: true, name: '' } : { ok: false, message: 'name must be a string, got null' };
  }
  if (typeof value !== 'string') return { ok: false, message: 'name must be a string' };
  if (ctx.dev.has('fault-create-name-max-10') && [...value].length > 10) return { ok: false, message: 'name must be at most 10 characters' };
  if (ctx.dev.has('allowed-names-ascii-only') && !(/^[A-Za-z]+(?: [A-Za-z]+)*$/.test(value) && value.length >= 3 && value.length <= 12)) {
    return { ok: false, message: 'name must be 3 to 12 ASCII letters, words one space apart' };
  }
  if (ctx.dev.has('allowed-name-max-255') && (value === '' || [...value].length > 255 || value.includes('\u0000'))) {
    return { ok: false, message: 'name must be 1 to 255 characters, without NUL' };
  }
  return { ok: true, name: value };
}

function validateCategoryId(value: ParsedJson | undefined, ctx: Ctx): { ok: true; categoryId: bigint } | { ok: false; message: string } {
  if (value === undefined) {
    return ctx.dev.has('fault-create-accepts-missing-category') ? { ok: true, categoryId: 0n } : { ok: false, message: 'categoryId is required' };
  }
  const coerced = typeof value === 'string' && ctx.dev.has('fault-create-coerces-numeric-string') ? int64OfDecimal(value) : undefined;
  if (coerced !== undefined) return { ok: true, categoryId: coerced };
  if (!isJsonNumber(value)) return { ok: false, message: 'categoryId must be an integer (int64)' };
  const literal = int64OfLiteral(value.value);
  switch (literal.kind) {
    case 'int':
      return { ok: true, categoryId: literal.value };
    case 'fraction':
      if (ctx.dev.has('fault-create-accepts-fractional-category')) return { ok: true, categoryId: literal.truncated };
      return { ok: false, message: `categoryId must be an integer, got ${value.value}` };
    case 'out-of-range':
      if (ctx.dev.has('fault-create-accepts-out-of-range-category')) return { ok: true, categoryId: literal.clamped };
      return { ok: false, message: `categoryId must be within int64, got ${value.value}` };
  }
}

/** allowed-default-status-random: one of the PetStatus values, or none. */
function randomStatus(): string | undefined {
  return [...PET_STATUSES, undefined][Math.floor(Math.random() * (PET_STATUSES.length + 1))];
}

function validateStatus(value: ParsedJson | undefined, ctx: Ctx): { ok: true; status: string | undefined } | { ok: false; message: string } {
  const omitted = value === undefined || (value === null && ctx.dev.has('fault-create-null-status-as-omitted'));
  if (omitted) return { ok: true, status: ctx.dev.has('allowed-default-status-available') ? 'available' : ctx.dev.has('allowed-default-status-random') ? randomStatus() : undefined };
  if (typeof value !== 'string') return { ok: false, message: `status must be one of ${PET_STATUSES.join(', ')}` };
  if (!PET_STATUSES.includes(value) && !ctx.dev.has('fault-create-accepts-bad-status')) {
    return { ok: false, message: `status must be one of ${PET_STATUSES.join(', ')}, got ${JSON.stringify(value)}` };
  }
  return { ok: true, status: value };
}

function validateNewPet(body: ParsedJson, ctx: Ctx): Validated {
  if (!isJsonObject(body)) return { ok: false, message: 'request body must be a JSON object (NewPet)' };
  if (ctx.dev.has('allowed-refuses-client-id') && field(body, 'id') !== undefined) {
    return { ok: false, message: 'id is assigned by the service and must not be sent' };
  }
  if (ctx.dev.has('allowed-rejects-unknown-fields')) {
    const unknown = Object.keys(body).filter((k) => !NEW_PET_FIELDS.has(k));
    if (unknown.length > 0) return { ok: false, message: `unknown fields: ${unknown.join(', ')}` };
  }
  const name = validateName(field(body, 'name'), ctx);
  const categoryId = validateCategoryId(field(body, 'categoryId'), ctx);
  const status = validateStatus(field(body, 'status'), ctx);
  const problems = [name, categoryId, status].flatMap((r) => (r.ok ? [] : [r.message]));
  if (!name.ok || !categoryId.ok || !status.ok) return { ok: false, message: problems.join('; ') };
  return { ok: true, pet: { name: name.name, categoryId: categoryId.categoryId, status: status.status } };
}

/** categoryId squeezed through a double (fault-create-rounds-category), kept inside int64. */
function throughDouble(v: bigint): bigint {
  const rounded = BigInt(Number(v));
  return rounded > INT64_MAX ? 2n ** 63n - 1024n : rounded;
}

/** The categories allowed-category-must-exist (and its 422 fault) know of. */
const FIRST_CATEGORY = 1n;
const LAST_CATEGORY = 1000n;

/** Refuses a categoryId that names no category, where a deviation makes categories exist; returns whether it answered. */
function refusedUnknownCategory(res: ServerResponse, ctx: Ctx, categoryId: bigint): boolean {
  const status = ctx.dev.has('fault-create-unknown-category-422') ? 422 : ctx.dev.has('allowed-category-must-exist') ? 400 : undefined;
  if (status === undefined || (categoryId >= FIRST_CATEGORY && categoryId <= LAST_CATEGORY)) return false;
  sendError(res, ctx, status, 'unknown_category', `no category ${categoryId} (categories are ${FIRST_CATEGORY} to ${LAST_CATEGORY})`);
  return true;
}

/**
 * An integer id the NewPet carries, where a deviation takes it (§2.2: the service assigns it):
 * fault-upsert-client-id always, fault-client-id-honoured only when no pet has it.
 */
function clientId(body: ParsedJson, ctx: Ctx): bigint | undefined {
  if (!ctx.dev.has('fault-upsert-client-id') && !ctx.dev.has('fault-client-id-honoured')) return undefined;
  const value = isJsonObject(body) ? field(body, 'id') : undefined;
  if (!isJsonNumber(value)) return undefined;
  const literal = int64OfLiteral(value.value);
  if (literal.kind !== 'int') return undefined;
  if (!ctx.dev.has('fault-upsert-client-id') && ctx.store.get(literal.value) !== undefined) return undefined;
  return literal.value;
}

function allocateId(ctx: Ctx): bigint {
  ctx.store.createdCount += 1;
  const previous = ctx.store.previousId;
  if (ctx.dev.has('fault-create-duplicate-ids') && ctx.store.createdCount % 3 === 0 && previous !== undefined) return previous;
  return ctx.store.allocateId();
}

function locationId(ctx: Ctx, id: bigint): bigint {
  if (!ctx.dev.has('fault-create-location-wrong')) return id;
  return ctx.store.all().find((p) => p.id !== id)?.id ?? id - 1n;
}

/** The name as stored: trimmed (a fault), lone surrogates as U+FFFD (as Go decodes them), or in NFC. */
function storedName(name: string, ctx: Ctx): string {
  if (ctx.dev.has('fault-create-trims-name')) return name.trim();
  if (ctx.dev.has('allowed-go-style-strings')) return name.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  if (ctx.dev.has('allowed-nfc-normalized')) return name.normalize('NFC');
  return name;
}

function respondCreated(res: ServerResponse, ctx: Ctx, pet: StoredPet): void {
  const body = petJson(pet, { withCreatedAt: ctx.dev.has('allowed-extra-pet-fields') });
  if (ctx.dev.has('fault-create-id-missing')) body['id'] = undefined;
  if (ctx.dev.has('fault-create-id-string')) body['id'] = pet.id.toString();
  const headers = ctx.dev.has('allowed-no-location') ? {} : { Location: `/v1/pets/${locationId(ctx, pet.id)}` };
  sendJson(res, ctx, ctx.dev.has('fault-create-200') ? 200 : 201, body, headers);
}

export const createPet: Handler = async (req, res, ctx) => {
  if (!authenticate(req, res, ctx, 'create-pet')) return;
  if (!isJsonContentType(req, ctx.dev.has('fault-create-rejects-json-charset')) && !ctx.dev.has('allowed-create-ignores-content-type')) {
    const message = `Content-Type must be application/json, got ${JSON.stringify(req.headers['content-type'] ?? '(none)')}`;
    if (ctx.dev.has('allowed-415-content-type')) sendError(res, ctx, 415, 'unsupported_media_type', message);
    else sendError(res, ctx, 400, 'invalid_content_type', message);
    ctx.memory.createWasRefused();
    return;
  }
  const raw = await readBodyOrReply(req, res, ctx);
  if (raw === undefined) return;
  if (raw.length === 0) {
    ctx.memory.createWasRefused();
    sendError(res, ctx, 400, 'invalid_body', 'request body is required (NewPet)');
    return;
  }
  const parsed = parseJsonBody(raw);
  if (!parsed.ok) {
    if (ctx.dev.has('fault-create-hangs-on-malformed-json')) return;
    if (ctx.dev.has('fault-create-500-on-malformed-json')) sendError(res, ctx, 500, 'internal_error', 'unexpected token');
    else sendError(res, ctx, 400, 'invalid_json', parsed.reason);
    ctx.memory.createWasRefused();
    return;
  }
  const valid = validateNewPet(parsed.value, ctx);
  if (!valid.ok) {
    ctx.memory.createWasRefused();
    sendError(res, ctx, 400, 'invalid_pet', valid.message);
    return;
  }
  const input = valid.pet;
  if (refusedUnknownCategory(res, ctx, input.categoryId)) return;
  // fault-auth-after-validation: a valid NewPet without a valid key gets its 401 here, before anything is stored.
  if (sentHeldRejection(res)) return;
  const pet: StoredPet = {
    id: clientId(parsed.value, ctx) ?? allocateId(ctx),
    name: storedName(input.name, ctx),
    categoryId: ctx.dev.has('fault-create-rounds-category') ? throughDouble(input.categoryId) : input.categoryId,
    status: ctx.dev.has('fault-create-drops-status') ? undefined : input.status,
    createdAt: new Date().toISOString(),
  };
  if (!ctx.dev.has('fault-create-not-persisted') && ctx.memory.keepsCreate(pet.id)) ctx.store.put(pet);
  respondCreated(res, ctx, pet);
};
