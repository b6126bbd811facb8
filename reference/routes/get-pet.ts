// GET /v1/pets/{petId} (getPet), deprecated: removal scheduled for 5 December 2030.

import type { OutgoingHttpHeaders } from 'node:http';
import { authenticate } from '../auth.ts';
import type { Ctx, Handler } from '../context.ts';
import { allowed, fault, SHORT_TIMEOUT, switches, type Deviation } from '../deviation.ts';
import { sendError, sendJson, sendRaw } from '../http.ts';
import { int64OfDecimal } from '../json.ts';
import { isSeeded, nextStatus, petJson, type StoredPet } from '../store.ts';
import { LIST_PETS_DEVIATIONS } from './list-pets.ts';

/** The deviations switched in this module (reference/deviations.ts gathers them into the catalogue). */
export const GET_PET_DEVIATIONS = [
  fault('fault-get-wrong-pet', 'get.200-pet', 'GET /v1/pets/{petId} of an existing pet returns the next pet in id order (wrapping).'),
  fault('fault-get-by-index', 'get.same-id', 'GET /v1/pets/{petId} with a petId of 0 or below answers 200 with the animal at that place from the end of the store (the petId taken as an array index), as a lookup by position would.'),
  fault('fault-get-unknown-200', 'get.unknown-404', 'GET /v1/pets/{petId} of an unknown id answers 200 with the first pet in the store.'),
  fault('fault-get-nonpositive-400', 'get.unknown-404', 'GET /v1/pets/{petId} with a petId of 0 or below answers 400 (Error, invalid_pet_id), as a @Min(1) on the path parameter does: §4.3 and §7 give a getPet of an id no animal has 404, and a petId is any int64.'),
  fault('fault-get-malformed-500', 'get.malformed-id', 'A non-numeric petId yields 500 (Error body) instead of 400.'),
  fault('fault-get-placeholder-small-ids', 'state.id-fresh', 'GET /v1/pets/{petId} of an id no animal has, from 1 to 2^53, answers 200 with a placeholder Pet of that id ({"id":…,"name":"","categoryId":0}), as an ORM\'s find-or-new does; ids past 2^53 get 404. The ids just past the highest are later given to new animals, so the run sees one id hold two.'),
  fault('fault-get-500-int64-min', 'errors.no-5xx', 'GET /v1/pets/-9223372036854775808, the least int64 and so a valid petId, answers 500 (Error body): its absolute value, taken as a shard index, overflows (Math.abs(Long.MIN_VALUE)); every other petId is answered as it should.'),
  fault('fault-deprecated-removed-html', 'deprecation.operational', 'GET /v1/pets/{petId} is gone before its removal date: the router answers its HTML 404 page (Express\'s "Cannot GET …") after authentication. Past the removal date (--now 2031-01-01) the same server ships.'),
  fault('fault-deprecated-removed', 'deprecation.operational', 'GET /v1/pets/{petId} answers 410 Gone (Error body) for every id.'),
  fault('fault-sunset-early', 'deprecation.sunset-not-early', 'Sunset: Sun, 01 Dec 2030 00:00:00 GMT (before the announced 5 December 2030).'),
  fault('fault-sunset-early-new-animals', 'deprecation.sunset-not-early', 'A 200 for an id above 50 (a newer shard) carries Sunset: Sun, 01 Dec 2030 00:00:00 GMT; every other answer the announced 5 December 2030.'),
  fault('fault-sunset-early-one-in-four', 'deprecation.sunset-not-early', 'Every 4th answer of GET /v1/pets/{petId} carries Sunset: Sun, 01 Dec 2030 00:00:00 GMT, as one bad backend of four behind a balancer would; the others the announced 5 December 2030.'),
  fault('fault-sunset-extra-early-line', 'deprecation.sunset-not-early', 'Every answer carries two Sunset lines: the announced Thu, 05 Dec 2030 00:00:00 GMT and Sun, 01 Dec 2030 00:00:00 GMT, as a gateway adding its own would.'),
  fault('fault-sunset-early-iso', 'deprecation.sunset-not-early', 'Sunset: 2030-11-01T00:00:00Z, an ISO 8601 instant (no HTTP-date) a month before the announced 5 December 2030.'),
  fault('fault-deprecation-malformed', 'deprecation.headers-well-formed', 'Deprecation: yes please'),
  fault('fault-deprecation-still-to-come', 'deprecation.headers-well-formed', 'Deprecation: @1924992000 (1 January 2031): the operation announced as deprecated only from then, which §4.3 says it already is.'),
  fault('fault-get-pet-hangs', 'create.location-resolves', 'Every GET (and HEAD) /v1/pets/{petId} is read and never answered (the socket held open), as a handler stuck on a lock would; every other operation answers. The first of its requests a run sends follows a 201\'s Location, so the timeout fails create.location-resolves, and the other clauses of getPet are left unjudged naming it (side by side, several time out at once and fail their own clauses).', SHORT_TIMEOUT, 'getPet'),
  allowed('allowed-no-deprecation-headers', 'GET /v1/pets/{petId} carries no Deprecation, Sunset or Link header.'),
  allowed('allowed-get-links', 'GET /v1/pets/{petId} alone adds a links object to the Pet (neither the listing nor the 201 body has it).'),
  allowed('allowed-deprecation-draft-cet', 'Deprecation: true (the drafts before RFC 9745) and Sunset: Wed, 04 Dec 2030 23:00:00 GMT (5 December in CET).'),
  allowed('allowed-deprecation-params', 'Deprecation: @1735689600;note="see docs" (RFC 9745 makes it an RFC 9651 Item, which may carry parameters).'),
  allowed('allowed-link-empty-elements', 'Link: , </v1/pets>; rel="successor-version",, (empty list elements, which RFC 9110 §5.6.1.2 has recipients ignore).'),
  allowed('allowed-get-without-status', 'GET /v1/pets/{petId} shows the animal as id, name and categoryId only, never its status, though the 201 and the listings show it (§2.1: status is not required of a Pet as returned).'),
  allowed('allowed-sunset-later', 'Sunset: Fri, 05 Dec 2031 00:00:00 GMT (later than announced).'),
  allowed('allowed-read-lag', 'GET /v1/pets/{petId} answers 404 (Error) for a pet created less than 50 ms before, as a read replica behind the primary would (the spec promises no read-your-writes timing).'),
  allowed('allowed-read-lag-slow', 'GET /v1/pets/{petId} answers 404 (Error) for a pet created less than 900 ms before, as a read replica trailing the primary by most of a second would (the spec promises no read-your-writes timing).'),
  allowed('allowed-renamed-by-others', 'Another client renames the seeded animals: each GET /v1/pets/{petId} of one first gives it a new name (an admin tool at work on a shared store), which later listings show too; nothing in the spec fixes an animal\'s name for good.'),
  allowed('allowed-status-moved-by-others', 'Other clients move the seeded animals on: each GET /v1/pets/{petId} of one first advances its status (available, pending, sold, available), as sales on a shared store would; a listing just before shows the status it had (§3: "Transitions: not shown").'),
  fault('fault-seq-negative-cache', 'state.id-keeps-naming', 'A 404 of GET /v1/pets/{petId} is cached for its id (a negative cache): an animal later created under that id is answered 404 for the rest of the run.'),
] as const satisfies readonly Deviation[];

