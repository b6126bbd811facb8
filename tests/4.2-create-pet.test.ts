import fc from 'fast-check';
import { describe } from 'vitest';
import {
  edgeNewPets, invalidNewPetCases, JSON_SPELLED_OTHERWISE, newPet, newPetWithNullOptional, newPetWithUnknownField, notUtf8NewPetCases, OTHER_MEDIA_TYPES, statusValues, nameEdge,
} from '../generators/index.ts';
import { samePet } from '../src/checks/common.ts';
import { header, jsonObject, type Exchange } from '../src/http/exchange.ts';
import { isInt, stringifyJson } from '../src/json/lossless.ts';
import { scenario, type Judgements, type Scenario } from '../src/suite/scenario.ts';
import { categoryAt, categoryBasis, categoryEdge, eitherRefusable, knownCategories, PROBE_CATEGORY_IDS } from './support/categories.ts';
import { fetchShownPet, type Fetched } from '../src/suite/read-lag.ts';
import { createdBody } from './support/store.ts';

/** Ids from each of UNUSED_ID_RANGES the client-id scenario tries in turn, for one no animal has. */
const UNUSED_ID_CANDIDATES = 8;
const UNUSED_ID_RANGES: readonly [bigint, bigint, string][] = [
  [2n ** 62n, 2n ** 63n - 1n, '2^62..2^63-1'],
  [2n ** 41n, 2n ** 53n - 1n, '2^41..2^53-1'],
];

/** The first of `candidates` no animal has as far as GET shows (each asked for in turn; unreadable, the first). */
async function firstUnused(s: Scenario, readable: boolean, candidates: bigint[]): Promise<bigint | undefined> {
  for (const candidate of candidates) {
    const lookup = readable ? await s.send('getPet', { path: { petId: String(candidate) } }) : undefined;
    if (lookup?.response?.status === 200 && String(jsonObject(lookup)?.id) === String(candidate)) continue;
    return candidate;
  }
  return undefined;
}

/** A create and, where it answered 201 with a Location on the target's origin, the GET of that Location. */
interface Followed {
  exchange: Exchange;
  created?: Record<string, unknown>;
  underBase?: boolean;
  fetched?: Fetched;
}

/** Sends a create and follows the Location of its 201 (a read trailing the write allowed for: get.read-lag). */
async function createAndFollow(s: Scenario, body: string, contentType?: string): Promise<Followed> {
  const exchange = await s.send('createPet', contentType === undefined ? { body } : { body, contentType });
  const created = createdBody(exchange);
  const location = header(exchange, 'location');
  // Location names a GET /pets/{petId}, which may be gone past its removal date.
  if (!created || !location || s.isRemoved('getPet') || !URL.canParse(location, exchange.request.url)) return { exchange };
  const target = new URL(location, exchange.request.url);
  // The key goes only where it was meant to: a Location on another origin is not followed.
  if (target.origin !== new URL(exchange.request.url).origin) return { exchange };
  // A Location outside the base URL (a gateway's path prefix not put back) reaches no operation of the service's: what
  // answers there is judged only as the Location's target, never by the checks every answer of the service's gets.
  const underBase = target.href.startsWith(`${s.url('listPets')}/`);
  const fetched = await s.unlessOutOfTime(fetchShownPet(s.ctx, () => s.send('getPet', { url: target.href }), { fresh: true }));
  return fetched ? { exchange, created, underBase, fetched } : { exchange };
}

/** Judges the GET a 201's Location led to: the animal created, there. */
function judgeFollowed(s: Scenario, { created, fetched, underBase }: Followed): void {
  if (created && fetched) s.require(fetched.exchange, { 'create.location-resolves': { created }, 'get.read-lag': fetched }, underBase ? {} : { common: false });
}

