// GET /v1/pets/{petId} (getPet), deprecated: removal scheduled for 5 December 2030.

import type { OutgoingHttpHeaders } from 'node:http';
import { authenticate } from '../auth.ts';
import type { Ctx, Handler } from '../context.ts';
import { sendError, sendJson, sendRaw } from '../http.ts';
import { int64OfDecimal } from '../json.ts';
import { isSeeded, nextStatus, petJson, type StoredPet } from '../store.ts';

/** 2025-01-01T00:00:00Z as an RFC 9745 structured-field date. */
const DEPRECATION = `@${Date.UTC(2025, 0, 1) / 1000}`;
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
/** allowed-read-lag and allowed-read-lag-slow: how long a created pet stays unseen here. */
const READ_LAG_MS = 50;
const SLOW_READ_LAG_MS = 900;

function deprecationHeaders(ctx: Ctx): OutgoingHttpHeaders {
  if (ctx.dev.has('allowed-no-deprecation-headers')) return {};
  let sunset = SUNSET;
  if (ctx.dev.has('fault-sunset-early')) sunset = 'Sun, 01 Dec 2030 00:00:00 GMT';
  if (ctx.dev.has('allowed-sunset-later')) sunset = 'Fri, 05 Dec 2031 00:00:00 GMT';
  const draft = ctx.dev.has('allowed-deprecation-draft-cet');
  if (draft) sunset = 'Wed, 04 Dec 2030 23:00:00 GMT';
  return {
    Deprecation: ctx.dev.has('fault-deprecation-malformed') ? 'yes please' : draft ? 'true' : ctx.dev.has('allowed-deprecation-params') ? `${DEPRECATION};note="see docs"` : DEPRECATION,
    Sunset: sunset,
    Link: ctx.dev.has('allowed-link-empty-elements') ? ', </v1/pets>; rel="successor-version",,' : '</v1/pets>; rel="successor-version"',
  };
}

/** The pet after `pet` in id order, wrapping around (fault-get-wrong-pet). */
function anotherPet(ctx: Ctx, pet: StoredPet): StoredPet {
  const all = ctx.store.all();
  const next = all[(all.findIndex((p) => p.id === pet.id) + 1) % all.length];
  return next && next.id !== pet.id ? next : { ...pet, id: pet.id + 1n, name: `${pet.name} (other)` };
}

export const getPet: Handler = async (req, res, ctx, url) => {
  if (ctx.dev.has('fault-get-pet-hangs')) return;
  if (!authenticate(req, res, ctx, 'get-pet')) return;
  const headers = deprecationHeaders(ctx);
  if (ctx.dev.has('fault-deprecated-removed-html')) {
    sendRaw(res, 404, 'text/html; charset=utf-8', `<!DOCTYPE html><html><body><pre>Cannot GET ${url.pathname}</pre></body></html>`);
    return;
  }
  if (ctx.dev.has('fault-deprecated-removed')) {
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
    if (ctx.dev.has('fault-get-malformed-500') && !/^-?\d+$/.test(text)) {
      sendError(res, ctx, 500, 'internal_error', 'cannot convert petId to a number', headers);
    } else {
      sendError(res, ctx, 400, 'invalid_pet_id', `petId must be a decimal int64, got ${JSON.stringify(text)}`, headers);
    }
    return;
  }
  const withCreatedAt = ctx.dev.has('allowed-extra-pet-fields');
  const stored = ctx.store.get(id);
  // allowed-read-lag(-slow): a pet shows up here 50 (900) ms after its creation, as on a replica behind the primary.
  const lagMs = ctx.dev.has('allowed-read-lag-slow') ? SLOW_READ_LAG_MS : ctx.dev.has('allowed-read-lag') ? READ_LAG_MS : 0;
  const remembered = ctx.dev.has('fault-seq-negative-cache') && ctx.memory.missingIds.has(id);
  const pet = remembered || (stored && Date.now() - Date.parse(stored.createdAt) < lagMs) ? undefined : stored;
  if (pet === undefined) {
    // fault-seq-negative-cache: a 404 is cached for its id, and outlives the animal later created under it.
    if (ctx.dev.has('fault-seq-negative-cache')) ctx.memory.missingIds.add(id);
    if (ctx.dev.has('fault-get-unknown-200')) {
      const ghost = ctx.store.all()[0] ?? { id, name: 'Ghost', categoryId: 1n, createdAt: new Date().toISOString() };
      sendJson(res, ctx, 200, petJson(ghost, { withCreatedAt }), headers);
    } else {
      sendError(res, ctx, 404, 'not_found', `no pet with id ${id}`, headers);
    }
    return;
  }
  if (ctx.dev.has('allowed-status-moved-by-others') && isSeeded(pet)) pet.status = nextStatus(pet.status);
  const shown = ctx.dev.has('fault-get-wrong-pet') ? anotherPet(ctx, pet) : pet;
  const body = petJson(shown, { withCreatedAt });
  if (ctx.dev.has('allowed-get-links')) body['links'] = { self: `/v1/pets/${shown.id}`, collection: '/v1/pets' };
  sendJson(res, ctx, 200, body, headers);
};