const on = switches(GET_PET_DEVIATIONS, LIST_PETS_DEVIATIONS);

/** 2025-01-01T00:00:00Z as an RFC 9745 structured-field date. */
const DEPRECATION = `@${Date.UTC(2025, 0, 1) / 1000}`;
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
const EARLY_SUNSET = 'Sun, 01 Dec 2030 00:00:00 GMT';
/** allowed-read-lag and allowed-read-lag-slow: how long a created pet stays unseen here. */
const READ_LAG_MS = 50;
const SLOW_READ_LAG_MS = 900;

function deprecationHeaders(ctx: Ctx): OutgoingHttpHeaders {
  if (on(ctx, 'allowed-no-deprecation-headers')) return {};
  let sunset: string | string[] = SUNSET;
  if (on(ctx, 'fault-sunset-early') || (on(ctx, 'fault-sunset-early-one-in-four') && ++ctx.memory.getPetAnswers % 4 === 0)) sunset = EARLY_SUNSET;
  if (on(ctx, 'fault-sunset-extra-early-line')) sunset = [SUNSET, EARLY_SUNSET];
  if (on(ctx, 'fault-sunset-early-iso')) sunset = '2030-11-01T00:00:00Z';
  if (on(ctx, 'allowed-sunset-later')) sunset = 'Fri, 05 Dec 2031 00:00:00 GMT';
  const draft = on(ctx, 'allowed-deprecation-draft-cet');
  if (draft) sunset = 'Wed, 04 Dec 2030 23:00:00 GMT';
  return {
    Deprecation: on(ctx, 'fault-deprecation-malformed') ? 'yes please' : on(ctx, 'fault-deprecation-still-to-come') ? '@1924992000' : draft ? 'true' : on(ctx, 'allowed-deprecation-params') ? `${DEPRECATION};note="see docs"` : DEPRECATION,
    Sunset: sunset,
    Link: on(ctx, 'allowed-link-empty-elements') ? ', </v1/pets>; rel="successor-version",,' : '</v1/pets>; rel="successor-version"',
  };
}

