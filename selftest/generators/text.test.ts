/** generators/text.ts: which strings every server must take, and why the others may be refused. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyString, CORE_LENGTH, EDGE_MESSAGES, textEdge } from '../../generators/index.ts';
import { SEED } from './helpers.ts';

describe('textEdge', () => {
  it.each([['Rex'], ['Ünïcödé 🐈 名前'], ['"quoted" \\ /'], ['Rex the 2nd'], ['x'.repeat(CORE_LENGTH)], ['🐈'.repeat(CORE_LENGTH)]])('takes %j as core', (text) => {
    expect(textEdge(text)).toBeUndefined();
  });

  it.each([
    ['', 'empty', false],
    ['x'.repeat(CORE_LENGTH + 1), `over ${CORE_LENGTH} characters`, true],
    ['a\u0000b', 'a NUL character', false],
    ['lone \ud800 surrogate', 'a lone surrogate', false],
    ['lone \udc00', 'a lone surrogate', false],
    ['line\nbreak', 'a control character', false],
    ['black cat 🐈\u200d⬛', 'a format, private-use or unassigned character', false],
    ['private \ue000', 'a format, private-use or unassigned character', false],
    [' ', 'blank or padded with white space', false],
    ['  padded  ', 'blank or padded with white space', false],
  ])('refusable: %j (%s)', (text, why, tooLong) => {
    expect(textEdge(text)).toEqual({ why, tooLong });
  });

  it('counts code points, not UTF-16 units', () => {
    expect(textEdge('🐈'.repeat(CORE_LENGTH))).toBeUndefined();
    expect(textEdge('🐈'.repeat(CORE_LENGTH + 1))?.tooLong).toBe(true);
  });

  it('leaves about half of anyString() in the core, so the 201 requirement is tried often (1000 draws)', () => {
    const draws = fc.sample(anyString(), { seed: SEED, numRuns: 1000 });
    const core = draws.filter((text) => textEdge(text) === undefined).length;
    expect(core).toBeGreaterThan(400);
    expect(core).toBeLessThan(900);
  });

  it('EDGE_MESSAGES hold core and refusable texts', () => {
    const edges = EDGE_MESSAGES.map((m) => textEdge(m.message)?.why);
    expect(edges).toContain(undefined);
    for (const why of ['empty', `over ${CORE_LENGTH} characters`, 'a NUL character', 'a lone surrogate']) expect(edges).toContain(why);
  });
});
