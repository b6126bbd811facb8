import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { badAuthorizations, firstPercentEncoded, JSON_SPELLED_OTHERWISE, limitBounds, withoutValidKey, wrongBearer } from '../generators/index.ts';
import { scenario, type Scenario, type SendOptions } from '../src/suite/scenario.ts';
import { listed, petIdText, plainPet } from './support/store.ts';
import { stringifyJson } from '../src/json/lossless.ts';
import { jsonObject } from '../src/http/exchange.ts';
import type { AliasServes } from '../src/checks/auth.ts';

/**
 * A request valid in every way but its Authorization, so a 401 can only be about the key. The NewPet's
 * categoryId need not be one the target accepts: the key is judged before it, and a valid key may
 * be answered anything but 401 and 403. `invalid`: requests whose query, body or path is also wrong,
 * each with the rule it breaks; without a valid key they must get 401 all the same (§5.3; §7: 401 on
 * all operations), not the 400 or 404 of a server that validates before it authenticates.
 * `contentTypes`: the other spellings of application/json its body must be taken under with the key
 * (§4.2, §4.5), each sent without one too, for a route that takes them and skips authentication.
 */
const OPERATIONS: { id: string; request: SendOptions; invalid: { rule: string; request: SendOptions }[]; contentTypes?: readonly string[]; writes?: boolean; messages?: boolean; deprecated?: string; stores?: boolean }[] = [
  {
    id: 'listPets',
    request: {},
    invalid: [
      { rule: 'limit=0 (below the minimum 1)', request: { query: 'limit=0' } },
      { rule: 'status=unknown (not a PetStatus)', request: { query: 'status=unknown' } },
    ],
  },
  {
    id: 'createPet',
    request: { body: stringifyJson(plainPet(0, 'available', [1])) },
    invalid: [
      { rule: 'a NewPet without name', request: { body: stringifyJson({ categoryId: 1 }) } },
      { rule: 'a body that is not JSON', request: { body: '{"name":' } },
      { rule: 'a NewPet under Content-Type text/plain', request: { body: stringifyJson(plainPet(0, 'available', [1])), contentType: 'text/plain' } },
    ],
    contentTypes: JSON_SPELLED_OTHERWISE,
    writes: true,
    stores: true,
  },
  {
    id: 'getPet',
    request: { path: { petId: '1' } },
    invalid: [
      { rule: 'petId abc (not an int64)', request: { path: { petId: 'abc' } } },
      { rule: 'petId 9223372036854775807 (an id no animal is likely to have)', request: { path: { petId: '9223372036854775807' } } },
    ],
    deprecated: 'getPet',
  },
  // Its parameters are not shown (§4.4): a query it does not know is all there is to get wrong.
  { id: 'listStoreOrders', request: {}, invalid: [{ rule: 'a query it does not list (page=-1)', request: { query: 'page=-1' } }] },
  {
    id: 'sendMessage',
    request: { body: stringifyJson({ message: 'conformance check' }) },
    invalid: [
      { rule: 'a body without message', request: { body: '{}' } },
      { rule: 'a body that is not JSON', request: { body: '{"message":' } },
      { rule: 'a message under Content-Type text/plain', request: { body: stringifyJson({ message: 'conformance check' }), contentType: 'text/plain' } },
    ],
    contentTypes: JSON_SPELLED_OTHERWISE,
    writes: true,
    messages: true,
  },
];

function key(s: Scenario): string {
  return s.config.apiKey;
}

/** Whether a header of that name goes with every request already (--header): the key sent under it would clash. */
function sentAsGatewayHeader(s: Scenario, name: string | undefined): boolean {
  return name !== undefined && (s.config.network?.headers ?? []).some((gateway) => gateway.name.toLowerCase() === name.toLowerCase());
}

