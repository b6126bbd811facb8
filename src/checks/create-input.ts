// POST /v1/pets: what the service takes and what it refuses (the answer and what follows it is create.ts).
import { describeResponse } from '../http/exchange.ts';
import { isInt, stringifyJson } from '../json/lossless.ts';
import { acceptedOrRefused, notUtf8Verdict, refusalExpected, refusedAsAllowed, schemaVerdict } from './common.ts';
import { createdPet, isCreated, type Fields } from './create.ts';
import { errorBody, exchange, failed, pet, raw } from './exchanges.ts';
import { nfcVerdict } from './text.ts';
import { combine, defineCheck, definePart, fail, NOT_APPLICABLE, PASS, type Refusable } from './types.ts';

// Values the cases below share.
const INT64_MAX = 9223372036854775807n;
const NUL_NAME = { why: 'a NUL character', tooLong: false };
const LONG_NAME = { why: 'over 50 characters', tooLong: true };
const UNKNOWN_CATEGORY = { why: 'categoryId 0 is not known to name a category, §2.5', tooLong: false };
const FROM_SETTING = 'categoryId 3 is one --category-ids names';


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
  cases: {
    ctx: {},
    pass: [
      { why: 'a 201 Pet', ex: exchange(201, pet(7)) },
      { why: 'a 201 Pet with an int64 id', ex: exchange(201, pet(INT64_MAX)) },
      { why: 'a 201 Pet for a name with NUL', ex: exchange(201, pet(7, { name: 'a\u0000b' })), ctx: { refusable: NUL_NAME } },
      { why: 'a 400 refusing a name with NUL', ex: exchange(400, errorBody(400)), ctx: { refusable: NUL_NAME } },
      { why: 'a 413 refusing a long name', ex: exchange(413, errorBody(413)), ctx: { refusable: LONG_NAME } },
      { why: 'a 400 refusing a categoryId not known to name a category', ex: exchange(400, errorBody(400)), ctx: { refusable: UNKNOWN_CATEGORY } },
      { why: 'a 201 Pet for a categoryId not known to name a category', ex: exchange(201, pet(7, { categoryId: 0 })), ctx: { refusable: UNKNOWN_CATEGORY } },
    ],
    fail: [
      {
        why: 'a 400 for a categoryId --category-ids names: the Expected line says so, and where to change it',
        ex: exchange(400, errorBody(400)),
        ctx: { category: FROM_SETTING },
        expected: /^201 with the created Pet \(categoryId 3 is one --category-ids names; if the target refuses it, give categoryIds it accepts with --category-ids\)$/,
      },
      { why: 'a 500 for a categoryId --category-ids names: no hint', ex: exchange(500, errorBody(500)), ctx: { category: FROM_SETTING }, expected: /^201 with the created Pet$/ },
      { why: 'a 422 refusing a categoryId not known to name a category (§4.2 says 400)', ex: exchange(422, errorBody(422)), ctx: { refusable: UNKNOWN_CATEGORY }, expected: /or 400 refusing it \(categoryId 0 is not known/ },
      { why: 'a 404 refusing a categoryId not known to name a category (§7 gives 404 to GET /pets/{petId} alone)', ex: exchange(404, errorBody(404)), ctx: { refusable: UNKNOWN_CATEGORY } },
      { why: 'a 200 (the spec says 201)', ex: exchange(200, pet(7)), actual: /^200/ },
      { why: 'a 201 without id', ex: exchange(201, { name: 'Rex', categoryId: 1 }), actual: /id/ },
      { why: 'categoryId as a string', ex: exchange(201, pet(7, { categoryId: '1' })) },
      { why: 'categoryId rounded through a double past int64', ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775808.0}')), actual: /categoryId/ },
      { why: 'status null in a 201 for a status sent as null', ex: exchange(201, pet(7, { status: null })), ctx: { refusable: { why: 'status null', tooLong: false } }, actual: /status/ },
      { why: 'an empty 201', ex: exchange(201) },
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 400 refusing a name every server must take', ex: exchange(400, errorBody(400)), ctx: { refusable: undefined }, actual: /^400/ },
      { why: 'a 413 refusing a NUL (not a size)', ex: exchange(413, errorBody(413)), ctx: { refusable: NUL_NAME }, actual: /^413/ },
      { why: 'a 422 refusing a long name (§4.2 says 400)', ex: exchange(422, errorBody(422)), ctx: { refusable: LONG_NAME } },
      { why: 'a 500 for a NUL', ex: exchange(500, errorBody(500)), ctx: { refusable: NUL_NAME } },
      { why: 'a 200 for a long name', ex: exchange(200, pet(7)), ctx: { refusable: LONG_NAME } },
    ],
  },
});

