// POST /v1/pets (createPet)

import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from '../auth.ts';
import type { Ctx, Handler } from '../context.ts';
import { allowed, fault, SHORT_TIMEOUT, switches, type Deviation } from '../deviation.ts';
import { isJsonContentType, readBody, readBodyOrReply, sendError, sendJson, sendRaw, sentHeldRejection } from '../http.ts';
import { field, int64OfDecimal, int64OfLiteral, isJsonNumber, isJsonObject, parseJsonBody, INT64_MAX, type ParsedJson } from '../json.ts';
import { nextStatus, PET_STATUSES, petJson, type StoredPet } from '../store.ts';
import { LIST_PETS_DEVIATIONS } from './list-pets.ts';

/** The deviations switched in this module (reference/deviations.ts gathers them into the catalogue). */
export const CREATE_PET_DEVIATIONS = [
  allowed('allowed-status-moved-on-create', 'A workflow moves every animal to the next status once it is created (available, pending, sold, available): the 201 shows the status sent, every later read the next one (§3: "Transitions: not shown").'),
  fault('fault-auth-refused-create-stored', 'auth.required', 'A POST /v1/pets refused with 401 stores its NewPet all the same (the write queued before the authentication check answered): the 401 is right, the animal is listed and fetched by its id.'),
  fault('fault-create-200', 'create.201-pet', 'A successful POST /v1/pets answers 200 instead of 201.'),
  fault('fault-create-503-every-5th', 'errors.no-5xx', 'Every 5th authenticated POST /v1/pets is answered 503 with an HTML page and no Retry-After, whatever the load, as a backend failing a fifth of its writes: sent again, the next succeeds, and slowed down, the share refused stays the same.'),
  fault('fault-create-503-every-10th', 'errors.no-5xx', 'Every 10th authenticated POST /v1/pets is answered 503 with an HTML page and no Retry-After, whatever the load, while every other operation answers: fewer refusals than the host-wide share a limit on the rate shows, and each cured by sending it again.'),
  fault('fault-create-unknown-fields-empty-201', 'create.201-pet', 'A NewPet with a field the schema does not list is stored, but answered 201 {} (as a handler that writes the extra fields elsewhere and answers what that write returned).'),
  fault('fault-create-case-insensitive-fields', 'create.invalid-400', 'NewPet member names are matched ignoring case, as Go\'s encoding/json binds them by default: {"Name":"Rex","CategoryId":1} is created as if it held name and categoryId.'),
  fault('fault-create-unwraps-body', 'create.invalid-400', 'A body that is an array is taken as its first item, and one whose only member is "pet" or "data" as what that member holds (a handler taking the first of a batch, Rails\' params.require(:pet)): [{"name":"Rex","categoryId":1}] and {"pet":{…}} get 201.'),
  fault('fault-create-snake-case-fields', 'create.invalid-400', 'A NewPet member missing under its own name is read under its snake_case one, as a binder mapping both does: {"name":"Rex","category_id":1} gets 201.'),
  fault('fault-create-id-missing', 'create.201-pet', 'The created Pet body has no id.'),
  fault('fault-create-id-string', 'create.201-pet', 'The created Pet body carries id as a JSON string.'),
  fault('fault-create-lenient-utf8', 'create.not-utf8', 'A POST /v1/pets body is decoded leniently: bytes that are not UTF-8 become U+FFFD (Go\'s encoding/json, Express\'s body-parser) and the animal is created.'),
  fault('fault-create-accepts-missing-name', 'create.invalid-400', 'A NewPet without name is accepted (201, stored with name "").'),
  fault('fault-create-accepts-missing-category', 'create.invalid-400', 'A NewPet without categoryId is accepted (201, stored with categoryId 0).'),
  fault('fault-create-accepts-bad-status', 'create.invalid-400', 'Any string status is accepted and stored as given.'),
  fault('fault-create-accepts-fractional-category', 'create.invalid-400', 'A fractional categoryId (1.5) is accepted and stored truncated toward zero.'),
  fault('fault-create-accepts-out-of-range-category', 'create.invalid-400', 'An integer categoryId outside int64 is accepted and stored clamped into int64.'),
  fault('fault-create-coerces-numeric-string', 'create.invalid-400', 'A categoryId that is a string of decimal digits ("7") is read as the number (201).'),
  fault('fault-create-accepts-null-name', 'create.invalid-400', 'name: null is accepted (201, stored with name "").'),
  fault('fault-create-null-status-as-omitted', 'create.null-optional', '"status": null is taken as if status were omitted (201), as Jackson or Pydantic read an optional null; §2.2 makes status one of the PetStatus values.'),
  fault('fault-create-content-type-case-sensitive', 'create.201-pet', 'POST /v1/pets answers 400 unless the media type of Content-Type is application/json in lower case (Application/JSON is refused), as a byte-for-byte comparison does.'),
  fault('fault-create-rejects-json-charset', 'create.201-pet', 'POST /v1/pets answers 400 unless Content-Type is exactly application/json (a charset parameter is refused).'),
  fault('fault-create-trailing-data-accepted', 'create.invalid-400', 'A POST /v1/pets body is read as its first JSON value and whatever follows it ignored (Go\'s json.Decoder.Decode): {"name":"Rex","categoryId":1} x is taken.'),
  fault('fault-create-lost-for-charset', 'create.location-resolves', 'A valid NewPet sent under a Content-Type other than exactly application/json (a charset parameter, another case) is answered 201 with a Pet and a Location, but nothing is stored: GET of its id answers 404.'),
  fault('fault-create-lost-with-unknown-fields', 'create.location-resolves', 'A valid NewPet that carries a field the schema does not list is answered 201 with a Pet and a Location, but nothing is stored (the write fails on the extra column, the error swallowed): GET of its id answers 404.'),
  fault('fault-create-500-on-apostrophe', 'errors.no-5xx', 'A valid NewPet whose name holds an apostrophe (O\'Brien) yields 500 (Error body): the name is spliced into a hand-built SQL string.'),
  fault('fault-create-500-on-malformed-json', 'errors.no-5xx', 'A POST /v1/pets body that is not valid JSON yields 500 (Error body) instead of 400.'),
  fault('fault-create-name-max-10', 'create.201-pet', 'POST /v1/pets refuses (400 Error) a name longer than 10 characters: "Fluffy Tiger", a core name every server must take, included.'),
  fault('fault-create-trims-name', 'create.echo', 'Leading and trailing whitespace of name is trimmed before storing.'),
  fault('fault-create-resets-sold', 'create.201-pet', 'A valid NewPet with status "sold" closes the connection unanswered (a worker that crashes on it), storing nothing: sent again, it does the same, on a new connection as on a kept-alive one.'),
  fault('fault-create-drops-status', 'create.echo', 'The given status is dropped (not stored, not returned).'),
  fault('fault-create-unknown-category-422', 'create.201-pet', 'A categoryId outside 1..1000 (no such category) is refused with 422 (Error body, code "unknown_category"): §4.2 gives invalid values 400.'),
  fault('fault-create-rounds-category', 'create.echo', 'categoryId passes through a double: values beyond 2^53 come back rounded (kept inside int64).'),
  fault('fault-create-duplicate-ids', 'create.id-unique', 'Every 3rd created pet reuses the id of the previously created one (replacing it in the store).'),
  fault('fault-create-location-wrong', 'create.location-resolves', 'Location points to a different existing pet.'),
  fault('fault-create-not-persisted', 'get.200-pet', 'Created pets are answered 201 but never stored (GET by id gives 404).'),
  fault('fault-upsert-client-id', 'create.ignores-client-id', 'An integer id in the NewPet is taken as the new pet\'s id, overwriting the pet that has it (an ORM upsert by mass assignment).'),
  fault('fault-client-id-honoured', 'create.ignores-client-id', 'An integer id in the NewPet that no pet has is taken as the new pet\'s id; one a pet already has is ignored.'),
  fault('fault-client-id-honoured-below-2-53', 'create.ignores-client-id', 'An integer id in the NewPet that no pet has and that a double holds exactly (below 2^53) is taken as the new pet\'s id, as a handler in JavaScript that checks Number.isSafeInteger does; larger ones, and ones a pet has, are ignored.'),
  fault('fault-create-hangs-on-malformed-json', 'create.invalid-400', 'A POST /v1/pets body that is not valid JSON is read and never answered (the socket held open), as a handler whose parse error escapes its promise chain; every other request is answered.', SHORT_TIMEOUT, 'createPet'),
  allowed('allowed-default-status-available', 'A pet created without status is stored and returned with status "available".'),
  allowed('allowed-refuses-client-id', 'POST /v1/pets refuses a NewPet that carries an id (400 Error: the service assigns it); other unknown fields are ignored.'),
  allowed('allowed-rejects-unknown-fields', 'POST /v1/pets rejects a NewPet with fields other than name, categoryId, status (400 Error).'),
  allowed('allowed-415-content-type', 'POST /v1/pets with a Content-Type other than application/json answers 415 (Error body).'),
  allowed('allowed-name-max-255', 'POST /v1/pets refuses (400 Error) a name that is empty, longer than 255 characters or holds NUL.'),
  allowed('allowed-names-ascii-only', 'POST /v1/pets refuses (400 Error) a name other than 3 to 12 ASCII letters in words one space apart: the strictest name rule the suite takes, as §2.5 shows no length or format for a name.'),
  allowed('allowed-category-must-exist', 'POST /v1/pets refuses a categoryId outside 1..1000 (no such category) with 400 (Error body, code "unknown_category"); categories are not shown beyond the categoryId reference (§2.5).'),
  allowed('allowed-create-ignores-content-type', 'POST /v1/pets parses the body as JSON whatever the Content-Type (including none).'),
  allowed('allowed-no-location', 'POST /v1/pets answers 201 without a Location header.', ['create.location']),
  allowed('allowed-go-style-strings', 'A lone surrogate in a name is stored as U+FFFD, as Go\'s encoding/json decodes it (RFC 8259 §8.2 leaves it open).'),
  allowed('allowed-nfc-normalized', 'Names and message texts are stored and returned in Unicode NFC (U+F900 as U+8C48, e and U+0301 as U+00E9), canonically equivalent to what was sent.'),
  allowed('allowed-default-status-random', 'A pet created without status gets one of the PetStatus values at random, or none (§3: the value assigned when status is omitted is not stated).'),
] as const satisfies readonly Deviation[];

