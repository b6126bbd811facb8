import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed, pet, raw } from '../helpers.ts';
import { cannedTests, type FamilyTable } from './canned.ts';

const INT64_MAX = 9223372036854775807n;
const NEW_PET = { name: 'Rex', categoryId: INT64_MAX };
const NUL_NAME = { why: 'a NUL character', tooLong: false };
const LONG_NAME = { why: 'over 50 characters', tooLong: true };
const UNKNOWN_CATEGORY = { why: 'categoryId 0 is not known to name a category, §2.5', tooLong: false };
const FROM_SETTING = 'categoryId 3 is one --category-ids names';

const TABLE: FamilyTable<typeof FAMILIES.create> = {
  'create.201-pet': {
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
  'create.echo': {
    ctx: { input: NEW_PET },
    pass: [
      { why: 'categoryId 9223372036854775807 back exactly', ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775807}')) },
      { why: 'status not sent, the server added one', ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"available"}')) },
      {
        why: 'status sent and echoed',
        ctx: { input: { name: '  padded  ', categoryId: 2, status: 'sold' } },
        ex: exchange(201, { id: 1, name: '  padded  ', categoryId: 2, status: 'sold' }),
      },
      { why: 'a lone surrogate back as itself', ctx: { input: { name: 'a\uD800b', categoryId: 2 } }, ex: exchange(201, raw('{"id":1,"name":"a\\ud800b","categoryId":2}')) },
      { why: 'a lone surrogate back as U+FFFD (RFC 8259 §8.2)', ctx: { input: { name: 'a\uDC00b', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'a\uFFFDb', categoryId: 2 }) },
      { why: 'U+F900 back as U+8C48 (NFC, canonically equivalent)', ctx: { input: { name: '\uF900', categoryId: 2 } }, ex: exchange(201, { id: 1, name: '\u8C48', categoryId: 2 }) },
      { why: 'e and U+0301 back as U+00E9 (NFC)', ctx: { input: { name: 'Re\u0301x', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'R\u00E9x', categoryId: 2 }) },
      // A categoryId that breaks Pet is create.201-pet's to fail; this check judges the fields still usable.
      { why: 'categoryId rounded through a double past int64 (create.201-pet fails it)', ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775808.0}')) },
      { why: 'categoryId as a string of the same digits (create.201-pet fails it)', ex: exchange(201, { id: 1, name: 'Rex', categoryId: '9223372036854775807' }) },
      { why: 'categoryId back as the string "2" (create.201-pet fails it; name and status still echoed)', ctx: { input: { name: 'Rex', categoryId: 2, status: 'sold' } }, ex: exchange(201, { id: 1, name: 'Rex', categoryId: '2', status: 'sold' }) },
    ],
    fail: [
      { why: 'a U+FFFD where the name had none', ctx: { input: { name: 'ab', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'a\uFFFDb', categoryId: 2 }) },
      { why: 'U+00E9 back as e and U+0301 (NFD, not NFC)', ctx: { input: { name: 'R\u00E9x', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'Re\u0301x', categoryId: 2 }) },
      { why: 'U+FB01 back as fi (NFKC, a compatibility mapping)', ctx: { input: { name: '\uFB01ne', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'fine', categoryId: 2 }) },
      { why: 'a lone surrogate dropped', ctx: { input: { name: 'a\uD800b', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'ab', categoryId: 2 }) },
      { why: 'categoryId back as a string, and the name trimmed', ctx: { input: { name: ' Rex', categoryId: 2 } }, ex: exchange(201, { id: 1, name: 'Rex', categoryId: '2' }), actual: /^name = "Rex"$/ },
      {
        why: 'categoryId 9223372036854775807 back as 9223372036854775806',
        ex: exchange(201, raw('{"id":1,"name":"Rex","categoryId":9223372036854775806}')),
        actual: /categoryId = 9223372036854775806/,
      },
      {
        why: 'name trimmed',
        ctx: { input: { name: '  padded  ', categoryId: 2 } },
        ex: exchange(201, { id: 1, name: 'padded', categoryId: 2 }),
        actual: /name = "padded"/,
      },
      {
        why: 'status sent but replaced',
        ctx: { input: { name: 'Rex', categoryId: 2, status: 'sold' } },
        ex: exchange(201, pet(1, { name: 'Rex', categoryId: 2, status: 'available' })),
      },
      {
        why: 'status sent but dropped',
        ctx: { input: { name: 'Rex', categoryId: 2, status: 'sold' } },
        ex: exchange(201, { id: 1, name: 'Rex', categoryId: 2 }),
        actual: /absent/,
      },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 201 that is no object', ex: exchange(201, [1, 2]) },
    ],
  },
  'create.id-unique': {
    ctx: { seenIds: new Set<string>() },
    pass: [
      { why: 'a first id', ex: exchange(201, pet(7)), ctx: { seenIds: new Set(['6']) } },
      { why: 'an int64 id not seen (one below a seen one)', ex: exchange(201, pet(INT64_MAX - 1n)), ctx: { seenIds: new Set([String(INT64_MAX)]) } },
    ],
    fail: [
      { why: 'an id seen before', ex: exchange(201, pet(7)), ctx: { seenIds: new Set(['7']) }, actual: /id 7 again/ },
      { why: 'an int64 id seen before', ex: exchange(201, raw('{"id":9223372036854775807,"name":"x","categoryId":1}')), ctx: { seenIds: new Set(['9223372036854775807']) } },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'an id that is a string', ex: exchange(201, pet(7, { id: '7' })) },
    ],
  },
  'create.ignores-client-id': {
    ctx: { clientId: '7', existing: true },
    pass: [
      { why: 'a 201 under another id', ex: exchange(201, pet(8)) },
      { why: 'a 400 refusing the id', ex: exchange(400, errorBody(400, 'invalid_pet', 'id is assigned by the service')) },
      { why: 'a 409 refusing the id an animal already has', ex: exchange(409, errorBody(409, 'conflict')) },
      { why: 'an int64 id one below the unused one sent', ex: exchange(201, raw('{"id":9223372036854775806,"name":"x","categoryId":3}')), ctx: { clientId: '9223372036854775807', existing: false } },
      { ctx: { before: pet(7) }, why: 'the animal as it was', ex: exchange(200, pet(7)) },
      { ctx: { before: pet(7) }, why: 'as it was, with a field Pet does not define', ex: exchange(200, { ...pet(7), updatedAt: '2026-01-01T00:00:00Z' }) },
    ],
    fail: [
      { why: 'a 201 reusing the id of an existing animal', ex: exchange(201, pet(7)), actual: /^201 with id 7$/ },
      { why: 'a 200 reusing it', ex: exchange(200, pet(7)) },
      { why: 'a 201 under the unused int64 id sent', ex: exchange(201, raw('{"id":9223372036854775807,"name":"x","categoryId":3}')), ctx: { clientId: '9223372036854775807', existing: false }, actual: /9223372036854775807/ },
      { why: 'the id given back as a string', ex: exchange(201, pet('7' as unknown as number)) },
      { ctx: { before: pet(7) }, why: 'overwritten by the NewPet', ex: exchange(200, pet(7, { name: "carries another animal's id", categoryId: 2, status: 'pending' })), actual: /carries another/ },
      { ctx: { before: pet(7) }, why: 'its status changed', ex: exchange(200, pet(7, { status: 'sold' })) },
      { ctx: { before: pet(7) }, why: 'gone', ex: exchange(404, errorBody(404, 'not_found')), actual: /^404/ },
    ],
    na: [
      { why: 'a 500 (errors.no-5xx judges it)', ex: exchange(500, errorBody(500)) },
      { why: 'a 201 without an id (create.201-pet judges it)', ex: exchange(201, { name: 'x', categoryId: 2 }) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'create.invalid-400': {
    ctx: { rule: 'name missing' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 415 when the body, not the media type, is wrong', ex: exchange(415, errorBody(415)), actual: /^415/ },
      { why: 'a 201', ex: exchange(201, pet(1)) },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
      { why: 'a 500', ex: exchange(500) },
    ],
  },
  'create.name-constraints': {
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
  },
  'create.null-optional': {
    ctx: { field: 'status' },
    pass: [{ why: 'a 400 refusing status null', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 201 without status (null taken as omitted)', ex: exchange(201, { id: 7, name: 'Rex', categoryId: 1 }), expected: /^400 for "status": null/, actual: /^201/ },
      { why: 'a 201 with status null', ex: exchange(201, pet(7, { status: null })) },
      { why: 'a 422 (§4.2 gives invalid values 400)', ex: exchange(422, errorBody(422)), actual: /^422/ },
      { why: 'a 500', ex: exchange(500, errorBody(500)) },
    ],
  },
  'create.content-type': {
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
  'create.location': {
    ctx: {},
    pass: [{ why: 'a 201 with Location', ex: exchange(201, pet(7), { location: '/v1/pets/7' }) }],
    fail: [{ why: 'a 201 without Location', ex: exchange(201, pet(7)), actual: /no Location/ }],
    na: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
  },
  'create.location-resolves': {
    ctx: { created: pet(7) },
    pass: [
      { why: 'a 200 with the created animal', ex: exchange(200, pet(7)) },
      { why: 'the same fields in another order', ex: exchange(200, raw('{"status":"available","categoryId":1,"name":"pet 7","id":7}')) },
      { why: 'an int64 id, exact', ex: exchange(200, raw('{"id":9223372036854775807,"name":"x","categoryId":1}')), ctx: { created: { id: INT64_MAX, name: 'x', categoryId: 1 } } },
      { why: 'fields Pet does not define, only in the GET', ex: exchange(200, { ...pet(7), links: { self: '/v1/pets/7' }, updatedAt: '2026-01-01T00:00:00Z' }) },
      { why: 'the 201 gave categoryId as the string "1" (create.201-pet fails it), the GET as 1', ctx: { created: pet(7, { categoryId: '1' }) }, ex: exchange(200, pet(7)) },
    ],
    fail: [
      { why: 'a 404', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'another name', ex: exchange(200, pet(7, { name: 'someone else' })) },
      { why: 'another categoryId beside an extra field', ex: exchange(200, { ...pet(7, { categoryId: 2 }), links: {} }) },
      { why: 'an int64 id rounded', ex: exchange(200, raw('{"id":9223372036854775806,"name":"x","categoryId":1}')), ctx: { created: { id: INT64_MAX, name: 'x', categoryId: 1 } } },
    ],
  },
  'pet.default-status': {
    ctx: {},
    observe: [
      { why: 'a status given by the server', ex: exchange(201, pet(7, { status: 'available' })), value: '"available"' },
      { why: 'no status', ex: exchange(201, { id: 7, name: 'Rex', categoryId: 1 }), value: 'none' },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 200', ex: exchange(200, pet(7)) },
    ],
  },
  'create.category-constraints': {
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
  'create.unknown-fields': {
    ctx: {},
    observe: [
      { why: 'a 201', ex: exchange(201, pet(7)), value: 'ignored (201)' },
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'refused (400)' },
      { why: 'a 422', ex: exchange(422, errorBody(422)), value: 'answered 422' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
};

describe('the create checks on canned exchanges', () => {
  cannedTests(FAMILIES.create, TABLE);
});
