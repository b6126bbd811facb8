import { describe, expect, it } from 'vitest';
import { FAMILIES, getCheck } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed, messageBody, NOW } from '../helpers.ts';
import { cannedTests, judgeEnv, type FamilyTable } from './canned.ts';

const LONG_NAME = { why: 'over 50 characters', tooLong: true };
const EMPTY_TEXT = { why: 'empty', tooLong: false };

const TABLE: FamilyTable<typeof FAMILIES.messages> = {
  'messages.accepted': {
    ctx: {},
    pass: [
      { why: 'a 200 with a full body', ex: exchange(200, messageBody()) },
      { why: 'a 201 with a full body', ex: exchange(201, messageBody()) },
      { why: 'a 202 with a full body', ex: exchange(202, messageBody()) },
      { why: 'a malformed createdAt (judged by messages.created-at)', ex: exchange(202, messageBody({ createdAt: 'nope' })) },
      { why: 'a 400 refusing an empty text', ex: exchange(400, errorBody(400)), ctx: { refusable: EMPTY_TEXT } },
      { why: 'a 413 refusing a long text', ex: exchange(413, errorBody(413)), ctx: { refusable: LONG_NAME } },
    ],
    fail: [
      { why: 'a 200 {}', ex: exchange(200, {}), actual: /required property/ },
      { why: 'a 202 without id', ex: exchange(202, { message: 'hi', status: 'queued', createdAt: '2026-11-22T10:00:00Z' }) },
      { why: 'id as a number', ex: exchange(201, messageBody({ id: 17 })) },
      { why: 'an empty 204', ex: exchange(204) },
      { why: 'a 400', ex: exchange(400, errorBody(400)), actual: /^400/ },
      { why: 'a 413 refusing an empty text (not a size)', ex: exchange(413, errorBody(413)), ctx: { refusable: EMPTY_TEXT }, actual: /^413/ },
      { why: 'a 500 for an empty text', ex: exchange(500, errorBody(500)), ctx: { refusable: EMPTY_TEXT } },
    ],
  },
  'messages.text-constraints': {
    ctx: { refusable: EMPTY_TEXT },
    na: [
      { why: 'a 500', ex: exchange(500, errorBody(500)) },
      { why: 'a transport failure', ex: failed() },
      { ctx: { text: 'A\u030A' }, why: 'the text back as sent', ex: exchange(202, messageBody({ message: 'A\u030A' })) },
      { ctx: { text: 'A\u030A' }, why: 'a 400', ex: exchange(400, errorBody(400)) },
    ],
    observe: [
      { why: 'a 202', ex: exchange(202, messageBody({ message: '' })), value: 'message empty: accepted (202)' },
      { why: 'a 400', ex: exchange(400, errorBody(400)), value: 'message empty: refused (400)' },
      { ctx: { text: 'A\u030A' }, why: 'A U+030A back as U+00C5', ex: exchange(202, messageBody({ message: '\u00C5' })), value: 'message returned normalised to Unicode NFC (canonically equivalent to the one sent)' },
    ],
  },
  'messages.id-unique': {
    ctx: { text: 'hello', seen: new Map([['msg_1', 'earlier text']]) },
    pass: [
      { why: 'a new id', ex: exchange(202, messageBody({ id: 'msg_2' })) },
      { why: 'the id of the same text sent before (a repeat taken as the one before)', ctx: { text: 'earlier text', seen: new Map([['msg_1', 'earlier text']]) }, ex: exchange(202, messageBody({ id: 'msg_1' })) },
    ],
    fail: [{ why: 'the id of another text', ex: exchange(202, messageBody({ id: 'msg_1' })), actual: /^id "msg_1" again, first given to "earlier text"/ }],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'an id that is not a string (messages.accepted fails it)', ex: exchange(202, messageBody({ id: 7 })) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
  'messages.echo': {
    ctx: { text: '  padded  ' },
    pass: [
      { why: 'the text exactly', ex: exchange(202, messageBody({ message: '  padded  ' })) },
      { why: 'a lone surrogate back as U+FFFD', ctx: { text: '\uD800 x' }, ex: exchange(202, messageBody({ message: '\uFFFD x' })) },
      { why: 'U+2F800 back as U+4E3D (NFC)', ctx: { text: '\u{2F800}' }, ex: exchange(202, messageBody({ message: '\u4E3D' })) },
    ],
    fail: [
      { why: 'a pair of surrogates back as two U+FFFD', ctx: { text: '\uD83D\uDE00' }, ex: exchange(202, messageBody({ message: '\uFFFD\uFFFD' })) },
      { why: 'the text trimmed', ex: exchange(202, messageBody({ message: 'padded' })), actual: /"padded"/ },
      { why: 'U+00C5 back as A and U+030A (NFD)', ctx: { text: '\u00C5' }, ex: exchange(202, messageBody({ message: 'A\u030A' })) },
      { why: 'no message field', ex: exchange(202, { id: 'm', status: 'queued', createdAt: '2026-11-22T10:00:00Z' }), actual: /null/ },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a message that is no string (messages.accepted fails its schema)', ex: exchange(202, messageBody({ message: 42 })) },
    ],
  },
  'messages.status-queued': {
    ctx: {},
    pass: [{ why: 'status queued', ex: exchange(202, messageBody()) }],
    fail: [
      { why: 'status sent', ex: exchange(202, messageBody({ status: 'sent' })), actual: /"sent"/ },
      { why: 'status Queued', ex: exchange(202, messageBody({ status: 'Queued' })) },
      { why: 'no status field', ex: exchange(202, { id: 'm', message: 'x', createdAt: '2026-11-22T10:00:00Z' }), actual: /null/ },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a status that is no string (messages.accepted fails its schema)', ex: exchange(202, messageBody({ status: 1 })) },
    ],
  },
  'messages.created-at': {
    ctx: {},
    pass: [
      { why: '2026-11-22T10:00:00Z', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00Z' })) },
      { why: '2026-11-22T10:00:00.123Z', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00.123Z' })) },
      { why: '2026-11-22T10:00:00+00:00', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00+00:00' })) },
      { why: '20261122T100000Z (ISO 8601 basic format)', ex: exchange(202, messageBody({ createdAt: '20261122T100000Z' })) },
      { why: '20261122T100000,5Z (basic format, decimal comma)', ex: exchange(202, messageBody({ createdAt: '20261122T100000,5Z' })) },
      { why: '20261122T1000+0000 (basic format, minutes, zero offset)', ex: exchange(202, messageBody({ createdAt: '20261122T1000+0000' })) },
    ],
    fail: [
      { why: '2026-11-22T12:00:00+02:00 (not UTC)', ex: exchange(202, messageBody({ createdAt: '2026-11-22T12:00:00+02:00' })), actual: /\+02:00/ },
      { why: 'Sun Nov 22 2026', ex: exchange(202, messageBody({ createdAt: 'Sun Nov 22 2026' })) },
      { why: '2026-11-22 10:00:00Z (space, not T)', ex: exchange(202, messageBody({ createdAt: '2026-11-22 10:00:00Z' })) },
      { why: 'no offset at all', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00' })) },
      { why: 'epoch milliseconds', ex: exchange(202, messageBody({ createdAt: 1795341600000 })) },
      { why: 'month 13', ex: exchange(202, messageBody({ createdAt: '2026-13-22T10:00:00Z' })) },
      { why: '20261122t100000Z (lower-case t: RFC 3339, not ISO 8601)', ex: exchange(202, messageBody({ createdAt: '20261122t100000Z' })) },
      { why: '20261122T120000+0200 (basic format, not UTC)', ex: exchange(202, messageBody({ createdAt: '20261122T120000+0200' })), actual: /\+0200/ },
      { why: '2026-11-22T100000Z (extended date, basic time)', ex: exchange(202, messageBody({ createdAt: '2026-11-22T100000Z' })) },
      { why: '20261302T100000Z (basic format, month 13)', ex: exchange(202, messageBody({ createdAt: '20261302T100000Z' })) },
      { why: 'absent', ex: exchange(202, { id: 'm', message: 'hi', status: 'queued' }), actual: /null/ },
    ],
    na: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
  },
  'messages.created-at-recent': {
    ctx: { sentAt: NOW },
    pass: [
      { why: '4 minutes after sending', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:04:00Z' })) },
      { why: '1 minute before sending (clock skew)', ex: exchange(202, messageBody({ createdAt: '2026-11-22T09:59:00Z' })) },
      { why: '4 minutes after sending, in basic format', ex: exchange(202, messageBody({ createdAt: '20261122T100400Z' })) },
    ],
    fail: [
      { why: '6 minutes after sending', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:06:00Z' })), actual: /10:06:00Z/ },
      { why: 'a day earlier', ex: exchange(202, messageBody({ createdAt: '2026-11-21T10:00:00Z' })) },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a createdAt that is no date', ex: exchange(202, messageBody({ createdAt: 'nope' })) },
    ],
  },
  'messages.invalid-400': {
    ctx: { rule: 'malformed JSON (truncated)' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 415 (§4.5 says 400)', ex: exchange(415, errorBody(415)), actual: /^415/ },
      { why: 'a 202', ex: exchange(202, messageBody()) },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
    ],
  },
  'messages.non-string': {
    ctx: { rule: 'message of the wrong JSON type (integer)' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 202', ex: exchange(202, messageBody({ message: '7' })), actual: /^202/ },
      { why: 'a 500', ex: exchange(500) },
    ],
  },
  'messages.success-status': {
    ctx: {},
    observe: [
      { why: 'a 200', ex: exchange(200, messageBody()), value: '200' },
      { why: 'a 202', ex: exchange(202, messageBody()), value: '202' },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
};

describe('the messages checks on canned exchanges', () => {
  cannedTests(FAMILIES.messages, TABLE);
});

describe('regressions', () => {
  // Date.parse rolls 30 February over to 2 March; the check must not.
  it('messages.created-at fails createdAt 2026-02-30T10:00:00Z', () => {
    const ex = exchange(202, messageBody({ createdAt: '2026-02-30T10:00:00Z' }));
    expect(getCheck('messages.created-at').judge(ex, { env: judgeEnv() }).outcome).toBe('fail');
  });
});
