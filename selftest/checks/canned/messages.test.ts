import { describe, expect, it } from 'vitest';
import { getCheck } from '../../../src/checks/registry.ts';
import { exchange, messageBody } from '../helpers.ts';
import { judgeEnv } from './canned.ts';

// The messages checks' own cases are in src/checks/messages.ts (run by cases.test.ts).
describe('regressions', () => {
  // Date.parse rolls 30 February over to 2 March; the check must not.
  // A service may take a repeated submission as the one before (§4.5 says nothing of duplicates): its status and createdAt are that one's.
  it('messages.status-queued and created-at-recent leave out an answer showing the message given before for the same text, not one for another text', () => {
    const env = { ...judgeEnv(), messageIds: new Map<string, string>() };
    const answer = (text: string, status: string, createdAt: string) => {
      const ex = exchange(202, messageBody({ id: 'msg_r', message: text, status, createdAt }));
      return { ...ex, operationId: 'sendMessage', sentAt: Date.parse('2026-11-22T10:30:00Z'), request: { ...ex.request, method: 'POST', body: JSON.stringify({ message: text }) } };
    };
    const outcomes = (ex: ReturnType<typeof answer>) => ['messages.id-unique', 'messages.status-queued', 'messages.created-at-recent'].map((name) => getCheck(name).judge(ex, { env }).outcome);
    // The first answer judged status first: which check sees an id first does not matter.
    const first = answer('hi', 'queued', '2026-11-22T10:30:00Z');
    expect(getCheck('messages.status-queued').judge(first, { env }).outcome).toBe('pass');
    expect(outcomes(first)).toEqual(['pass', 'pass', 'pass']);
    expect(outcomes(answer('hi', 'sent', '2026-11-22T10:00:00Z'))).toEqual(['pass', 'n/a', 'n/a']);
    expect(outcomes(answer('other', 'sent', '2026-11-22T10:00:00Z'))).toEqual(['fail', 'fail', 'fail']);
  });

  it('messages.created-at fails createdAt 2026-02-30T10:00:00Z', () => {
    const ex = exchange(202, messageBody({ createdAt: '2026-02-30T10:00:00Z' }));
    expect(getCheck('messages.created-at').judge(ex, { env: judgeEnv() }).outcome).toBe('fail');
  });
});