export const createNameConstraints = definePart<{ refusable: Refusable }>({
  description: 'Records which names outside the core (empty, long, control characters, lone surrogates) are refused',
  judge(exchange, { refusable }) {
    if (refusable === undefined) return NOT_APPLICABLE;
    return acceptedOrRefused(exchange, `name ${refusable.why}`, isCreated);
  },
});

export const createNameNormalized = definePart<{ input: Fields }>({
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
  cases: {
    ctx: { categoryId: 0 },
    observe: [
      { why: 'a 201 for categoryId 0', ex: exchange(201, pet(7, { categoryId: 0 })), value: 'categoryId 0: accepted (201)' },
      { why: 'a 400 for categoryId 0', ex: exchange(400, errorBody(400)), value: 'categoryId 0: refused (400)' },
      { why: 'a 422 (create.201-pet fails it)', ex: exchange(422, errorBody(422)), value: 'categoryId 0: refused (422)' },
      { why: 'a 400 for -1', ex: exchange(400, errorBody(400)), ctx: { categoryId: -1 }, value: 'a negative categoryId: refused (400)' },
      { why: 'a 400 for int64 min', ex: exchange(400, errorBody(400)), ctx: { categoryId: -(2n ** 63n) }, value: 'a categoryId below -2^53: refused (400)' },
      { why: 'a 201 for int64 max', ex: exchange(201, pet(7, { categoryId: INT64_MAX })), ctx: { categoryId: INT64_MAX }, value: 'a categoryId beyond 2^53: accepted (201)' },
      { why: 'a 400 for 1001', ex: exchange(400, errorBody(400)), ctx: { categoryId: 1001 }, value: 'a positive categoryId: refused (400)' },
    ],
    na: [
      { why: 'a 500 (create.201-pet and errors.no-5xx judge it)', ex: exchange(500, errorBody(500)) },
      { why: 'a 200 (create.201-pet judges it)', ex: exchange(200, pet(7)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
});

export const createInvalid400 = defineCheck<{ rule: string }>({
  description: 'An invalid NewPet is refused with 400',
  judge(exchange, { rule }) {
    return exchange.response?.status === 400 ? PASS : fail(`400 for a body that breaks "${rule}"`, describeResponse(exchange));
  },
  cases: {
    ctx: { rule: 'name missing' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 415 when the body, not the media type, is wrong', ex: exchange(415, errorBody(415)), actual: /^415/ },
      { why: 'a 201', ex: exchange(201, pet(1)) },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
      { why: 'a 500', ex: exchange(500) },
    ],
  },
});

export const createNotUtf8 = defineCheck<{ rule: string }>({
  description: 'A NewPet body that is not UTF-8 is invalid JSON (RFC 8259 §8.1) and is refused with 400',
  judge: (exchange, { rule }) => notUtf8Verdict(exchange, rule),
  cases: {
    ctx: { rule: 'name text not UTF-8: a lone continuation byte (0x80)' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 201 with U+FFFD in the name, as a lenient decoder stores it', ex: exchange(201, pet(3, { name: 'Re\ufffdx' })), actual: /^201/, expected: /RFC 8259 §8\.1/ },
      { why: 'a 422', ex: exchange(422, errorBody(422)), actual: /^422/ },
    ],
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
  cases: {
    ctx: { field: 'status' },
    pass: [{ why: 'a 400 refusing status null', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 201 without status (null taken as omitted)', ex: exchange(201, { id: 7, name: 'Rex', categoryId: 1 }), expected: /^400 for "status": null/, actual: /^201/ },
      { why: 'a 201 with status null', ex: exchange(201, pet(7, { status: null })) },
      { why: 'a 422 (§4.2 gives invalid values 400)', ex: exchange(422, errorBody(422)), actual: /^422/ },
      { why: 'a 500', ex: exchange(500, errorBody(500)) },
    ],
  },
});

export const createContentType = defineCheck<{ contentType: string | null }>({
  description: 'Records whether a valid NewPet under another Content-Type (or none) is refused or read as JSON',
  judge(exchange, { contentType }) {
    return acceptedOrRefused(exchange, `Content-Type ${contentType ?? '(none)'}`, isCreated);
  },
  cases: {
    ctx: { contentType: 'text/plain' },
    observe: [
      { why: 'a 201 (read as JSON)', ex: exchange(201, pet(1)), value: 'Content-Type text/plain: accepted (201)' },
      { why: 'a 415', ex: exchange(415, errorBody(415)), value: 'Content-Type text/plain: refused (415)' },
      { why: 'a 400 with no Content-Type sent', ex: exchange(400, errorBody(400)), ctx: { contentType: null }, value: 'Content-Type (none): refused (400)' },
    ],
    na: [
      { why: 'a 500 (errors.no-5xx judges it)', ex: exchange(500, errorBody(500)) },
      { why: 'a transport failure', ex: failed() },
    ],
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
  cases: {
    ctx: {},
    observe: [
      { why: 'a 201', ex: exchange(201, pet(7)), value: 'ignored (201)' },
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'refused (400)' },
      { why: 'a 422', ex: exchange(422, errorBody(422)), value: 'answered 422' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
});

/** The check of create.name-constraints: createNameConstraints and createNameNormalized together. */
export const createNameConstraintsClause = combine(createNameConstraints, createNameNormalized, {
  ctx: { refusable: NUL_NAME },
  na: [
    { why: 'a 500 (create.201-pet and errors.no-5xx judge it)', ex: exchange(500, errorBody(500)) },
    { why: 'a transport failure', ex: failed() },
    { ctx: { input: { name: '\uF900', categoryId: 2 } }, why: 'the name back as sent', ex: exchange(201, { id: 1, name: '\uF900', categoryId: 2 }) },
    { why: 'a lone surrogate back as U+FFFD only', ctx: { input: { name: 'a\uD800', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'a\uFFFD', categoryId: 2 }) },
    { ctx: { input: { name: '\uF900', categoryId: 2 } }, why: 'another name', ex: exchange(201, { id: 1, name: 'Rex', categoryId: 2 }) },
    { ctx: { input: { name: '\uF900', categoryId: 2 } }, why: 'a 400', ex: exchange(400, errorBody(400)) },
  ],
  observe: [
    { why: 'a 201', ex: exchange(201, pet(7, { name: 'a\u0000b' })), value: 'name a NUL character: accepted (201)' },
    { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'name a NUL character: refused (400)' },
    { why: 'a 413 for a long name', ex: exchange(413, errorBody(413)), ctx: { refusable: LONG_NAME }, value: 'name over 50 characters: refused (413)' },
    {
      ctx: { input: { name: '\uF900', categoryId: 2 } },
      why: 'U+F900 back as U+8C48',
      ex: exchange(201, { id: 1, name: '\u8C48', categoryId: 2 }),
      value: 'name returned normalised to Unicode NFC (canonically equivalent to the one sent)',
    },
    {
      why: 'a lone surrogate as U+FFFD and e U+0301 as U+00E9',
      ctx: { input: { name: 'e\u0301\uD800', categoryId: 2 } },
      ex: exchange(201, { id: 1, name: '\u00E9\uFFFD', categoryId: 2 }),
      value: 'name returned normalised to Unicode NFC (canonically equivalent to the one sent)',
    },
  ],
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const CREATE_INPUT_CHECKS = {
  'create.201-pet': create201Pet,
  'create.name-constraints': createNameConstraintsClause,
  'create.category-constraints': createCategoryConstraints,
  'create.invalid-400': createInvalid400,
  'create.not-utf8': createNotUtf8,
  'create.null-optional': createNullOptional,
  'create.content-type': createContentType,
  'create.unknown-fields': createUnknownFields,
} as const;
