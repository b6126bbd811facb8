/**
 * The calls a sequence is made of, as plain data (a regression file holds them as JSON), and the
 * arbitraries that draw them from the existing generators. Failed calls are drawn as much as
 * successful ones: a bug often lives in what a failure leaves behind.
 */
import fc from 'fast-check';
import { coreMessage, coreNewPet, invalidMessageCases, invalidNewPet, validQuery, type QueryInput } from '../../../generators/index.ts';
import type { Contract } from '../../../src/contract/model.ts';
import { stringifyJson } from '../../../src/json/lossless.ts';
import type { CategoryId } from '../categories.ts';

/** valid: `Bearer <API_KEY>`; none: no Authorization; wrong: the key with a character added. */
export type Auth = 'valid' | 'none' | 'wrong';

export type Call =
  | { kind: 'create'; input: Record<string, unknown>; auth: Auth; says: string }
  | { kind: 'create-invalid'; rule: string; body: string | undefined; contentType: string | null; says: string }
  | { kind: 'list'; query: string; limit?: number; status?: string; auth: Auth; says: string }
  /** The animal of the sequence's `pick`-th most recent create (modulo how many there are): 0 is the latest. */
  | { kind: 'get-created'; pick: number; auth: Auth; says: string }
  /** The highest id the run was given so far, plus `offset`: an id no animal may have yet. */
  | { kind: 'get-near'; offset: number; says: string }
  | { kind: 'get-malformed'; id: string; says: string }
  /**
   * Two calls back to back, where the first is known to leave state behind for the second: a call
   * refused (for its key or its body), then one of the same operation served; a fetch of the next id
   * before an animal has it, then a create (a 404 cached past the write that made it wrong).
   */
  | { kind: 'pair'; first: Call; second: Call; says: string }
  /** Every animal the sequence created, by id: run after each sequence. */
  | { kind: 'get-every-created'; says: string }
  | { kind: 'message'; text: string; auth: Auth; says: string }
  | { kind: 'message-invalid'; rule: string; body: string | undefined; contentType: string | null; says: string };

/** Not one of them is a decimal int64. */
const MALFORMED_IDS = ['abc', '1.5', '9223372036854775808', '12abc'];

/** Each call that carries a key comes in two kinds, so a sequence's swarm (src/suite/sequence.ts) takes refusals or not: under the valid key, and under none or a wrong one. */
const VALID: fc.Arbitrary<Auth> = fc.constant('valid');
const REFUSED: fc.Arbitrary<Auth> = fc.constantFrom<Auth>('none', 'wrong');

function authWords(auth: Auth): string {
  return auth === 'valid' ? '' : auth === 'none' ? ' without Authorization' : ' with a wrong key';
}

/** What every sequence ends with: the model's last look at the animals it created. */
export const FINALLY: Call = { kind: 'get-every-created', says: 'finally, fetch by id every animal this sequence created' };

/** Each kind of call, drawn from the generators; messages only where the message host is configured. */
export function callArbitraries(contract: Contract, categoryIds: readonly CategoryId[], messages: boolean): fc.Arbitrary<Call>[] {
  const create = (auth: fc.Arbitrary<Auth>) =>
    fc.tuple(coreNewPet(contract, categoryIds), auth).map(([input, auth]): Call => ({ kind: 'create', input, auth, says: `create ${stringifyJson(input)}${authWords(auth)}` }));
  const list = (auth: fc.Arbitrary<Auth>, queries: fc.Arbitrary<QueryInput> = validQuery(contract)) =>
    fc.tuple(queries, auth).map(([query, auth]): Call => ({
      kind: 'list',
      query: query.text,
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      ...(query.status === undefined ? {} : { status: query.status }),
      auth,
      says: `list${query.text ? ` ?${query.text}` : ' (no query)'}${authWords(auth)}`,
    }));
  const getCreated = (auth: fc.Arbitrary<Auth>) =>
    fc.tuple(fc.nat({ max: 4 }), auth).map(([pick, auth]): Call => ({ kind: 'get-created', pick, auth, says: `fetch by id the animal created ${pick === 0 ? 'last' : `${pick + 1}th from last (modulo the creates so far)`}${authWords(auth)}` }));
  const message = (auth: fc.Arbitrary<Auth>) =>
    fc.tuple(coreMessage(), auth).map(([text, auth]): Call => ({ kind: 'message', text, auth, says: `send the message ${stringifyJson(text)}${authWords(auth)}` }));
  // Far from the target other lanes create side by side and take the next ids first: an id well
  // ahead is still free when fetched, and one of them creates it later.
  const nextId = fc
    .oneof({ arbitrary: fc.constant(1), weight: 3 }, { arbitrary: fc.constant(2), weight: 1 }, { arbitrary: fc.constant(32), weight: 1 })
    .map((offset): Call => ({ kind: 'get-near', offset, says: `fetch the id ${offset} past the highest the run was given` }));
  const invalidCreate = invalidNewPet(contract, categoryIds).map(({ rule, body, contentType }): Call => ({ kind: 'create-invalid', rule, body, contentType, says: `create with an invalid NewPet (${rule})` }));
  const pair = (first: fc.Arbitrary<Call>, second: fc.Arbitrary<Call>) =>
    fc.tuple(first, second).map(([a, b]): Call => ({ kind: 'pair', first: a, second: b, says: `${a.says}, then ${b.says}` }));
  const refusedThenServed = (of: (auth: fc.Arbitrary<Auth>) => fc.Arbitrary<Call>) =>
    pair(of(REFUSED), of(VALID));
  const calls: fc.Arbitrary<Call>[] = [
    create(VALID),
    create(REFUSED),
    invalidCreate,
    pair(invalidCreate, create(VALID)),
    list(VALID),
    list(REFUSED),
    getCreated(VALID),
    getCreated(REFUSED),
    refusedThenServed(create),
    // The served listing often takes every default: what a refusal leaves behind shows there.
    pair(list(REFUSED), list(VALID, fc.oneof(fc.constant<QueryInput>({ text: '' }), validQuery(contract)))),
    pair(nextId, create(VALID)),
    nextId,
    fc.constantFrom(...MALFORMED_IDS).map((id): Call => ({ kind: 'get-malformed', id, says: `fetch the malformed id ${id}` })),
  ];
  if (!messages) return calls;
  const invalid = invalidMessageCases(contract).filter((c) => c.clause === 'messages.invalid-400');
  const invalidMessage = fc
    .oneof(...invalid.map((c) => c.arbitrary))
    .map(({ rule, body, contentType }): Call => ({ kind: 'message-invalid', rule, body, contentType, says: `send an invalid message (${rule})` }));
  return [
    ...calls,
    message(VALID),
    message(REFUSED),
    refusedThenServed(message),
    invalidMessage,
    pair(invalidMessage, message(VALID)),
  ];
}