/** The pet after `pet` in id order, wrapping around (fault-get-wrong-pet). */
function anotherPet(ctx: Ctx, pet: StoredPet): StoredPet {
  const all = ctx.store.all();
  const next = all[(all.findIndex((p) => p.id === pet.id) + 1) % all.length];
  return next && next.id !== pet.id ? next : { ...pet, id: pet.id + 1n, name: `${pet.name} (other)` };
}

export const getPet: Handler = async (req, res, ctx, url) => {
  if (on(ctx, 'fault-get-pet-hangs')) return;
  if (!authenticate(req, res, ctx, 'get-pet')) return;
  const headers = deprecationHeaders(ctx);
  if (on(ctx, 'fault-deprecated-removed-html')) {
    sendRaw(res, 404, 'text/html; charset=utf-8', `<!DOCTYPE html><html><body><pre>Cannot GET ${url.pathname}</pre></body></html>`);
    return;
  }
  if (on(ctx, 'fault-deprecated-removed')) {
    sendError(res, ctx, 410, 'gone', 'this operation has been removed; use GET /v1/pets?status=…', headers);
    return;
  }
  const segment = url.pathname.slice('/v1/pets/'.length);
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    text = segment;
  }
  const id = int64OfDecimal(text);
  if (id === undefined) {
    if (on(ctx, 'fault-get-malformed-500') && !/^-?\d+$/.test(text)) {
      sendError(res, ctx, 500, 'internal_error', 'cannot convert petId to a number', headers);
    } else {
      sendError(res, ctx, 400, 'invalid_pet_id', `petId must be a decimal int64, got ${JSON.stringify(text)}`, headers);
    }
    return;
  }
  if (on(ctx, 'fault-get-nonpositive-400') && id <= 0n) {
    sendError(res, ctx, 400, 'invalid_pet_id', 'petId must be at least 1', headers);
    return;
  }
  if (on(ctx, 'fault-get-500-int64-min') && id === -(2n ** 63n)) {
    sendError(res, ctx, 500, 'internal_error', 'shard index out of range', headers);
    return;
  }
  const withCreatedAt = on(ctx, 'allowed-extra-pet-fields');
  if (on(ctx, 'fault-get-by-index') && id <= 0n) {
    const atIndex = ctx.store.all().at(Number(id) - 1);
    if (atIndex) {
      sendJson(res, ctx, 200, petJson(atIndex, { withCreatedAt }), headers);
      return;
    }
  }
  const stored = ctx.store.get(id);
  // allowed-read-lag(-slow): a pet shows up here 50 (900) ms after its creation, as on a replica behind the primary.
  const lagMs = on(ctx, 'allowed-read-lag-slow') ? SLOW_READ_LAG_MS : on(ctx, 'allowed-read-lag') ? READ_LAG_MS : 0;
  const remembered = on(ctx, 'fault-seq-negative-cache') && ctx.memory.missingIds.has(id);
  const pet = remembered || (stored && Date.now() - Date.parse(stored.createdAt) < lagMs) ? undefined : stored;
  if (pet === undefined) {
    // fault-seq-negative-cache: a 404 is cached for its id, and outlives the animal later created under it.
    if (on(ctx, 'fault-seq-negative-cache')) ctx.memory.missingIds.add(id);
    if (on(ctx, 'fault-get-placeholder-small-ids') && id >= 1n && id <= 2n ** 53n) {
      sendJson(res, ctx, 200, { id, name: '', categoryId: 0n }, headers);
    } else if (on(ctx, 'fault-get-unknown-200')) {
      const ghost = ctx.store.all()[0] ?? { id, name: 'Ghost', categoryId: 1n, createdAt: new Date().toISOString() };
      sendJson(res, ctx, 200, petJson(ghost, { withCreatedAt }), headers);
    } else {
      sendError(res, ctx, 404, 'not_found', `no pet with id ${id}`, headers);
    }
    return;
  }
  if (on(ctx, 'allowed-status-moved-by-others') && isSeeded(pet)) pet.status = nextStatus(pet.status);
  if (on(ctx, 'allowed-renamed-by-others') && isSeeded(pet)) pet.name = `${pet.name.replace(/ \(renamed \d+\)$/, '')} (renamed ${++ctx.memory.renames})`;
  const shown = on(ctx, 'fault-get-wrong-pet') ? anotherPet(ctx, pet) : pet;
  const body = petJson(shown, { withCreatedAt });
  if (on(ctx, 'allowed-get-links')) body['links'] = { self: `/v1/pets/${shown.id}`, collection: '/v1/pets' };
  if (on(ctx, 'allowed-get-without-status')) delete body['status'];
  const newShard = on(ctx, 'fault-sunset-early-new-animals') && shown.id > 50n && 'Sunset' in headers;
  sendJson(res, ctx, 200, body, newShard ? { ...headers, Sunset: EARLY_SUNSET } : headers);
};