const on = switches(CREATE_PET_DEVIATIONS, LIST_PETS_DEVIATIONS);

const NEW_PET_FIELDS = new Set(['name', 'categoryId', 'status']);

type NewPet = { name: string; categoryId: bigint; status: string | undefined };
type Validated = { ok: true; pet: NewPet } | { ok: false; message: string };

function validateName(value: ParsedJson | undefined, ctx: Ctx): { ok: true; name: string } | { ok: false; message: string } {
  if (value === undefined) {
    return on(ctx, 'fault-create-accepts-missing-name') ? { ok: true, name: '' } : { ok: false, message: 'name is required' };
  }
  if (value === null) {
    return on(ctx, 'fault-create-accepts-null-name') ? { ok: true, name: '' } : { ok: false, message: 'name must be a string, got null' };
  }
  if (typeof value !== 'string') return { ok: false, message: 'name must be a string' };
  if (on(ctx, 'fault-create-name-max-10') && [...value].length > 10) return { ok: false, message: 'name must be at most 10 characters' };
  if (on(ctx, 'allowed-names-ascii-only') && !(/^[A-Za-z]+(?: [A-Za-z]+)*$/.test(value) && value.length >= 3 && value.length <= 12)) {
    return { ok: false, message: 'name must be 3 to 12 ASCII letters, words one space apart' };
  }
  if (on(ctx, 'allowed-name-max-255') && (value === '' || [...value].length > 255 || value.includes('\u0000'))) {
    return { ok: false, message: 'name must be 1 to 255 characters, without NUL' };
  }
  return { ok: true, name: value };
}

