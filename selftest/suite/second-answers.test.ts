// Which exchanges marked answered again a scenario judges as it ends: its own, those no running
// scenario holds (the answer came after their scenario ended), none twice.

import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/http/exchange.ts';
import { SecondAnswers } from '../../src/suite/second-answers.ts';
import { exchange } from '../checks/helpers.ts';

const marked = (): Exchange => ({ ...exchange(200, []), answeredAgain: { afterMs: 1, lastBytes: 'HTTP/1.1 404 Not Found\r\n\r\n' } });

describe('SecondAnswers', () => {
  it("a scenario judges its own marked exchanges, and another's only once that one has ended without judging it", () => {
    const book = new SecondAnswers();
    const a = { answeredAgain: [] as Exchange[] };
    const b = { answeredAgain: [] as Exchange[] };
    book.started(a);
    book.started(b);
    const ofA = marked();
    const ofB = marked();
    a.answeredAgain.push(ofA);
    b.answeredAgain.push(ofB);
    const all = [ofA, ofB];
    // A ends first: its own, not B's (B is running and will judge its own).
    book.ended(a);
    expect(book.due(a, all)).toEqual([ofA]);
    // One of A's requests is marked after A ended: B, ending next, judges it with its own.
    const late = marked();
    a.answeredAgain.push(late);
    all.push(late);
    book.ended(b);
    expect(book.due(b, all)).toEqual([ofB, late]);
  });

  it('an exchange already judged while marked is not judged again', () => {
    const book = new SecondAnswers();
    const a = { answeredAgain: [] as Exchange[] };
    book.started(a);
    const judged = marked();
    a.answeredAgain.push(judged);
    book.judgedMarked(judged);
    book.ended(a);
    expect(book.due(a, [judged])).toEqual([]);
  });
});