describe('§5 Authentication', () => {
  scenario('the valid key under other spellings of the Bearer form (scheme in lower case, two spaces) is recorded', { checks: ['auth.scheme-variants'], operations: ['listPets'] }, async (s) => {
    for (const [variant, scheme] of [['bearer <API_KEY> (scheme in lower case)', 'bearer '], ['Bearer  <API_KEY> (two spaces)', 'Bearer  ']] as const) {
      const authorization = { value: `${scheme}${key(s)}`, shown: `${scheme}$API_KEY` };
      s.verify(await s.send('listPets', { query: 'limit=1', authorization }), { 'auth.scheme-variants': { variant } });
    }
  });

  for (const op of OPERATIONS) {
    scenario(
      `${op.id}: every Authorization other than Bearer <API_KEY> gives 401 with an Error, also when the query, body or path is invalid too${op.contentTypes ? ', none under application/json spelled otherwise' : ''}${op.stores ? ', and none stores its animal' : ''}`,
      { checks: ['auth.required', 'auth.error-body', 'auth.www-authenticate', 'errors.status-field'], writes: op.writes, messages: op.messages, deprecated: op.deprecated, operations: [op.id] },
      async (s) => {
        // A create's NewPet carries a name of this run's own, so that one stored all the same can be told.
        const refusedName = op.stores ? `Refused without a key ${randomBytes(4).toString('hex')}` : undefined;
        const request: SendOptions = refusedName ? { ...op.request, body: stringifyJson({ ...plainPet(0, 'available', [1]), name: refusedName }) } : op.request;
        // One taken (a 2xx: auth.required fails it) may be stored by rights; only where each was refused does a sighting say more.
        let taken = false;
        const send = async (options: SendOptions) => {
          const exchange = await s.send(op.id, options);
          if (exchange.response && exchange.response.status >= 200 && exchange.response.status < 300) taken = true;
          return exchange;
        };
        await s.forEach(badAuthorizations(key(s)).filter((variant) => !sentAsGatewayHeader(s, variant.authorization?.header)), async (variant) => {
          const exchange = await send({ ...request, authorization: variant.authorization });
          s.verify(exchange, { 'auth.required': { variant: variant.id } });
        });
        const invalidWithoutKey = op.invalid.flatMap((invalid) => withoutValidKey(key(s)).map((variant) => ({ invalid, variant })));
        await s.forEach(invalidWithoutKey, async ({ invalid, variant }) => {
          const exchange = await s.send(op.id, { ...invalid.request, authorization: variant.authorization });
          s.verify(exchange, { 'auth.required': { variant: variant.id, invalid: invalid.rule } });
        });
        await s.forEach(op.contentTypes ?? [], async (contentType) => {
          const exchange = await send({ ...request, contentType, authorization: null });
          s.verify(exchange, { 'auth.required': { variant: `absent, under Content-Type ${contentType}` } });
        });
        await s.property(
          'random wrong bearer tokens',
          wrongBearer(key(s)),
          {
            send: (variant) => send({ ...request, authorization: variant.authorization }),
            receive: (variant, exchange) => s.require(exchange, { 'auth.required': { variant: `Bearer ${variant.authorization?.shown.slice(7)}` } }),
          },
          { runs: Math.min(s.config.runs, 10) },
        );
        if (refusedName && !taken) await lookForRefusedCreates(s, refusedName);
      },
    );
    scenario(
      `${op.id}: Bearer <API_KEY> is accepted`,
      { checks: ['auth.valid-key-accepted'], writes: op.writes, messages: op.messages, deprecated: op.deprecated, operations: [op.id] },
      async (s) => {
        s.verify(await s.send(op.id, op.request), { 'auth.valid-key-accepted': {} });
      },
    );
  }
  scenario(
    'without credentials, GET /v1/pets/, /v1/PETS, /v1//pets, /v1/%70ets, /v1/pets?via=alias, /v1/pets.json, /v1/pets;x=1 and /v1/pets on the message host serve no listing, and HEAD /v1/pets and /v1/pets/{petId} no 2xx',
    { checks: ['auth.required'], operations: ['listPets'] },
    async (s) => {
      const list = s.url('listPets');
      const probes: AliasProbe[] = [
        ...spellings(list, '/pets', 'GET /v1').map((alias) => ({ ...alias, operationId: 'listPets' })),
        { alias: 'HEAD /v1/pets', operationId: 'listPets', url: list, method: 'HEAD' },
      ];
      // An animal that exists, so a HEAD served without the key would answer 200 rather than 404.
      const first = listed(await s.send('listPets', { query: 'limit=1' }))?.[0];
      const petId = petIdText(first);
      if (petId !== undefined) probes.push({ alias: `HEAD /v1/pets/${petId}`, operationId: 'getPet', url: s.url('getPet', { petId }), method: 'HEAD' });
      // The other host may answer [] to any path: only a listing holding that animal shows the listing served there.
      if (petId !== undefined && typeof first?.name === 'string') {
        const listingHolding = { id: petId, name: first.name };
        probes.push(...onMessageHost(s, 'GET', '/v1/pets').map((alias) => ({ ...alias, operationId: 'listPets', serves: { listingHolding } })));
      }
      await sendAliases(s, probes);
    },
  );
  scenario(
    'without credentials, GET /v1/pets/{petId}/, /v1/PETS/{petId}, /v1//pets/{petId}, /v1/%70ets/{petId}, /v1/pets/{petId}?via=alias, /v1/pets/{petId}.json, /v1/pets/{petId};x=1, /v1/pets/ with the id\'s first digit percent-encoded and /v1/pets/{petId} on the message host serve no animal',
    { checks: ['auth.required'], deprecated: 'getPet', needs: ['listPets'] },
    async (s) => {
      const petId = petIdText(listed(await s.send('listPets', { query: 'limit=1' }))?.[0]);
      if (petId === undefined) return;
      const url = s.url('getPet', { petId });
      const encodedId = { alias: `GET /v1/pets/${firstPercentEncoded(petId)}`, url: `${url.slice(0, url.length - petId.length)}${firstPercentEncoded(petId)}` };
      await sendAliases(s, [...spellings(url, `/pets/${petId}`, 'GET /v1'), encodedId, ...onMessageHost(s, 'GET', `/v1/pets/${petId}`)].map((alias) => ({ ...alias, operationId: 'getPet', serves: { petId } })));
    },
  );
  scenario(
    'without credentials, HEAD /v1/store/orders gets no 2xx, and GET /v1/store/orders/, /v1/STORE/orders, /v1//store/orders, /v1/%73tore/orders, /v1/store/orders?via=alias, /v1/store/orders.json, /v1/store/orders;x=1 and /v1/store/orders on the message host serve nothing of what GET /v1/store/orders answers the key',
    { checks: ['auth.required'], operations: ['listStoreOrders'] },
    async (s) => {
      const url = s.url('listStoreOrders');
      const probes: AliasProbe[] = [{ alias: 'HEAD /v1/store/orders', operationId: 'listStoreOrders', url, method: 'HEAD' }];
      // Its payload is not shown (§4.4): only the very body the key gets, served without it, shows the operation served.
      const keyed = (await s.send('listStoreOrders')).response;
      if (keyed && keyed.status >= 200 && keyed.status < 300 && keyed.body.length > 0) {
        const keyedBody = keyed.body.toString('utf8');
        // On the other host, a body as bare as [] or {} may be what it answers any path.
        const other = /^\s*(\[\s*\]|\{\s*\})?\s*$/.test(keyedBody) ? [] : onMessageHost(s, 'GET', '/v1/store/orders');
        probes.push(...[...spellings(url, '/store/orders', 'GET /v1'), ...other].map((alias) => ({ ...alias, operationId: 'listStoreOrders', serves: { keyedBody } })));
      }
      await sendAliases(s, probes);
    },
  );
  // Only a server with a hole takes what these send (then it writes, so they go only where writes do).
  scenario(
    'without credentials, POST /v1/pets/, /v1/PETS, /v1//pets, /v1/%70ets, /v1/pets?via=alias, /v1/pets.json, /v1/pets;x=1 and /v1/pets on the message host create no animal',
    { checks: ['auth.required'], writes: true, operations: ['createPet'] },
    async (s) => {
      const newPet = plainPet(0, 'available', [1]);
      const request: SendOptions = { method: 'POST', body: stringifyJson(newPet) };
      const serves = { echoes: { name: newPet.name, categoryId: newPet.categoryId } };
      await sendAliases(s, [...spellings(s.url('createPet'), '/pets', 'POST /v1'), ...onMessageHost(s, 'POST', '/v1/pets')].map((alias) => ({ ...alias, operationId: 'createPet', request, serves })));
    },
  );
  scenario(
    'without credentials, POST /messages/, /MESSAGES, //messages, /%6Dessages, /messages?via=alias, /messages.json, /messages;x=1, and /messages and /v1/messages on the main host take no message',
    { checks: ['auth.required'], writes: true, messages: true, operations: ['sendMessage'] },
    async (s) => {
      const message = 'conformance check';
      const request: SendOptions = { method: 'POST', body: stringifyJson({ message }) };
      const mainHost = ['/messages', '/v1/messages'].map((path) => ({ alias: `POST ${path} on the main host`, url: `${s.config.baseUrl}${path}` })).filter((probe) => probe.url !== s.url('sendMessage'));
      await sendAliases(s, [...spellings(s.url('sendMessage'), '/messages', 'POST '), ...mainHost].map((alias) => ({ ...alias, operationId: 'sendMessage', request, serves: { echoes: { message } } })));
    },
  );
});