function validateCategoryId(value: ParsedJson | undefined, ctx: Ctx): { ok: true; categoryId: bigint } | { ok: false; message: string } {
  if (value === undefined) {
    return on(ctx, 'fault-create-accepts-missing-category') ? { ok: true, categoryId: 0n } : { ok: false, message: 'categoryId is required' };
  }
  const coerced = typeof value === 'string' && on(ctx, 'fault-create-coerces-numeric-string') ? int64OfDecimal(value) : undefined;
  if (coerced !== undefined) return { ok: true, categoryId: coerced };
  if (!isJsonNumber(value)) return { ok: false, message: 'categoryId must be an integer (int64)' };
  const literal = int64OfLiteral(value.value);
  switch (literal.kind) {
    case 'int':
      return { ok: true, categoryId: literal.value };
    case 'fraction':
      if (on(ctx, 'fault-create-accepts-fractional-category')) return { ok: true, categoryId: literal.truncated };
      return { ok: false, message: `categoryId must be an integer, got ${value.value}` };
    case 'out-of-range':
      if (on(ctx, 'fault-create-accepts-out-of-range-category')) return { ok: true, categoryId: literal.clamped };
      return { ok: false, message: `categoryId must be within int64, got ${value.value}` };
  }
}

/** allowed-default-status-random: one of the PetStatus values, or none. */
function randomStatus(): string | undefined {
  return [...PET_STATUSES, undefined][Math.floor(Math.random() * (PET_STATUSES.length + 1))];
}