describe('§4.2 Add an animal: POST /pets', () => {
  scenario(
    'every valid NewPet gives 201 and a Pet that carries what was sent, under an id of its own (or 400 for a name or categoryId the spec does not guarantee)',
    {
      checks: ['create.201-pet', 'create.echo', 'create.id-unique', 'create.location', 'create.location-resolves', 'get.read-lag', 'pet.default-status', 'create.name-constraints', 'create.category-constraints'],
      removal: { operationId: 'getPet', before: ['create.location-resolves', 'get.read-lag'] },
      writes: true,
      shard: 'inputs',
    },
    async (s) => {
      const known = await knownCategories(s);
      if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
      await s.property(
        'valid NewPet',
        newPet(s.contract, known.ids),
        {
          send: (input) => createAndFollow(s, stringifyJson(input)),
          receive: (input, followed) => {
            const { exchange } = followed;
            const name = nameEdge(input.name as string);
            const category = categoryEdge(known, input.categoryId);
            const judgements: Judgements = {
              'create.201-pet': { refusable: eitherRefusable(name, category), category: categoryBasis(known, input.categoryId) },
              'create.echo': { input },
              'create.name-constraints': { input },
              'create.location': {},
            };
            // Recorded where the answer is down to that field alone: a 400 for a NewPet open on both says not which.
            const taken = exchange.response?.status === 201;
            if (name && (!category || taken)) judgements['create.name-constraints'] = { input, refusable: name };
            if (category && (!name || taken)) judgements['create.category-constraints'] = { categoryId: input.categoryId };
            if (!('status' in input)) judgements['pet.default-status'] = {};
            s.require(exchange, judgements);
            judgeFollowed(s, followed);
          },
        },
        { examples: edgeNewPets(s.contract, known.ids) },
      );
      for (const [index, contentType] of JSON_SPELLED_OTHERWISE.entries()) {
        const input = { name: 'Fluffy Tiger', categoryId: categoryAt(known.ids, index) };
        const category = categoryBasis(known, input.categoryId);
        // The animal is read back too: a 201 under one spelling only that stores nothing is no create.
        const followed = await createAndFollow(s, stringifyJson(input), contentType);
        s.verify(followed.exchange, { 'create.201-pet': { category }, 'create.echo': { input } });
        judgeFollowed(s, followed);
      }
    },
  );

  scenario(
    'every NewPet that breaks one rule gives 400 with an Error',
    { checks: ['create.invalid-400', 'errors.shape', 'errors.status-field', 'errors.no-5xx'], writes: true, shard: 'inputs' },
    async (s) => {
      const known = await knownCategories(s);
      // Each body breaks one rule and must get 400 whatever its categoryId; a known one keeps the 400 down to that rule.
      const categoryIds = known.ids.length ? known.ids : PROBE_CATEGORY_IDS;
      await s.everyCase('invalid NewPet', invalidNewPetCases(s.contract, categoryIds).map((c) => c.arbitrary), {
        send: (input) => s.send('createPet', { body: input.body, contentType: input.contentType }),
        receive: (input, exchange) => s.require(exchange, { 'create.invalid-400': { rule: input.rule } }),
      });
    },
  );

  scenario(
    'a NewPet whose body is not UTF-8 is refused with 400 and an Error',
    { checks: ['create.not-utf8', 'errors.shape', 'errors.status-field', 'errors.no-5xx'], writes: true, shard: 'inputs' },
    async (s) => {
      // Only under a categoryId the target takes is a 400 down to the bytes, and so evidence for the clause.
      const known = await knownCategories(s);
      if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
      await s.everyCase('NewPet not UTF-8', notUtf8NewPetCases(s.contract, known.ids).map((c) => c.arbitrary), {
        send: (input) => s.send('createPet', { body: input.body, contentType: input.contentType }),
        receive: (input, exchange) => s.require(exchange, { 'create.not-utf8': { rule: input.rule } }),
      });
    },
  );

  // Jackson, Pydantic and others read an optional null as absent; §2.2 makes status one of the PetStatus values, and null is none.
  scenario(
    'a NewPet with an optional field null (status: null) is refused with 400 and an Error',
    { checks: ['create.null-optional', 'errors.shape', 'errors.status-field', 'errors.no-5xx'], writes: true },
    async (s) => {
      // Under categoryIds the target is known to accept, so a 400 is down to the null.
      const known = await knownCategories(s);
      if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
      await s.property(
        'NewPet with an optional field null',
        newPetWithNullOptional(s.contract, known.ids),
        {
          send: (input) => s.send('createPet', { body: input.body }),
          receive: (input, exchange) => s.require(exchange, { 'create.null-optional': { field: input.field } }),
        },
        { runs: Math.max(1, Math.ceil(s.config.runs / 5)) },
      );
    },
  );

  // §4 says only "Bodies are JSON"; the 400 for another content type is stated for the message operation alone.
  scenario(
    'a valid NewPet under another Content-Type (or none) is refused with an Error, or read as JSON',
    { checks: ['create.content-type', 'create.echo', 'errors.shape', 'errors.no-5xx'], writes: true },
    async (s) => {
      const known = await knownCategories(s);
      if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
      await s.forEach(OTHER_MEDIA_TYPES, async (contentType, index) => {
        const input = { name: 'Labelled', categoryId: categoryAt(known.ids, index) };
        s.verify(await s.send('createPet', { body: stringifyJson(input), contentType }), { 'create.content-type': { contentType }, 'create.echo': { input } });
      });
    },
  );

  // §2.2: "`id` is not part of the input. The service assigns it." A server that binds the whole body
  // to its model (mass assignment) takes it anyway: for the new animal, or to overwrite the one that has it.
  scenario(
    "a NewPet that carries an id is refused, or created under an id of the service's, and the animal that has the id stays as it was",
    {
      checks: ['create.ignores-client-id'],
      writes: true,
    },
    async (s) => {
      // Under categoryIds the target is known to accept, so a 400 is down to the id.
      const known = await knownCategories(s);
      if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
      const category = (index: number) => categoryAt(known.ids, index);
      const [first, second] = statusValues(s.contract);
      const readable = !s.isRemoved('getPet');
      // An animal of the suite's own: a server that overwrites it spoils nobody else's.
      const existing = createdBody(await s.send('createPet', { body: stringifyJson({ name: 'Keeps its id', categoryId: category(0), status: first }), reserve: true }));
      if (existing && isInt(existing.id)) {
        const id = String(existing.id);
        // The clause rests on each of these answers alone: a sporadic 429 is waited out from the reserve (SendOptions.reserve).
        const fetched = readable ? (await fetchShownPet(s.ctx, () => s.send('getPet', { path: { petId: id }, reserve: true }), { fresh: true })).exchange : undefined;
        // Judged only where GET shows the animal as created: a GET that is wrong already fails elsewhere.
        const shown = fetched?.response?.status === 200 ? jsonObject(fetched) : undefined;
        const before = shown && samePet(s.ctx.env, shown, existing) ? shown : undefined;
        // Every field differs from the existing animal's (categoryId too, where two are known), so an overwrite shows whichever it keeps.
        const input = { id: existing.id, name: 'Other id', categoryId: category(1), status: second };
        s.verify(await s.send('createPet', { body: stringifyJson(input), reserve: true }), { 'create.ignores-client-id': { clientId: id, existing: true } });
        if (before) s.verify(await s.send('getPet', { path: { petId: id }, reserve: true }), { 'create.ignores-client-id': { before } });
      }
      // Ids no animal has, where sequential ids do not reach: high in the int64 range, and between 2^41 (past
      // millisecond timestamps until 2039) and 2^53 (what a double holds, where a server in JavaScript may take
      // a client's id and not a larger one). A service that assigns its own gives one back with a chance of
      // about 2^-52 at most, so getting it back means the client's was taken. Several, so a replay of the seed
      // finds one free even where an earlier run's was taken.
      for (const [min, max, range] of UNUSED_ID_RANGES) {
        const candidates = fc.sample(fc.bigInt({ min, max }), { seed: s.config.seed, numRuns: UNUSED_ID_CANDIDATES });
        const unused = await firstUnused(s, readable, candidates);
        if (unused === undefined) {
          s.skipCheck('create.ignores-client-id', `every one of the ${UNUSED_ID_CANDIDATES} ids this seed draws from ${range} is taken already (by earlier runs with this seed?): run with another --seed`);
          return;
        }
        const input = { id: unused, name: 'Unused id', categoryId: category(2) };
        s.verify(await s.send('createPet', { body: stringifyJson(input), reserve: true }), { 'create.ignores-client-id': { clientId: String(unused), existing: false } });
      }
    },
  );

  scenario(
    'a NewPet without status, and one with a field the schema does not list',
    { checks: ['create.unknown-fields', 'pet.default-status', 'create.location-resolves', 'get.read-lag'], removal: { operationId: 'getPet', before: ['create.location-resolves', 'get.read-lag'] }, writes: true },
    async (s) => {
      const known = await knownCategories(s);
      if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
      s.verify(await s.send('createPet', { body: stringifyJson({ name: 'No status', categoryId: known.ids[0] }) }), { 'pet.default-status': {} });
      await s.property(
        'NewPet with an unknown field',
        newPetWithUnknownField(s.contract, known.ids),
        {
          // Read back: a server that answers 201 for such a NewPet and stores nothing has created no animal.
          send: (input) => createAndFollow(s, stringifyJson(input)),
          receive: (_input, followed) => {
            s.require(followed.exchange, { 'create.unknown-fields': {} });
            judgeFollowed(s, followed);
          },
        },
        { runs: 3 },
      );
    },
  );
});