/**
 * Where an animal of the refused creates would show had it been stored all the same (§5.1): the ids
 * just below one created now with the key (a server counting ids up gave them out just before), and
 * the longest listing. Only a sighting fails; not finding one shows nothing.
 */
async function lookForRefusedCreates(s: Scenario, name: string): Promise<void> {
  const created = await s.send('createPet', { body: stringifyJson(plainPet(1, 'available', [1])) });
  s.verify(created, {});
  const id = created.response?.status === 201 ? petIdText(jsonObject(created)) : undefined;
  const reads: SendOptions[] = [{ query: `limit=${limitBounds(s.contract).max}` }];
  const below = id !== undefined && /^\d+$/.test(id) && !s.isRemoved('getPet') ? BigInt(id) : 0n;
  for (let back = 1n; back <= REFUSED_IDS_LOOKED_AT && below - back > 0n; back++) reads.push({ path: { petId: String(below - back) } });
  await s.forEach(reads, async (read) => s.verify(await s.send(read.path ? 'getPet' : 'listPets', read), { 'auth.required': { refused: name } }));
}

/** How many ids below a fresh one lookForRefusedCreates fetches: other clients' creates may come between. */
const REFUSED_IDS_LOOKED_AT = 5n;

interface AliasProbe {
  alias: string;
  operationId: string;
  url: string;
  method?: string;
  /** What else goes with it: a POST's method and body. */
  request?: SendOptions;
  serves?: AliasServes;
}