function validateStatus(value: ParsedJson | undefined, ctx: Ctx): { ok: true; status: string | undefined } | { ok: false; message: string } {
  const omitted = value === undefined || (value === null && on(ctx, 'fault-create-null-status-as-omitted'));
  if (omitted) return { ok: true, status: on(ctx, 'allowed-default-status-available') ? 'available' : on(ctx, 'allowed-default-status-random') ? randomStatus() : undefined };
  if (typeof value !== 'string') return { ok: false, message: `status must be one of ${PET_STATUSES.join(', ')}` };
  if (!PET_STATUSES.includes(value) && !on(ctx, 'fault-create-accepts-bad-status')) {
    return { ok: false, message: `status must be one of ${PET_STATUSES.join(', ')}, got ${JSON.stringify(value)}` };
  }
  return { ok: true, status: value };
}

/** fault-create-unwraps-body: an array's first item, or what a lone "pet" or "data" member holds. */
function unwrapped(body: ParsedJson): ParsedJson {
  if (Array.isArray(body)) return body[0] ?? body;
  if (!isJsonObject(body)) return body;
  const names = Object.keys(body);
  const inner = names.length === 1 && (names[0] === 'pet' || names[0] === 'data') ? field(body, names[0]) : undefined;
  return inner !== undefined && isJsonObject(inner) ? inner : body;
}

/** fault-create-snake-case-fields: the member under `key`, else under its snake_case name. */
function fieldOrSnake(obj: { [key: string]: ParsedJson }, key: string): ParsedJson | undefined {
  return field(obj, key) ?? field(obj, key.replace(/[A-Z]/g, (capital) => `_${capital.toLowerCase()}`));
}

function validateNewPet(given: ParsedJson, ctx: Ctx): Validated {
  const body = on(ctx, 'fault-create-unwraps-body') ? unwrapped(given) : given;
  if (!isJsonObject(body)) return { ok: false, message: 'request body must be a JSON object (NewPet)' };
  if (on(ctx, 'allowed-refuses-client-id') && field(body, 'id') !== undefined) {
    return { ok: false, message: 'id is assigned by the service and must not be sent' };
  }
  if (on(ctx, 'allowed-rejects-unknown-fields')) {
    const unknown = Object.keys(body).filter((k) => !NEW_PET_FIELDS.has(k));
    if (unknown.length > 0) return { ok: false, message: `unknown fields: ${unknown.join(', ')}` };
  }
  const member = (key: string) => (on(ctx, 'fault-create-case-insensitive-fields') ? fieldIgnoringCase(body, key) : on(ctx, 'fault-create-snake-case-fields') ? fieldOrSnake(body, key) : field(body, key));
  const name = validateName(member('name'), ctx);
  const categoryId = validateCategoryId(member('categoryId'), ctx);
  const status = validateStatus(member('status'), ctx);
  const problems = [name, categoryId, status].flatMap((r) => (r.ok ? [] : [r.message]));
  if (!name.ok || !categoryId.ok || !status.ok) return { ok: false, message: problems.join('; ') };
  return { ok: true, pet: { name: name.name, categoryId: categoryId.categoryId, status: status.status } };
}

