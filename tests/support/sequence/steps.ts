/**
 * What each call of a sequence sends, how its answer is judged, and what the model keeps of it.
 *
 * The model holds what this sequence did and saw, never what the shared store must hold: other
 * clients add animals, another system may move a status (§3: "Transitions: not shown"), reads may
 * trail writes, a listing's order is not stated and a page may hold fewer than `limit`. So a listing
 * is never required to hold an animal; what is required is judged by the existing clauses on every
 * answer (whatever came before it), and by two that only a sequence can show: an id once given keeps
 * naming its animal (state.id-keeps-naming), and a created animal gets no id the sequence saw another
 * animal hold (state.id-fresh).
 */
import fc from 'fast-check';
import { coreNewPet, withoutValidKey } from '../../../generators/index.ts';
import type { CreatedAnimal } from '../../../src/checks/state.ts';
import { jsonObject, type Exchange } from '../../../src/http/exchange.ts';
import { stringifyJson } from '../../../src/json/lossless.ts';
import { fetchShownPet } from '../../../src/suite/read-lag.ts';
import type { Judgements, Scenario, SendOptions, SequenceStep } from '../../../src/suite/scenario.ts';
import { categoryBasis, type KnownCategories } from '../categories.ts';
import { createdBody, listed, petIdText } from '../store.ts';
import type { Auth, Call } from './calls.ts';

/** The checks a sequence's steps judge besides the common ones (messages' where the host is configured). */
export const SEQUENCE_CHECKS = [
  'state.id-keeps-naming',
  'state.id-fresh',
  'create.201-pet',
  'create.echo',
  'create.invalid-400',
  'list.200-pets',
  'list.limit-max',
  'list.limit-default',
  'list.limit-respected',
  'list.status-filter',
  'get.malformed-id',
  'auth.required',
] as const;

export interface Model {
  /** The animals this sequence created, as their 201 showed them, in order. */
  created: CreatedAnimal[];
  /** Ids the sequence saw naming an animal it did not create, with where. */
  seen: Map<string, string>;
  /** The step running now (1-based). */
  step: number;
}

/** What the lanes of one run of the sequences share: the ids a GET found no animal under (404), and those the sequences created. */
export interface Lanes {
  absent: Set<string>;
  created: Set<string>;
}

export function newLanes(): Lanes {
  return { absent: new Set(), created: new Set() };
}

export function newModel(): Model {
  return { created: [], seen: new Map(), step: 0 };
}

/** The Authorization a call is sent with (undefined: the valid key), and the auth.required variant it is judged as. */
function authorization(s: Scenario, auth: Auth): Pick<SendOptions, 'authorization'> & { variant?: string } {
  if (auth === 'valid') return {};
  const [absent, suffixed] = withoutValidKey(s.config.apiKey);
  const chosen = auth === 'none' ? absent! : suffixed!;
  return { authorization: chosen.authorization, variant: chosen.id };
}

/** The highest id the run was given (this sequence's creations among them): other lanes and scenarios may have created since. */
function highestId(s: Scenario, model: Model): bigint {
  return model.created.reduce((max, animal) => (BigInt(animal.id) > max ? BigInt(animal.id) : max), s.ctx.createdAnimals.highest);
}

function remember(model: Model, pet: Record<string, unknown>, where: string): void {
  const id = petIdText(pet);
  if (id === undefined || model.created.some((animal) => animal.id === id)) return;
  if (!model.seen.has(id)) model.seen.set(id, `${where} at step ${model.step} as ${stringifyJson(pet.name)} (categoryId ${String(pet.categoryId)})`);
}

/** Whether a call can be made now: a fetch of what the sequence created needs a create before it, and getPet before its removal. */
function applies(call: Call, model: Readonly<Model>, readable: boolean): boolean {
  switch (call.kind) {
    case 'pair':
      return applies(call.first, model, readable) && applies(call.second, model, readable);
    case 'get-created':
    case 'get-near':
    case 'get-every-created':
      return readable && model.created.length > 0;
    case 'get-malformed':
      return readable;
    default:
      return true;
  }
}

/** One call as a step of a sequence, against this scenario and the categoryIds known to be taken. */
export function stepOf(s: Scenario, known: KnownCategories, call: Call, lanes: Lanes): SequenceStep<Model> {
  const readable = !s.isRemoved('getPet');
  return {
    call,
    check(model) {
      return applies(call, model, readable);
    },
    async run(model, story) {
      model.step++;
      const send = async (operationId: string, options: SendOptions): Promise<Exchange> => story.record(await s.send(operationId, options));
      await runCall(s, known, call, model, send, readable, lanes);
    },
  };
}

type Send = (operationId: string, options: SendOptions) => Promise<Exchange>;

