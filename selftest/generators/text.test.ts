/** generators/text.ts: which names and message texts every server must take, and why the others may be refused. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coreMessage, coreName, EDGE_MESSAGES, MESSAGE_LENGTH, messageEdge, NAME_LENGTH, nameEdge, newMessage } from '../../generators/index.ts';
import { makeEnv, SEED } from './helpers.ts';

describe('nameEdge', () => {
  it.each([['Rex'], ['Fluffy Tiger'], ['rex'], ['Old Tom Cat'], ['x'.repeat(NAME_LENGTH.max)], ['abc']])('takes %j as core', (name) => {
    expect(nameEdge(name)).toBeUndefined();
  });

  it.each([
    ['', 'empty', false],
    ['x'.repeat(NAME_LENGTH.max + 1), `over ${NAME_LENGTH.max} characters`, true],
    ['Bo', `under ${NAME_LENGTH.min} characters`, false],
    ['Ünïcödé', 'characters other than ASCII letters and single spaces', false],
    ['Cat 🐈', 'characters other than ASCII letters and single spaces', false],
    ['名前です', 'characters other than ASCII letters and single spaces', false],
    ['Rex the 2nd', 'characters other than ASCII letters and single spaces', false],
    ["O'Malley", 'characters other than ASCII letters and single spaces', false],
    ['Old  Tom', 'characters other than ASCII letters and single spaces', false],
    ['a\u0000b', 'a NUL character', false],
    ['lone \ud800 surrogate', 'a lone surrogate', false],
    ['lone \udc00', 'a lone surrogate', false],
    ['line\nbreak', 'a control character', false],
    ['black cat 🐈\u200d⬛', 'a format, private-use or unassigned character', false],
    ['private \ue000', 'a format, private-use or unassigned character', false],
    [' ', 'blank or padded with white space', false],
    ['  padded  ', 'blank or padded with white space', false],
  ])('refusable: %j (%s)', (name, why, tooLong) => {
    expect(nameEdge(name)).toEqual({ why, tooLong });
  });

  it('counts code points, not UTF-16 units', () => {
    expect(nameEdge('🐈'.repeat(NAME_LENGTH.max))?.tooLong).toBe(false);
    expect(nameEdge('🐈'.repeat(NAME_LENGTH.max + 1))?.tooLong).toBe(true);
  });

  it('coreName draws only core names, of every length the core allows (2000 draws)', () => {
    const draws = fc.sample(coreName(), { seed: SEED, numRuns: 2000 });
    for (const name of draws) expect(nameEdge(name), name).toBeUndefined();
    expect(new Set(draws.map((name) => name.length)).size).toBe(NAME_LENGTH.max - NAME_LENGTH.min + 1);
  });
});

describe('messageEdge', () => {
  it.each([['Hi'], ['x'], ['Is Rex still available? Call me at 5pm: +1 (555) 010-0199.'], ['"quoted" \\ /'], ['m'.repeat(MESSAGE_LENGTH)]])('takes %j as core', (text) => {
    expect(messageEdge(text)).toBeUndefined();
  });

  it.each([
    ['', 'empty', false],
    ['m'.repeat(MESSAGE_LENGTH + 1), `over ${MESSAGE_LENGTH} characters`, true],
    ['Ünïcödé 🐈 名前', 'characters other than printable ASCII and single spaces', false],
    ['two  spaces', 'characters other than printable ASCII and single spaces', false],
    ['a\u0000b', 'a NUL character', false],
    ['line\nbreak', 'a control character', false],
    ['  padded  ', 'blank or padded with white space', false],
  ])('refusable: %j (%s)', (text, why, tooLong) => {
    expect(messageEdge(text)).toEqual({ why, tooLong });
  });

  it('coreMessage draws only core texts (1000 draws)', () => {
    for (const text of fc.sample(coreMessage(), { seed: SEED, numRuns: 1000 })) expect(messageEdge(text), text).toBeUndefined();
  });

  it('newMessage draws about half its texts from the core, so the 2xx requirement is tried often (1000 draws)', async () => {
    const { contract } = await makeEnv();
    const core = fc.sample(newMessage(contract), { seed: SEED, numRuns: 1000 }).filter((m) => messageEdge(m.message) === undefined).length;
    expect(core).toBeGreaterThan(400);
    expect(core).toBeLessThan(800);
  });

  it('EDGE_MESSAGES hold the longest core text and refusable ones', () => {
    expect(EDGE_MESSAGES.filter((m) => messageEdge(m.message) === undefined).map((m) => m.message.length)).toContain(MESSAGE_LENGTH);
    const edges = EDGE_MESSAGES.map((m) => messageEdge(m.message)?.why);
    for (const why of ['empty', `over ${MESSAGE_LENGTH} characters`, 'a NUL character', 'a lone surrogate', 'characters other than printable ASCII and single spaces']) expect(edges).toContain(why);
  });
});