/** The member named `key`, else the first whose name is `key` in another case. */
function fieldIgnoringCase(obj: { [key: string]: ParsedJson }, key: string): ParsedJson | undefined {
  const name = Object.hasOwn(obj, key) ? key : Object.keys(obj).find((k) => k.toLowerCase() === key.toLowerCase());
  return name === undefined ? undefined : obj[name];
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
  const status = on(ctx, 'fault-create-unknown-category-422') ? 422 : on(ctx, 'allowed-category-must-exist') ? 400 : undefined;
  if (status === undefined || (categoryId >= FIRST_CATEGORY && categoryId <= LAST_CATEGORY)) return false;
  sendError(res, ctx, status, 'unknown_category', `no category ${categoryId} (categories are ${FIRST_CATEGORY} to ${LAST_CATEGORY})`);
  return true;
}

/**
 * An integer id the NewPet carries, where a deviation takes it (§2.2: the service assigns it):
 * fault-upsert-client-id always, fault-client-id-honoured only when no pet has it, and
 * fault-client-id-honoured-below-2-53 only then and below 2^53.
 */
function clientId(body: ParsedJson, ctx: Ctx): bigint | undefined {
  const belowDouble = on(ctx, 'fault-client-id-honoured-below-2-53');
  if (!on(ctx, 'fault-upsert-client-id') && !on(ctx, 'fault-client-id-honoured') && !belowDouble) return undefined;
  const value = isJsonObject(body) ? field(body, 'id') : undefined;
  if (!isJsonNumber(value)) return undefined;
  const literal = int64OfLiteral(value.value);
  if (literal.kind !== 'int') return undefined;
  if (!on(ctx, 'fault-upsert-client-id') && ctx.store.get(literal.value) !== undefined) return undefined;
  if (belowDouble && !on(ctx, 'fault-client-id-honoured') && (literal.value < 1n || literal.value >= 2n ** 53n)) return undefined;
  return literal.value;
}

function allocateId(ctx: Ctx): bigint {
  ctx.store.createdCount += 1;
  const previous = ctx.store.previousId;
  if (on(ctx, 'fault-create-duplicate-ids') && ctx.store.createdCount % 3 === 0 && previous !== undefined) return previous;
  return ctx.store.allocateId();
}

function locationId(ctx: Ctx, id: bigint): bigint {
  if (!on(ctx, 'fault-create-location-wrong')) return id;
  return ctx.store.all().find((p) => p.id !== id)?.id ?? id - 1n;
}

/** The name as stored: trimmed (a fault), lone surrogates as U+FFFD (as Go decodes them), or in NFC. */
function storedName(name: string, ctx: Ctx): string {
  if (on(ctx, 'fault-create-trims-name')) return name.trim();
  if (on(ctx, 'allowed-go-style-strings')) return name.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  if (on(ctx, 'allowed-nfc-normalized')) return name.normalize('NFC');
  return name;
}

function respondCreated(res: ServerResponse, ctx: Ctx, pet: StoredPet): void {
  const body = petJson(pet, { withCreatedAt: on(ctx, 'allowed-extra-pet-fields') });
  if (on(ctx, 'fault-create-id-missing')) body['id'] = undefined;
  if (on(ctx, 'fault-create-id-string')) body['id'] = pet.id.toString();
  const headers = on(ctx, 'allowed-no-location') ? {} : { Location: `/v1/pets/${locationId(ctx, pet.id)}` };
  sendJson(res, ctx, on(ctx, 'fault-create-200') ? 200 : 201, body, headers);
}

/** fault-create-503-every-5th and -10th: authenticated creates, per server. */
const CREATES = new WeakMap<Ctx, number>();

