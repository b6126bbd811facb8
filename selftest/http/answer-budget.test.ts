import { describe, expect, it } from 'vitest';
import { AnswerBudget, UNKNOWN_ANSWER_BYTES } from '../../src/http/answer-budget.ts';

const MB = 1024 * 1024;
const ORIGIN = 'http://127.0.0.1:8080';
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Asks for `count` reservations of the operation at once: those that started, and each one's settle once it has. */
function ask(budget: AnswerBudget, count: number, operation = 'listPets') {
  const started: ((bytes?: number) => void)[] = [];
  for (let i = 0; i < count; i++) void budget.reserve(ORIGIN, operation).then((room) => started.push(room.settle));
  return started;
}

describe('AnswerBudget: the bytes of answers in flight at once', () => {
  it('holds back nothing where answers are small: a hundred of 2 KB go at once', async () => {
    const budget = new AnswerBudget(16 * MB, 4 * MB);
    const first = await budget.reserve(ORIGIN, 'listPets');
    first.settle(2048);
    const started = ask(budget, 100);
    await tick();
    expect(started).toHaveLength(100);
    expect(budget.held()).toEqual({ requests: 100, bytes: 100 * 2048 });
  });

  it.each([
    { answers: '4 MB', bytes: 4 * MB, first: 4 },
    // One answer past the budget: one at a time, never none.
    { answers: '40 MB', bytes: 40 * MB, first: 1 },
  ])('lets as many answers of $answers go as the budget holds, and the next once one has come', async ({ bytes, first }) => {
    const budget = new AnswerBudget(16 * MB, 64 * MB);
    (await budget.reserve(ORIGIN, 'listPets')).settle(bytes);
    const started = ask(budget, 10);
    await tick();
    expect(started).toHaveLength(first);
    started[0]!(bytes);
    await tick();
    expect(started).toHaveLength(first + 1);
    expect(budget.held().requests).toBe(first);
  });

  it('takes an operation not yet answered for the largest its origin has answered, then for its own', async () => {
    const budget = new AnswerBudget(16 * MB, 8 * MB);
    (await budget.reserve(ORIGIN, 'listPets')).settle(8 * MB);
    expect(budget.expected(ORIGIN, 'createPet')).toBe(8 * MB);
    (await budget.reserve(ORIGIN, 'createPet')).settle(100);
    expect(budget.expected(ORIGIN, 'createPet')).toBe(100);
    expect(budget.expected('http://127.0.0.1:8081', 'sendMessage')).toBe(UNKNOWN_ANSWER_BYTES);
  });

  it('takes an operation not yet answered for UNKNOWN_ANSWER_BYTES at least, where its origin has given only small answers', async () => {
    const budget = new AnswerBudget(16 * MB, 8 * MB);
    (await budget.reserve(ORIGIN, 'createPet')).settle(200);
    (await budget.reserve(ORIGIN, 'headPets')).settle(0);
    expect(budget.expected(ORIGIN, 'listPets')).toBe(UNKNOWN_ANSWER_BYTES);
    expect(ask(budget, 64)).toHaveLength(0);
    await tick();
    expect(budget.held().requests).toBe(16 * MB / UNKNOWN_ANSWER_BYTES);
  });

  it('starts a critical request before the others waiting, as a slot does', async () => {
    const budget = new AnswerBudget(16 * MB, 16 * MB);
    (await budget.reserve(ORIGIN, 'listPets')).settle(16 * MB);
    const order: string[] = [];
    const first = await budget.reserve(ORIGIN, 'listPets');
    for (const name of ['a', 'b']) void budget.reserve(ORIGIN, 'listPets').then((room) => (order.push(name), room));
    void budget.reserve(ORIGIN, 'listPets', true).then((room) => (order.push('critical'), room.settle(16 * MB)));
    first.settle(16 * MB);
    await tick();
    expect(order[0]).toBe('critical');
  });

  it('lets sixteen go to an origin that has answered nothing yet, fewer where --max-body caps an answer lower', async () => {
    const unknown = ask(new AnswerBudget(16 * MB, 4 * MB), 40);
    await tick();
    expect(unknown).toHaveLength(16 * MB / UNKNOWN_ANSWER_BYTES);
    const capped = ask(new AnswerBudget(16 * MB, 64 * 1024), 400);
    await tick();
    expect(capped).toHaveLength(256);
  });

  it('starts the waiting in turn: a small one behind a big one waits for it', async () => {
    const budget = new AnswerBudget(16 * MB, 16 * MB);
    (await budget.reserve(ORIGIN, 'listPets')).settle(12 * MB);
    (await budget.reserve(ORIGIN, 'getPet')).settle(1024);
    const order: string[] = [];
    const big = await budget.reserve(ORIGIN, 'listPets');
    void budget.reserve(ORIGIN, 'listPets').then((room) => (order.push('listPets'), room));
    void budget.reserve(ORIGIN, 'getPet').then(() => order.push('getPet'));
    await tick();
    expect(order).toEqual([]);
    big.settle(12 * MB);
    await tick();
    expect(order).toEqual(['listPets', 'getPet']);
  });

  it('lets the room go once however often settle is called, and learns nothing from an answer that did not come', async () => {
    const budget = new AnswerBudget(16 * MB, 8 * MB);
    const room = await budget.reserve(ORIGIN, 'listPets');
    room.settle();
    room.settle(8 * MB);
    expect(budget.held()).toEqual({ requests: 0, bytes: 0 });
    expect(budget.expected(ORIGIN, 'listPets')).toBe(UNKNOWN_ANSWER_BYTES);
  });
});
