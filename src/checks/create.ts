import { describeResponse, header, jsonBody, jsonObject, type Exchange } from '../http/exchange.ts';
import { isInt, jsonEqual, stringifyJson } from '../json/lossless.ts';
import { acceptedOrRefused, brokenFields, echoes, nfcVerdict, refusalExpected, refusedAsAllowed, samePet, schemaVerdict } from './common.ts';
import { combine, defineCheck, fail, NOT_APPLICABLE, PASS, quoted, type Refusable } from './types.ts';

type Fields = Record<string, unknown>;

const isCreated = (status: number) => status === 201;

export function createdPet(exchange: Exchange): Fields | undefined {
  return exchange.response?.status === 201 ? jsonObject(exchange) : undefined;
}

/** Whether the request's NewPet carried an `id` of the client's. */
function carriesId(exchange: Exchange): boolean {
  const body = exchange.request.body;
  if (body === undefined || !body.includes('"id"')) return false;
  try {
    const sent: unknown = JSON.parse(body);
    return typeof sent === 'object' && sent !== null && !Array.isArray(sent) && 'id' in sent;
  } catch {
    return false;
  }
}

/**
 * `category`: why the suite takes the NewPet's categoryId to be accepted (tests/support/categories.ts);
 * a 400 for it is then named as what a server that knows other categories answers.
 */
export const create201Pet = defineCheck<{ refusable?: Refusable; category?: string }>({
  description: 'A valid NewPet is answered with 201 and a Pet (one whose name or categoryId the spec does not guarantee may be refused with 400)',
  judge(exchange, { env, refusable, category }) {
    if (refusedAsAllowed(exchange, refusable)) return PASS;
    const status = exchange.response?.status;
    if (status !== 201) {
      const hint = status === 400 && category ? ` (${category}; if the target refuses it, give categoryIds it accepts with --category-ids)` : '';
      return fail(`201 with the created Pet${refusalExpected(refusable)}${hint}`, describeResponse(exchange));
    }
    return schemaVerdict(exchange, env, 'Pet');
  },
});

export const createNameConstraints = defineCheck<{ refusable: Refusable }>({
  description: 'Records which names outside the core (empty, long, control characters, lone surrogates) are refused',
  judge(exchange, { refusable }) {
    if (refusable === undefined) return NOT_APPLICABLE;
    return acceptedOrRefused(exchange, `name ${refusable.why}`, isCreated);
  },
});

export const createNameNormalized = defineCheck<{ input: Fields }>({
  description: 'Records a name a 201 returns in Unicode NFC where the one sent was not',
  judge(exchange, { input }) {
    const pet = input === undefined ? undefined : createdPet(exchange);
    return pet ? nfcVerdict(pet.name, input.name, 'name') : NOT_APPLICABLE;
  },
});

const SAFE = 2n ** 53n;

/** What kind of categoryId an observation is about: one line per kind, not per value. */
function categoryKind(categoryId: unknown): string {
  if (!isInt(categoryId)) return `categoryId ${stringifyJson(categoryId)}`;
  const id = BigInt(categoryId);
  if (id === 0n) return 'categoryId 0';
  if (id < 0n) return id <= -SAFE ? 'a categoryId below -2^53' : 'a negative categoryId';
  return id >= SAFE ? 'a categoryId beyond 2^53' : 'a positive categoryId';
}

export const createCategoryConstraints = defineCheck<{ categoryId: unknown }>({
  description: 'Records which categoryIds not known to name a category (0, negative, beyond 2^53, others) are refused',
  judge(exchange, { categoryId }) {
    return acceptedOrRefused(exchange, categoryKind(categoryId), isCreated);
  },
});

/** A field of the 201 whose value breaks Pet (categoryId "7" for 7) is create.201-pet's to fail, not this check's. */
export const createEcho = defineCheck<{ input: Fields }>({
  description: 'The created Pet has the name, categoryId and (when sent) status that were sent, where its value is valid for Pet',
  judge(exchange, { env, input }) {
    const pet = createdPet(exchange);
    if (!pet) return NOT_APPLICABLE;
    const broken = brokenFields(env, 'Pet', pet);
    for (const field of ['name', 'categoryId', 'status'] as const) {
      if (!Object.hasOwn(input, field) || broken.has(field)) continue;
      const sent = input[field];
      if (typeof sent === 'string' ? !echoes(pet[field], sent) : !jsonEqual(pet[field], sent)) {
        return fail(`${field} = ${stringifyJson(input[field])}`, `${field} = ${pet[field] === undefined ? '(absent)' : stringifyJson(pet[field])}`);
      }
    }
    return PASS;
  },
});

/**
 * Judges every 201 of POST /pets, in whichever scenario, against the ids given before (`seenIds`,
 * else the worker's env.createdIds): scenarios that create side by side each see the others'. A
 * NewPet that carried an id of its own is create.ignores-client-id's to judge.
 */
export const createIdUnique = defineCheck<{ seenIds?: Set<string> }>({
  description: 'No two created animals share an id',
  judge(exchange, { seenIds, env }) {
    if (exchange.operationId !== undefined && exchange.operationId !== 'createPet') return NOT_APPLICABLE;
    const ids = seenIds ?? env.createdIds;
    if (!ids || carriesId(exchange)) return NOT_APPLICABLE;
    const id = createdPet(exchange)?.id;
    if (typeof id !== 'number' && typeof id !== 'bigint') return NOT_APPLICABLE;
    const key = String(id);
    if (ids.has(key)) return fail('an id not given to any animal created earlier in this run', `id ${key} again`);
    ids.add(key);
    return PASS;
  },
});

