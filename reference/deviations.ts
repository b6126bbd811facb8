// Catalogue of switchable deviations of the reference server.
//
// A deviation is one small, labelled change at the single point in the code where it matters,
// consulted through `has(id)`. A `fault` breaks exactly one clause of the conformance suite (its
// `breaks` field); an `allowed` variant is a behaviour the service specification permits, so a
// correct suite must still pass against it.

export interface Deviation {
  id: string;
  kind: 'fault' | 'allowed';
  description: string;
  /** Clause id the fault breaks (faults only). */
  breaks?: string;
  /** SHOULD clauses an allowed variant is warned on (an RFC's SHOULD it does not follow); any other warning is a false one. */
  warns?: readonly string[];
  /** CLI arguments the fault matrix runs it with (a short --timeout for a server that hangs). */
  args?: readonly string[];
  /**
   * The operation a fault leaves unanswered. Its requests sent side by side (--schedule concurrent)
   * each time out for real, so the first clause to fail is any of those judging it: the matrix then
   * also takes a run whose every failure is a timeout on this operation.
   */
  hangs?: string;
}

function fault<const I extends string>(id: I, breaks: string, description: string, args?: readonly string[], hangs?: string) {
  return { id, kind: 'fault' as const, breaks, description, ...(args ? { args } : {}), ...(hangs ? { hangs } : {}) };
}

/** A hanging server costs the run about twice --timeout: the matrix gives those rows a short one. */
const SHORT_TIMEOUT = ['--timeout', '2000'] as const;
function allowed<const I extends string>(id: I, description: string, warns: readonly string[] = []) {
  return { id, kind: 'allowed' as const, description, warns };
}