/** fault-auth-refused-create-stored: a valid NewPet sent with a refused key, stored once its 401 is out. */
async function storeRefused(req: IncomingMessage, ctx: Ctx): Promise<void> {
  const read = await readBody(req);
  if (read.kind !== 'ok') return;
  const parsed = parseJsonBody(read.body, false, false);
  const valid = parsed.ok ? validateNewPet(parsed.value, ctx) : undefined;
  if (!valid?.ok) return;
  ctx.store.put({ id: allocateId(ctx), name: valid.pet.name, categoryId: valid.pet.categoryId, status: valid.pet.status, createdAt: new Date().toISOString() });
}

export const createPet: Handler = async (req, res, ctx) => {
  if (!authenticate(req, res, ctx, 'create-pet')) {
    if (on(ctx, 'fault-auth-refused-create-stored')) await storeRefused(req, ctx);
    return;
  }
  const refusedEvery = on(ctx, 'fault-create-503-every-5th') ? 5 : on(ctx, 'fault-create-503-every-10th') ? 10 : 0;
  if (refusedEvery > 0) {
    const creates = (CREATES.get(ctx) ?? 0) + 1;
    CREATES.set(ctx, creates);
    if (creates % refusedEvery === 0) {
      req.resume();
      sendRaw(res, 503, 'text/html', '<html><body><h1>503 Service Unavailable</h1><p>write failed</p></body></html>');
      return;
    }
  }
  if (!isJsonContentType(req, on(ctx, 'fault-create-rejects-json-charset'), on(ctx, 'fault-create-content-type-case-sensitive')) && !on(ctx, 'allowed-create-ignores-content-type')) {
    const message = `Content-Type must be application/json, got ${JSON.stringify(req.headers['content-type'] ?? '(none)')}`;
    if (on(ctx, 'allowed-415-content-type')) sendError(res, ctx, 415, 'unsupported_media_type', message);
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
  const parsed = parseJsonBody(raw, on(ctx, 'fault-create-trailing-data-accepted'), on(ctx, 'fault-create-lenient-utf8'));
  if (!parsed.ok) {
    if (on(ctx, 'fault-create-hangs-on-malformed-json')) return;
    if (on(ctx, 'fault-create-500-on-malformed-json')) sendError(res, ctx, 500, 'internal_error', 'unexpected token');
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
  if (input.status === 'sold' && on(ctx, 'fault-create-resets-sold')) {
    req.socket.destroy();
    return;
  }
  if (refusedUnknownCategory(res, ctx, input.categoryId)) return;
  if (on(ctx, 'fault-create-500-on-apostrophe') && input.name.includes("'")) {
    sendError(res, ctx, 500, 'internal_error', 'syntax error at or near "Brien"');
    return;
  }
  // fault-auth-after-validation: a valid NewPet without a valid key gets its 401 here, before anything is stored.
  if (sentHeldRejection(res)) return;
  const pet: StoredPet = {
    id: clientId(parsed.value, ctx) ?? allocateId(ctx),
    name: storedName(input.name, ctx),
    categoryId: on(ctx, 'fault-create-rounds-category') ? throughDouble(input.categoryId) : input.categoryId,
    status: on(ctx, 'fault-create-drops-status') ? undefined : input.status,
    createdAt: new Date().toISOString(),
  };
  const lost =
    (on(ctx, 'fault-create-lost-for-charset') && req.headers['content-type'] !== 'application/json') ||
    (on(ctx, 'fault-create-lost-with-unknown-fields') && isJsonObject(parsed.value) && Object.keys(parsed.value).some((k) => !NEW_PET_FIELDS.has(k)));
  if (!on(ctx, 'fault-create-not-persisted') && !lost && ctx.memory.keepsCreate(pet.id)) ctx.store.put(pet);
  if (on(ctx, 'fault-create-unknown-fields-empty-201') && isJsonObject(parsed.value) && Object.keys(parsed.value).some((k) => !NEW_PET_FIELDS.has(k))) sendJson(res, ctx, 201, {});
  else respondCreated(res, ctx, pet);
  if (on(ctx, 'allowed-status-moved-on-create') && pet.status !== undefined) pet.status = nextStatus(pet.status);
};