/**
 * Judges a POST /pets whose NewPet also carried an `id` (§2.2: "`id` is not part of the input. The
 * service assigns it."): a refusal (4xx) or a created animal under another id. `existing` says
 * whether an animal had that id already; an unused one drawn high in the int64 range is as good as
 * never chosen by a service that assigns its own, so getting it back means the client's was taken.
 */
export const createIgnoresClientId = defineCheck<{ clientId: string; existing: boolean }>({
  description: 'A NewPet that carries an id is refused, or created under an id the service assigns',
  judge(exchange, { clientId, existing }) {
    const status = exchange.response?.status;
    if (clientId === undefined || status === undefined || status >= 500 || status === 401 || status === 429) return NOT_APPLICABLE;
    // Refused: nothing was created under the id (the Error body is errors.shape's to judge).
    if (status >= 400) return PASS;
    const id = jsonObject(exchange)?.id;
    if (typeof id !== 'number' && typeof id !== 'bigint' && typeof id !== 'string') return NOT_APPLICABLE;
    if (String(id) !== clientId) return PASS;
    const whose = existing ? `the id ${clientId} of an existing animal` : `the unused id ${clientId}`;
    return fail(`400 refusing it, or ${status} with an id the service assigns, not ${whose} sent in the NewPet`, `${status} with id ${String(id)}`);
  },
});

/** Judges GET /pets/{id} of an existing animal after a NewPet carrying its id was sent: it is unchanged. */
export const createClientIdLeavesExisting = defineCheck<{ before: Fields }>({
  description: 'A NewPet that carries the id of an existing animal leaves that animal as it was',
  judge(exchange, { env, before }) {
    if (before === undefined) return NOT_APPLICABLE;
    const body = jsonBody(exchange);
    if (exchange.response?.status === 200 && body.ok && samePet(env, body.value, before)) return PASS;
    return fail(`200 with ${stringifyJson(before)}, as before a NewPet carrying its id was sent`, describeResponse(exchange));
  },
});

export const createInvalid400 = defineCheck<{ rule: string }>({
  description: 'An invalid NewPet is refused with 400',
  judge(exchange, { rule }) {
    return exchange.response?.status === 400 ? PASS : fail(`400 for a body that breaks "${rule}"`, describeResponse(exchange));
  },
});

/**
 * §2.2 gives status "One of the `PetStatus` values", and null is none of them: §4.2's 400 for
 * "values invalid", although many parsers (Jackson, Pydantic) read an optional null as omitted.
 */
export const createNullOptional = defineCheck<{ field: string }>({
  description: 'A NewPet with an optional field sent as null (status: null) is refused with 400',
  judge(exchange, { field }) {
    if (exchange.response?.status === 400) return PASS;
    return fail(`400 for "${field}": null (null is none of its values, §2.2; "values invalid" get 400, §4.2)`, describeResponse(exchange));
  },
});

export const createContentType = defineCheck<{ contentType: string | null }>({
  description: 'Records whether a valid NewPet under another Content-Type (or none) is refused or read as JSON',
  judge(exchange, { contentType }) {
    return acceptedOrRefused(exchange, `Content-Type ${contentType ?? '(none)'}`, isCreated);
  },
});

export const createLocation = defineCheck({
  description: 'A 201 carries a Location header',
  judge(exchange) {
    if (exchange.response?.status !== 201) return NOT_APPLICABLE;
    return header(exchange, 'location') ? PASS : fail('Location: <URL of the created animal>', 'no Location header on the 201');
  },
});

/** Judges the GET of the Location URL: it must give back the created animal. */
export const createLocationResolves = defineCheck<{ created: Fields }>({
  description: 'The Location of a 201 leads to the created animal',
  judge(exchange, { env, created }) {
    const body = jsonBody(exchange);
    if (exchange.response?.status === 200 && body.ok && samePet(env, body.value, created)) return PASS;
    return fail(`200 with ${stringifyJson(created)} at ${exchange.request.url}`, describeResponse(exchange));
  },
});

export const petDefaultStatus = defineCheck({
  description: 'Records the status given to an animal created without one',
  judge(exchange) {
    const pet = createdPet(exchange);
    if (!pet) return NOT_APPLICABLE;
    return { outcome: 'observe', value: pet.status === undefined ? 'none' : quoted(stringifyJson(pet.status)) };
  },
});

export const createUnknownFields = defineCheck({
  description: 'Records whether fields beyond NewPet are ignored or refused',
  judge(exchange) {
    const status = exchange.response?.status;
    if (status === undefined) return NOT_APPLICABLE;
    const value = status === 201 ? 'ignored (201)' : status === 400 ? 'refused (400)' : `answered ${status}`;
    return { outcome: 'observe', value };
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const CREATE_CHECKS = {
  'create.201-pet': create201Pet,
  'create.name-constraints': combine(createNameConstraints, createNameNormalized),
  'create.category-constraints': createCategoryConstraints,
  'create.echo': createEcho,
  'create.id-unique': createIdUnique,
  'create.ignores-client-id': combine(createIgnoresClientId, createClientIdLeavesExisting),
  'create.invalid-400': createInvalid400,
  'create.null-optional': createNullOptional,
  'create.content-type': createContentType,
  'create.location': createLocation,
  'create.location-resolves': createLocationResolves,
  'pet.default-status': petDefaultStatus,
  'create.unknown-fields': createUnknownFields,
} as const;