const CATALOGUE = [
  // --- authentication -------------------------------------------------------------------------
  fault('fault-auth-hole-list-pets', 'auth.required', 'GET /v1/pets skips the authentication check.'),
  fault('fault-auth-hole-create-pet', 'auth.required', 'POST /v1/pets skips the authentication check.'),
  fault('fault-auth-hole-get-pet', 'auth.required', 'GET /v1/pets/{petId} skips the authentication check.'),
  fault('fault-auth-hole-store-orders', 'auth.required', 'GET /v1/store/orders skips the authentication check.'),
  fault('fault-auth-hole-messages', 'auth.required', 'POST /messages skips the authentication check.'),
  fault('fault-auth-hole-trailing-slash', 'auth.required', 'GET /v1/pets/ is routed as GET /v1/pets and serves the listing without the authentication check.'),
  fault('fault-auth-hole-path-case', 'auth.required', 'Paths are routed ignoring case (as Express and ASP.NET do by default) while the authentication check guards the exact path /v1/pets: GET /v1/PETS serves the listing without credentials.'),
  fault('fault-auth-hole-double-slash', 'auth.required', 'Empty path segments are dropped when routing (/v1//pets is /v1/pets) while the authentication check guards the exact path /v1/pets: GET /v1//pets serves the listing without credentials.'),
  fault('fault-auth-hole-head-list-pets', 'auth.required', 'HEAD /v1/pets skips the authentication check (only GET is guarded): 200 without credentials.'),
  fault('fault-auth-hole-head-get-pet', 'auth.required', 'HEAD /v1/pets/{petId} skips the authentication check (only GET is guarded): 200 for an existing id, 404 for an unknown one, without credentials.'),
  fault('fault-auth-key-case-insensitive', 'auth.required', 'The bearer token is compared with the key ignoring case (as a *_ci collation lookup does), on every operation.'),
  fault('fault-auth-key-prefix', 'auth.required', 'Any non-empty prefix of the key is accepted as the bearer token, on every operation.'),
  fault('fault-auth-bare-key-accepted', 'auth.required', 'An Authorization header holding the bare key (no "Bearer ") is accepted on every operation.'),
  fault('fault-auth-after-validation', 'auth.required', 'Authentication is checked after validation, as validation middleware mounted before the authentication middleware does: without a valid key, an invalid query, body or petId gets its 400 (an unknown petId its 404); only a request that passes validation gets the 401 (GET /v1/store/orders validates nothing, so its 401 stands).'),
  fault('fault-auth-any-scheme', 'auth.required', 'The scheme of Authorization is ignored and what follows it compared with the key: "Basic <API_KEY>" and "Token <API_KEY>" are accepted, on every operation.'),
  fault('fault-auth-basic-accepted-messages', 'auth.required', 'POST /messages accepts "Authorization: Basic <key>" (the key literally, or base64 of key, user:key or key:).'),
  fault('fault-auth-403', 'auth.required', 'Missing or invalid credentials yield 403 (Error body, code "forbidden") instead of 401.'),
  fault('fault-auth-401-body-not-error', 'auth.error-body', 'The 401 body is {"error":"unauthorized"} instead of an Error.'),
  fault('fault-auth-rejects-valid-key-orders', 'auth.valid-key-accepted', 'GET /v1/store/orders answers 401 even with the valid key.'),

  // --- listing ---------------------------------------------------------------------------------
  fault('fault-limit-default-21', 'list.limit-default', 'Without a limit, up to 21 pets are returned instead of 20.'),
  fault('fault-limit-max-101', 'list.limit-max', 'A numeric limit above 100 is clamped to 101 (200, up to 101 pets) instead of rejected; non-numeric limits still give 400.'),
  fault('fault-limit-max-99', 'list.limit-bounds-accepted', 'limit=100 is rejected with 400.'),
  fault('fault-limit-min-2', 'list.limit-bounds-accepted', 'limit=1 is rejected with 400.'),
  fault('fault-limit-overflow-500', 'errors.no-5xx', 'A limit of digits beyond int32 (2147483648 or more) yields 500 (Error body), as an unguarded Integer.parseInt throws, instead of 400.'),
  fault('fault-status-filter-no-default-limit', 'list.limit-default', 'GET /v1/pets?status=S without limit answers every animal of that status: the default of 20 is applied only when no status is given.'),
  fault('fault-limit-nonpositive-unbounded', 'list.limit-max', 'limit=0 or a negative limit answers every animal (as SQLite reads LIMIT -1), not a 400.'),
  fault('fault-limit-repeated-500', 'errors.no-5xx', 'A limit given twice (limit=1&limit=500) yields 500 (Error body), as a handler that gets the list Express makes of it and calls a string method on it would.'),
  fault('fault-limit-ignored', 'list.limit-respected', 'A valid limit is validated but ignored: up to 20 pets are returned whatever it says.'),
  fault('fault-filter-ignored', 'list.status-filter', 'A valid status filter is validated but ignored.'),
  fault('fault-filter-leaks-deep', 'list.status-filter', 'A filtered listing of 10+ items has ONE pet of another status inserted at index 8.'),
  fault('fault-filter-after-page', 'list.full-page', 'A status filter is applied to the first limit animals of the unfiltered order, not to the store (fewer shown than exist).'),
  fault('fault-list-bad-item-deep', 'list.200-pets', 'In listings of 10+ items, the item at index 8 carries categoryId as a JSON string.'),
  fault('fault-list-category-string', 'list.200-pets', 'Every listed animal carries categoryId as a JSON string ("7"), as a serialiser that writes int64 as strings for JavaScript clients would; the limit and the status filter are applied as usual.'),
  fault('fault-json-bom', 'json.content-type', 'Every JSON body starts with a UTF-8 byte-order mark (EF BB BF), as .NET\'s Encoding.UTF8 preamble writes it; RFC 8259 §8.1 forbids one on the wire.'),
  fault('fault-json-duplicate-status', 'json.unique-names', 'Every Pet is written with "status":"available" first and then its own status, as a serialiser that writes defaults before the values does; a last-wins parser reads the right status, a first-wins one reads "available".'),
  fault('fault-list-content-type-text', 'json.content-type', 'Successful GET /v1/pets responses carry Content-Type: text/plain (body unchanged).'),

  // --- creation --------------------------------------------------------------------------------
  fault('fault-create-200', 'create.201-pet', 'A successful POST /v1/pets answers 200 instead of 201.'),
  fault('fault-create-id-missing', 'create.201-pet', 'The created Pet body has no id.'),
  fault('fault-create-id-string', 'create.201-pet', 'The created Pet body carries id as a JSON string.'),
  fault('fault-create-accepts-missing-name', 'create.invalid-400', 'A NewPet without name is accepted (201, stored with name "").'),
  fault('fault-create-accepts-missing-category', 'create.invalid-400', 'A NewPet without categoryId is accepted (201, stored with categoryId 0).'),
  fault('fault-create-accepts-bad-status', 'create.invalid-400', 'Any string status is accepted and stored as given.'),
  fault('fault-create-accepts-fractional-category', 'create.invalid-400', 'A fractional categoryId (1.5) is accepted and stored truncated toward zero.'),
  fault('fault-create-accepts-out-of-range-category', 'create.invalid-400', 'An integer categoryId outside int64 is accepted and stored clamped into int64.'),
  fault('fault-create-coerces-numeric-string', 'create.invalid-400', 'A categoryId that is a string of decimal digits ("7") is read as the number (201).'),
  fault('fault-create-accepts-null-name', 'create.invalid-400', 'name: null is accepted (201, stored with name "").'),
  fault('fault-create-null-status-as-omitted', 'create.null-optional', '"status": null is taken as if status were omitted (201), as Jackson or Pydantic read an optional null; §2.2 makes status one of the PetStatus values.'),
  fault('fault-create-rejects-json-charset', 'create.201-pet', 'POST /v1/pets answers 400 unless Content-Type is exactly application/json (a charset parameter is refused).'),
  fault('fault-create-500-on-malformed-json', 'errors.no-5xx', 'A POST /v1/pets body that is not valid JSON yields 500 (Error body) instead of 400.'),
  fault('fault-create-name-max-10', 'create.201-pet', 'POST /v1/pets refuses (400 Error) a name longer than 10 characters: "Fluffy Tiger", a core name every server must take, included.'),
  fault('fault-create-trims-name', 'create.echo', 'Leading and trailing whitespace of name is trimmed before storing.'),
  fault('fault-create-drops-status', 'create.echo', 'The given status is dropped (not stored, not returned).'),
  fault('fault-create-unknown-category-422', 'create.201-pet', 'A categoryId outside 1..1000 (no such category) is refused with 422 (Error body, code "unknown_category"): §4.2 gives invalid values 400.'),
  fault('fault-create-rounds-category', 'create.echo', 'categoryId passes through a double: values beyond 2^53 come back rounded (kept inside int64).'),
  fault('fault-create-duplicate-ids', 'create.id-unique', 'Every 3rd created pet reuses the id of the previously created one (replacing it in the store).'),
  fault('fault-create-location-wrong', 'create.location-resolves', 'Location points to a different existing pet.'),
  fault('fault-create-not-persisted', 'get.200-pet', 'Created pets are answered 201 but never stored (GET by id gives 404).'),
  fault('fault-upsert-client-id', 'create.ignores-client-id', 'An integer id in the NewPet is taken as the new pet\'s id, overwriting the pet that has it (an ORM upsert by mass assignment).'),
  fault('fault-client-id-honoured', 'create.ignores-client-id', 'An integer id in the NewPet that no pet has is taken as the new pet\'s id; one a pet already has is ignored.'),

  // --- fetch by id -----------------------------------------------------------------------------
  fault('fault-get-wrong-pet', 'get.200-pet', 'GET /v1/pets/{petId} of an existing pet returns the next pet in id order (wrapping).'),
  fault('fault-get-unknown-200', 'get.unknown-404', 'GET /v1/pets/{petId} of an unknown id answers 200 with the first pet in the store.'),
  fault('fault-get-malformed-500', 'get.malformed-id', 'A non-numeric petId yields 500 (Error body) instead of 400.'),
  fault('fault-deprecated-removed-html', 'deprecation.operational', 'GET /v1/pets/{petId} is gone before its removal date: the router answers its HTML 404 page (Express\'s "Cannot GET …") after authentication. Past the removal date (--now 2031-01-01) the same server ships.'),
  fault('fault-deprecated-removed', 'deprecation.operational', 'GET /v1/pets/{petId} answers 410 Gone (Error body) for every id.'),
  fault('fault-sunset-early', 'deprecation.sunset-not-early', 'Sunset: Sun, 01 Dec 2030 00:00:00 GMT (before the announced 5 December 2030).'),
  fault('fault-deprecation-malformed', 'deprecation.headers-well-formed', 'Deprecation: yes please'),

  // --- errors ----------------------------------------------------------------------------------
  fault('fault-error-missing-code', 'errors.shape', '404 Error bodies lack "code".'),
  fault('fault-error-status-mismatch', 'errors.status-field', '400 Error bodies carry "status": 200.'),

  // --- store orders ----------------------------------------------------------------------------
  fault('fault-orders-missing', 'orders.exists', 'GET /v1/store/orders answers 404 (after authentication).'),
  fault('fault-orders-missing-request-id', 'orders.exists', 'GET /v1/store/orders is not routed, and every 404 of the router names a request id of its own in its message ("no such resource: /v1/store/orders (request 7)"), so no two 404 bodies are byte for byte alike.'),

  // --- messages --------------------------------------------------------------------------------
  fault('fault-message-200-empty', 'messages.accepted', 'A successful POST /messages answers 200 with body {}.'),
  fault('fault-message-status-sent', 'messages.status-queued', 'The message status is "sent" instead of "queued".'),
  fault('fault-message-created-at-offset', 'messages.created-at', 'createdAt uses a +02:00 offset (correct instant, not UTC), e.g. 2026-11-22T12:00:00+02:00.'),
  fault('fault-message-created-at-not-iso', 'messages.created-at', 'createdAt is new Date().toString() (not ISO 8601).'),
  fault('fault-message-same-id', 'messages.id-unique', 'Every accepted message gets the id "msg_1", as a handler that returns a constant placeholder would.'),
  fault('fault-message-max-50', 'messages.accepted', 'POST /messages refuses (400 Error) a message longer than 50 characters, core texts of up to 100 printable ASCII characters included.'),
  fault('fault-message-echo-trimmed', 'messages.echo', 'The echoed message is trimmed.'),
  fault('fault-message-accepts-invalid-json', 'messages.invalid-400', 'A body that is not valid JSON is answered as success (message echoes the raw body text).'),
  fault('fault-message-accepts-missing-message', 'messages.invalid-400', 'An object without "message" is answered as success (message "").'),
  fault('fault-message-rejects-json-charset', 'messages.accepted', 'POST /messages answers 400 unless Content-Type is exactly application/json (a charset parameter is refused).'),
  fault('fault-message-accepts-jsonish-content-type', 'messages.invalid-400', 'The body is read as JSON under any Content-Type that mentions json (/json/i, as many frameworks match it): text/json, application/x-json, application/vnd.api+json.'),
  fault('fault-message-accepts-wrong-content-type', 'messages.invalid-400', 'The body is parsed as JSON whatever the Content-Type (including none).'),

  // --- answers that never come (a failure rests on the real timeout, never on a request not sent) --
  fault('fault-create-hangs-on-malformed-json', 'create.invalid-400', 'A POST /v1/pets body that is not valid JSON is read and never answered (the socket held open), as a handler whose parse error escapes its promise chain; every other request is answered.', SHORT_TIMEOUT, 'createPet'),
  fault('fault-get-pet-hangs', 'create.location-resolves', 'Every GET (and HEAD) /v1/pets/{petId} is read and never answered (the socket held open), as a handler stuck on a lock would; every other operation answers. The first of its requests a run sends follows a 201\'s Location, so the timeout fails create.location-resolves, and the other clauses of getPet are left unjudged naming it (side by side, several time out at once and fail their own clauses).', SHORT_TIMEOUT, 'getPet'),
  fault('fault-problem-json-on-get', 'errors.shape', 'Error answers to GET requests other than 401 are RFC 9457 application/problem+json bodies ({type, title, status, detail}: no code or message), as a framework default would write; POST errors keep the Error shape.'),

  // --- what one call leaves behind for the next (only a sequence of calls shows these) ------------
  fault('fault-seq-negative-cache', 'state.id-keeps-naming', 'A 404 of GET /v1/pets/{petId} is cached for its id (a negative cache): an animal later created under that id is answered 404 for the rest of the run.'),
  fault('fault-seq-lost-write-after-refusal', 'state.id-keeps-naming', 'The first POST /v1/pets that passes validation after one refused for its body (400) is answered 201 but not stored: the refused request left its transaction open, and the write went into it and was rolled back with it.'),
  fault('fault-seq-forgets-on-401', 'state.id-keeps-naming', 'Any request refused 401, on any operation, removes the animal created last (a clean-up meant for a failed create runs on every refusal).'),
  fault('fault-seq-sticky-limit', 'list.limit-default', 'A listing refused 401 leaves its limit behind as the default of the next listing (the handler parses limit into a shared defaults object before the key is checked, and only a listing it serves puts the default back).'),
  fault('fault-seq-message-buffer', 'messages.echo', 'After a message refused with 400, the next accepted message echoes the text accepted before the refusal (a buffer the refusal path does not reset).'),

  // --- allowed variants ------------------------------------------------------------------------
  allowed('allowed-limit-clamped', 'An out-of-range limit is clamped into 1..100; an unparsable, empty or repeated limit falls back to 20; 200 either way.'),
  allowed('allowed-messages-200', 'A successful POST /messages answers 200 (full body).'),
  allowed('allowed-messages-201', 'A successful POST /messages answers 201 (full body).'),
  allowed('allowed-default-status-available', 'A pet created without status is stored and returned with status "available".'),
  allowed('allowed-big-ids', 'Pet ids start at 2^60+1 (beyond 2^53), seed included.'),
  allowed('allowed-refuses-client-id', 'POST /v1/pets refuses a NewPet that carries an id (400 Error: the service assigns it); other unknown fields are ignored.'),
  allowed('allowed-rejects-unknown-fields', 'POST /v1/pets rejects a NewPet with fields other than name, categoryId, status (400 Error).'),
  allowed('allowed-415-content-type', 'POST /v1/pets with a Content-Type other than application/json answers 415 (Error body).'),
  allowed('allowed-name-max-255', 'POST /v1/pets refuses (400 Error) a name that is empty, longer than 255 characters or holds NUL.'),
  allowed('allowed-names-ascii-only', 'POST /v1/pets refuses (400 Error) a name other than 3 to 12 ASCII letters in words one space apart: the strictest name rule the suite takes, as §2.5 shows no length or format for a name.'),
  allowed('allowed-messages-ascii-only', 'POST /messages refuses (400 Error) a message other than 1 to 100 printable ASCII characters in words one space apart, as an SMS gateway might.'),
  allowed('allowed-message-max-4096', 'POST /messages refuses an empty message (400 Error) and one longer than 4096 characters (413 Error).'),
  allowed('allowed-category-must-exist', 'POST /v1/pets refuses a categoryId outside 1..1000 (no such category) with 400 (Error body, code "unknown_category"); categories are not shown beyond the categoryId reference (§2.5).'),
  allowed('allowed-create-ignores-content-type', 'POST /v1/pets parses the body as JSON whatever the Content-Type (including none).'),
  allowed('allowed-empty-store', 'The store starts empty (no seed pets).'),
  allowed('allowed-no-deprecation-headers', 'GET /v1/pets/{petId} carries no Deprecation, Sunset or Link header.'),
  allowed('allowed-no-location', 'POST /v1/pets answers 201 without a Location header.', ['create.location']),
  allowed('allowed-no-www-authenticate', '401 responses carry no WWW-Authenticate header.', ['auth.www-authenticate']),
  allowed('allowed-other-error-codes', 'Error codes are upper-case (e.g. NOT_FOUND instead of not_found).'),
  allowed('allowed-extra-pet-fields', 'Pet bodies also carry createdAt (ISO 8601).'),
  allowed('allowed-go-style-strings', 'A lone surrogate in a name is stored as U+FFFD, as Go\'s encoding/json decodes it (RFC 8259 §8.2 leaves it open).'),
  allowed('allowed-nfc-normalized', 'Names and message texts are stored and returned in Unicode NFC (U+F900 as U+8C48, e and U+0301 as U+00E9), canonically equivalent to what was sent.'),
  allowed('allowed-get-links', 'GET /v1/pets/{petId} alone adds a links object to the Pet (neither the listing nor the 201 body has it).'),
  allowed('allowed-list-newest-first', 'Listings are in descending id order (newest first).'),
  allowed('allowed-created-at-basic', 'createdAt is in the ISO 8601 basic format, e.g. 20261122T141509Z (§4.5 asks for "ISO 8601 UTC timestamp", not the extended format).'),
  allowed('allowed-messages-uuid-ids', 'Message ids are UUIDs (crypto.randomUUID()).'),
  allowed('allowed-content-type-no-charset', 'JSON responses carry Content-Type: application/json exactly (no charset parameter).'),
  allowed('allowed-deprecation-draft-cet', 'Deprecation: true (the drafts before RFC 9745) and Sunset: Wed, 04 Dec 2030 23:00:00 GMT (5 December in CET).'),
  allowed('allowed-deprecation-params', 'Deprecation: @1735689600;note="see docs" (RFC 9745 makes it an RFC 9651 Item, which may carry parameters).'),
  allowed('allowed-link-empty-elements', 'Link: , </v1/pets>; rel="successor-version",, (empty list elements, which RFC 9110 §5.6.1.2 has recipients ignore).'),
  allowed('allowed-sunset-later', 'Sunset: Fri, 05 Dec 2031 00:00:00 GMT (later than announced).'),
  allowed('allowed-422-invalid-query', 'GET /v1/pets refuses an invalid limit or status with 422 (Error body) instead of 400; §4.1 lists no status for it.'),
  allowed('allowed-gzip-by-default', 'JSON bodies are gzip-coded unless Accept-Encoding excludes gzip (RFC 9110 §12.5.3: no Accept-Encoding accepts any coding).'),
  allowed('allowed-rate-limited', 'Every 37th request on each port answers 429 with an HTML page, as a gateway would, and Retry-After: 0, so the suite retries it (rate limits are not shown, §8; one that outlasts the retries is selftest/cli/rate-limited.test.ts).'),
  allowed('allowed-path-aliases-routed', 'Paths are routed ignoring case and empty segments (GET /v1/PETS and GET /v1//pets are GET /v1/pets), authentication included: 401 without credentials.'),
  allowed('allowed-cold-start-503', 'The first GET /v1/store/orders answers 503 with an HTML page and Retry-After: 1, as a gateway starting the service would; the suite retries it (§8 shows no availability promise, and a retried 503 is no answer of the service).'),
  allowed('allowed-trailing-slash-html-404', 'GET /v1/pets/ answers 404 text/html before authentication (a router with strict paths; the alias is no operation).'),
  allowed('allowed-read-lag', 'GET /v1/pets/{petId} answers 404 (Error) for a pet created less than 50 ms before, as a read replica behind the primary would (the spec promises no read-your-writes timing).'),
  allowed('allowed-read-lag-slow', 'GET /v1/pets/{petId} answers 404 (Error) for a pet created less than 900 ms before, as a read replica trailing the primary by most of a second would (the spec promises no read-your-writes timing).'),
  allowed('allowed-status-moved-by-others', 'Other clients move the seeded animals on: each GET /v1/pets/{petId} of one first advances its status (available, pending, sold, available), as sales on a shared store would; a listing just before shows the status it had (§3: "Transitions: not shown").'),
  allowed('allowed-orders-404-no-orders', 'GET /v1/store/orders answers the valid key 404 with an Error of its own (code "no_orders", "this account has no orders"), as an API whose collection does not exist for an account would; unrouted paths still get the router\'s not_found (its responses are not shown, §4.4).'),
  allowed('allowed-orders-404-generic-code', 'GET /v1/store/orders answers the valid key 404 with an Error under the router\'s generic code (code "not_found", "this account has no orders"), as an API with one code for every 404 would (its responses are not shown, §4.4; the codes are not shown, §7).'),
  allowed('allowed-waf-user-agent', 'Every request without a User-Agent header is refused 403 with an HTML page (Server: awselb/2.0), as a WAF in front of the service would (AWS WAF\'s core rule set); RFC 9110 §10.1.5: a user agent SHOULD send User-Agent.'),
  allowed('allowed-cookie-flood', 'Every answer carries 200 Set-Cookie headers, about 40 KB of headers in all, as a load balancer setting affinity cookies might (the spec fixes no response header size).'),
  allowed('allowed-bearer-exact-form', 'Only the exact form "Bearer <API_KEY>" is taken: "bearer <API_KEY>" (the scheme in lower case) and two spaces before the key get 401, as a server comparing the prefix byte for byte would (§5 shows only that form).'),
  allowed('allowed-listing-lag', 'GET /v1/pets leaves out animals created less than 300 ms before, as a listing served from a search index refreshed behind the primary would (the spec promises no read-your-writes timing).'),
  allowed('allowed-orders-csv', 'GET /v1/store/orders answers 200 with a text/csv body (its payload is not shown, §4.4).'),
  allowed('allowed-orders-forbidden', 'GET /v1/store/orders answers the valid key 403 (Error body, code "forbidden"), as a Store area needing an entitlement the key\'s account lacks would (its responses are not shown, §4.4).'),
  allowed('allowed-other-clients-create', 'Other clients share the store: before every 3rd request another client\'s animal is added (its own name, categoryId 1 to 4, a status or none).'),
  allowed('allowed-status-moved-any', 'Another system moves statuses: before every 4th request one animal with a status, any animal (the suite\'s own too), moves to the next (available, pending, sold, available) (§3: "Transitions: not shown").'),
  allowed('allowed-filtered-listing-lag', 'GET /v1/pets?status=… leaves out animals created less than 500 ms before (a filtered listing served from an index refreshed behind the primary); unfiltered listings do not lag.'),
  allowed('allowed-page-cap-10', 'A page holds at most 10 animals whatever limit says (limit is a maximum and the pagination mechanism is not shown, §4.1).', ['list.full-page']),
  allowed('allowed-list-random-order', 'A listing takes its page from the store in a random order each time (the order of a listing is not stated).'),
  allowed('allowed-default-status-random', 'A pet created without status gets one of the PetStatus values at random, or none (§3: the value assigned when status is omitted is not stated).'),
] as const satisfies readonly Deviation[];

export type DeviationId = (typeof CATALOGUE)[number]['id'];

export const DEVIATIONS: readonly Deviation[] = CATALOGUE;

const KNOWN = new Set<string>(CATALOGUE.map((d) => d.id));

/** The set of switched-on deviations. `has` only accepts catalogue ids, so a typo does not compile. */
export interface Deviations {
  has(id: DeviationId): boolean;
  readonly ids: readonly DeviationId[];
}

/** Builds the switch set; throws naming the first id not in the catalogue. */
export function deviationSet(ids: readonly string[] = []): Deviations {
  for (const id of ids) {
    if (!KNOWN.has(id)) throw new Error(`unknown deviation id: ${JSON.stringify(id)}`);
  }
  const on = new Set<string>(ids);
  return { has: (id) => on.has(id), ids: [...on] as DeviationId[] };
}