/**
 * Another spelling of the path `url` ends with (`tail`, e.g. /pets/5): a trailing slash, its first
 * segment upper case, a doubled slash before it, its first letter percent-encoded (a router decodes
 * it; a check of the raw path does not), a query the operation does not name (a check of the
 * whole request target misses it), a `.json` format suffix (Rails, Spring's suffix pattern
 * matching) and a `;x=1` matrix parameter (a servlet container drops it before routing).
 */
function spellings(url: string, tail: string, shownBase: string): { alias: string; url: string }[] {
  const base = url.slice(0, url.length - tail.length);
  const [first = '', ...rest] = tail.slice(1).split('/');
  const after = rest.map((segment) => `/${segment}`).join('');
  const encoded = `${firstPercentEncoded(first)}${after}`;
  return [
    { alias: `${shownBase}${tail}/`, url: `${url}/` },
    { alias: `${shownBase}/${first.toUpperCase()}${after}`, url: `${base}/${first.toUpperCase()}${after}` },
    { alias: `${shownBase}/${tail}`, url: `${base}/${tail}` },
    { alias: `${shownBase}/${encoded}`, url: `${base}/${encoded}` },
    { alias: `${shownBase}${tail}?${ALIAS_QUERY}`, url: `${url}?${ALIAS_QUERY}` },
    { alias: `${shownBase}${tail}.json`, url: `${url}.json` },
    { alias: `${shownBase}${tail};${ALIAS_MATRIX_PARAMETER}`, url: `${url};${ALIAS_MATRIX_PARAMETER}` },
  ];
}

/**
 * The main host's path on the message host, for a router both listeners share with the
 * authentication check mounted on one: none when no message host is configured or it is the same URL.
 */
function onMessageHost(s: Scenario, method: string, path: string): { alias: string; url: string }[] {
  const base = s.config.messagesBaseUrl;
  // --skip sendMessage sends the message host nothing.
  if (base === undefined || s.config.skip.includes('sendMessage') || `${base}${path}` === `${s.config.baseUrl}${path}`) return [];
  return [{ alias: `${method} ${path} on the message host`, url: `${base}${path}` }];
}

/** A parameter no operation names. */
const ALIAS_QUERY = 'via=alias';
/** A path parameter (RFC 3986 §3.3) no operation names. */
const ALIAS_MATRIX_PARAMETER = 'x=1';

/** Sends each probe without credentials and judges what it got: whatever a server answers an alias it does not serve (a reset, HTML, no Error) fixes nothing. */
async function sendAliases(s: Scenario, probes: readonly AliasProbe[]): Promise<void> {
  for (const probe of probes) {
    const exchange = await s.send(probe.operationId, { ...probe.request, url: probe.url, method: probe.method ?? probe.request?.method, authorization: null });
    if (!exchange.failure) s.verify(exchange, { 'auth.required': { alias: probe.alias, ...(probe.serves ? { serves: probe.serves } : {}) } }, { common: false });
  }
}