async function runCall(s: Scenario, known: KnownCategories, call: Call, model: Model, send: Send, readable: boolean, lanes: Lanes): Promise<void> {
  switch (call.kind) {
    case 'create': {
      const { variant, ...auth } = authorization(s, call.auth);
      const exchange = await send('createPet', { body: stringifyJson(call.input), ...auth });
      if (variant) return s.require(exchange, { 'auth.required': { variant } });
      const judgements: Judgements = {
        'create.201-pet': { category: categoryBasis(known, call.input.categoryId) },
        'create.echo': { input: call.input },
        'state.id-fresh': { taken: model.seen },
      };
      s.require(exchange, judgements);
      const body = createdBody(exchange);
      const id = petIdText(body);
      if (!body || id === undefined || typeof body.name !== 'string') return;
      const created: CreatedAnimal = { id, name: body.name, categoryId: String(body.categoryId) };
      model.created.push(created);
      lanes.created.add(id);
      if (readable) await fetchCreated(s, created, send, true);
      return;
    }
    case 'create-invalid':
      return s.require(await send('createPet', { body: call.body, contentType: call.contentType }), { 'create.invalid-400': { rule: call.rule } });
    case 'list': {
      const { variant, ...auth } = authorization(s, call.auth);
      const exchange = await send('listPets', { query: call.query, ...auth });
      if (variant) return s.require(exchange, { 'auth.required': { variant } });
      const judgements: Judgements = { 'list.200-pets': {}, 'list.limit-max': { query: call.query ? `?${call.query}` : 'no query' } };
      if (call.limit === undefined) judgements['list.limit-default'] = {};
      else judgements['list.limit-respected'] = { limit: call.limit };
      if (call.status !== undefined) judgements['list.status-filter'] = { status: call.status };
      s.require(exchange, judgements);
      for (const pet of listed(exchange) ?? []) remember(model, pet, 'was listed');
      return;
    }
    case 'get-created': {
      const created = model.created[model.created.length - 1 - (call.pick % model.created.length)]!;
      const { variant, ...auth } = authorization(s, call.auth);
      if (variant) return s.require(await send('getPet', { path: { petId: created.id }, ...auth }), { 'auth.required': { variant } });
      return fetchCreated(s, created, send, false);
    }
    case 'get-near': {
      const id = String(highestId(s, model) + BigInt(call.offset));
      const exchange = await send('getPet', { path: { petId: id } });
      s.require(exchange, {});
      const pet = exchange.response?.status === 200 ? jsonObject(exchange) : undefined;
      if (pet && petIdText(pet) === id) remember(model, pet, `was shown by GET /pets/${id}`);
      if (exchange.response?.status === 404) lanes.absent.add(id);
      return;
    }
    case 'pair':
      await runCall(s, known, call.first, model, send, readable, lanes);
      return runCall(s, known, call.second, model, send, readable, lanes);
    case 'get-every-created':
      // Independent reads: near the target in turn, far from it side by side.
      return s.forEach(model.created, (created) => fetchCreated(s, created, send, false));
    case 'get-malformed':
      return s.require(await send('getPet', { path: { petId: call.id } }), { 'get.malformed-id': { id: call.id } });
    case 'message': {
      const { variant, ...auth } = authorization(s, call.auth);
      const exchange = await send('sendMessage', { body: stringifyJson({ message: call.text }), ...auth });
      if (variant) return s.require(exchange, { 'auth.required': { variant } });
      return s.require(exchange, { 'messages.accepted': {}, 'messages.echo': { text: call.text } });
    }
    case 'message-invalid':
      return s.require(await send('sendMessage', { body: call.body, contentType: call.contentType }), { 'messages.invalid-400': { rule: call.rule } });
  }
}

/** GET of an animal the sequence created, a 404 tried again while it may be read lag (src/suite/read-lag.ts). */
async function fetchCreated(s: Scenario, created: CreatedAnimal, send: Send, fresh: boolean): Promise<void> {
  const fetched = await fetchShownPet(s.ctx, () => send('getPet', { path: { petId: created.id } }), { fresh });
  s.require(fetched.exchange, { 'state.id-keeps-naming': { created } });
}

/** Ids looked up at once, past the highest the run was given, once every lane is done (see fetchTakenLater), and how many times. */
const LOOKED_UP_AT_ONCE = 4;
const LOOK_UP_ROUNDS = 4;

/**
 * Once every lane is done: each animal the run created under an id a sequence had found free (a 404
 * then), fetched by id (those a sequence created, it fetched itself). Far from the target the lanes
 * and scenarios side by side take those ids, often after the sequence that looked has ended, and the
 * lanes' looks mostly find ids already taken by creations still in flight. So it also looks up the
 * ids past the highest the run was given, a few at a time, until one is free, and creates animals
 * until that one is given (where ids are handed out in turn): a server that caches a 404 past the
 * write that made it wrong then answers 404 for an animal the run created.
 */
export async function fetchTakenLater(s: Scenario, known: KnownCategories, lanes: Lanes): Promise<void> {
  if (s.isRemoved('getPet')) return;
  const created = s.ctx.createdAnimals;
  let free = 0n;
  for (let round = 0, from = created.highest; round < LOOK_UP_ROUNDS && from > 0n && free === 0n; round++, from += BigInt(LOOKED_UP_AT_ONCE)) {
    const ids = Array.from({ length: LOOKED_UP_AT_ONCE }, (_, i) => from + BigInt(i + 1));
    await s.forEach(ids, async (id) => {
      const exchange = await s.send('getPet', { path: { petId: String(id) } });
      s.verify(exchange, {});
      if (exchange.response?.status !== 404) return;
      lanes.absent.add(String(id));
      if (free === 0n || id < free) free = id;
    });
  }
  const count = Number(free - created.highest);
  if (free > 0n && count > 0) {
    const inputs = fc.sample(coreNewPet(s.contract, known.ids), { seed: s.config.seed, numRuns: count });
    await s.forEach(inputs, async (input) => {
      s.verify(await s.send('createPet', { body: stringifyJson(input) }), { 'create.201-pet': { category: categoryBasis(known, input.categoryId) }, 'create.echo': { input } });
    });
  }
  const taken = [...lanes.absent].filter((id) => !lanes.created.has(id)).flatMap((id) => created.get(id) ?? []);
  await s.forEach(taken, async (animal) => {
    const fetched = await fetchShownPet(s.ctx, () => s.send('getPet', { path: { petId: animal.id } }));
    s.verify(fetched.exchange, { 'state.id-keeps-naming': { created: animal } });
  });
}
