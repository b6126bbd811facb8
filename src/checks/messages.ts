import { describeResponse, jsonObject, type Exchange } from '../http/exchange.ts';
import { stringifyJson } from '../json/lossless.ts';
import { acceptedOrRefused, brokenFields, notUtf8Verdict, refusalExpected, refusedAsAllowed, schemaVerdict } from './common.ts';
import { errorBody, exchange, failed, messageBody, NOW } from './exchanges.ts';
import { echoes, nfcVerdict } from './text.ts';
import { combine, defineCheck, definePart, fail, type JudgeEnv, NOT_APPLICABLE, PASS, type Refusable } from './types.ts';

// Values the cases below share.
const LONG_NAME = { why: 'over 50 characters', tooLong: true };
const EMPTY_TEXT = { why: 'empty', tooLong: false };

/**
 * ISO 8601 date-time in UTC, extended or basic format (never mixed), its date a calendar date
 * (2026-11-22), an ordinal date (2026-326) or a week date (2026-W47-7); its time of day to the hour,
 * minute or second (reduced precision), the last with a decimal fraction or not; a `Z` or a zero offset.
 */
const ISO_UTC = [
  /^(\d{4})-(?:(\d{2})-(\d{2})|(\d{3})|W(\d{2})-(\d))T(\d{2})(?::(\d{2})(?::(\d{2}))?)?(?:[.,](\d+))?(?:Z|z|\+00(?::?00)?)$/,
  /^(\d{4})(?:(\d{2})(\d{2})|(\d{3})|W(\d{2})(\d))T(\d{2})(?:(\d{2})(\d{2})?)?(?:[.,](\d+))?(?:Z|z|\+00(?:00)?)$/,
];
const RECENT_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

/** Milliseconds since the epoch of the day an ISO 8601 date names, or undefined when it names none (30 February, day 366 of 2026, week 53 of 2026). */
function isoDay(year: number, month?: string, day?: string, ordinal?: string, week?: string, weekday?: string): number | undefined {
  const startOfYear = Date.UTC(year, 0, 1);
  const daysInYear = (Date.UTC(year + 1, 0, 1) - startOfYear) / DAY_MS;
  if (ordinal !== undefined) {
    const n = Number(ordinal);
    return n >= 1 && n <= daysInYear ? startOfYear + (n - 1) * DAY_MS : undefined;
  }
  if (week !== undefined) {
    const [w, d] = [Number(week), Number(weekday)];
    const jan1 = new Date(startOfYear).getUTCDay() || 7;
    const weeks = jan1 === 4 || (jan1 === 3 && daysInYear === 366) ? 53 : 52;
    if (w < 1 || w > weeks || d < 1 || d > 7) return undefined;
    // Week 1 holds 4 January; its Monday starts the week-numbering year.
    const jan4 = startOfYear + 3 * DAY_MS;
    const mondayOfWeek1 = jan4 - ((new Date(jan4).getUTCDay() || 7) - 1) * DAY_MS;
    return mondayOfWeek1 + ((w - 1) * 7 + (d - 1)) * DAY_MS;
  }
  const [m, dd] = [Number(month), Number(day)];
  if (m < 1 || m > 12 || dd < 1) return undefined;
  const time = Date.UTC(year, m - 1, dd);
  return new Date(time).getUTCMonth() === m - 1 ? time : undefined;
}

/**
 * The span of time an ISO 8601 UTC timestamp names, in milliseconds since the epoch: from its start
 * for as long as its last element (an hour, a minute, a second or its fraction); undefined when it
 * names none (30 February included).
 */
export function isoUtcSpan(text: string): { start: number; ms: number } | undefined {
  const m = ISO_UTC.map((re) => re.exec(text)).find((match) => match !== null);
  if (!m) return undefined;
  const day = isoDay(Number(m[1]), m[2], m[3], m[4], m[5], m[6]);
  const [hour, minute, second] = [Number(m[7]), Number(m[8] ?? 0), Number(m[9] ?? 0)];
  if (day === undefined || hour > 23 || minute > 59 || second > 60) return undefined;
  // The decimal fraction is of the last element written: the hour, the minute or the second.
  const unitMs = m[9] !== undefined ? 1000 : m[8] !== undefined ? 60_000 : 3_600_000;
  const fraction = m[10] ?? '';
  const ms = fraction ? unitMs / 10 ** fraction.length : unitMs;
  // A leap second (:60) is the instant after :59.
  return { start: day + ((hour * 60 + minute) * 60 + second) * 1000 + Number(`0.${fraction || '0'}`) * unitMs, ms };
}

/** Milliseconds since the epoch at which an ISO 8601 UTC timestamp starts, or undefined when it is not one. */
export function parseIsoUtc(text: string): number | undefined {
  return isoUtcSpan(text)?.start;
}

/** The body of a 2xx of sendMessage (or of an exchange of no named operation, as the cases are): judged wherever the scenario. */
function message(exchange: Exchange): Record<string, unknown> | undefined {
  const status = exchange.response?.status ?? 0;
  if (status < 200 || status > 299) return undefined;
  if (exchange.operationId !== undefined && exchange.operationId !== 'sendMessage') return undefined;
  return jsonObject(exchange);
}

/**
 * The text a message request submitted: its `message` string, else the body itself (a body the
 * service took although it holds no string message is a submission of its own).
 */
function submittedText(exchange: Exchange): string {
  const body = exchange.request.body ?? '';
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string') return (value as { message: string }).message;
  } catch {
    // Not JSON: the body is the submission.
  }
  return body;
}

const isSuccess = (status: number) => status >= 200 && status <= 299;

/** A schema problem of the createdAt format, which has a clause of its own (messages.created-at). */
export const isCreatedAtFormat = (problem: string): boolean => problem.startsWith('/createdAt must match format');

export const messagesAccepted = defineCheck<{ refusable?: Refusable }>({
  description: 'A valid message is answered with 2xx and id, message, status and createdAt strings (a text the spec does not guarantee may be refused with 400)',
  judge(exchange, { env, refusable }) {
    if (refusedAsAllowed(exchange, refusable)) return PASS;
    if (!isSuccess(exchange.response?.status ?? 0)) return fail(`2xx with the message body${refusalExpected(refusable)}`, describeResponse(exchange));
    return schemaVerdict(exchange, env, 'Message', isCreatedAtFormat);
  },
  cases: {
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
});

/**
 * Two different texts never get one id. The same text twice may: a service may take a repeated
 * submission as the one before (§4.5 says nothing of duplicates). Judges every 2xx of sendMessage,
 * in whichever scenario, against the ids given before (`seen`, else the worker's env.messageIds);
 * `text` defaults to the one the request submitted.
 */
export const messagesIdUnique = defineCheck<{ text?: string; seen?: Map<string, string> }>({
  description: 'No two different messages get the same id',
  judge(exchange, { text, seen, env }) {
    const id = message(exchange)?.id;
    const ids = seen ?? env.messageIds;
    if (typeof id !== 'string' || !ids) return NOT_APPLICABLE;
    isFirstShowing(ids, id, exchange);
    const earlier = ids.get(id);
    const submitted = text ?? submittedText(exchange);
    if (earlier === undefined) {
      ids.set(id, submitted);
      return PASS;
    }
    if (earlier === submitted) return PASS;
    return fail('an id not given to another message earlier in this run', `id ${JSON.stringify(id)} again, first given to ${JSON.stringify(earlier.slice(0, 60))}`);
  },
  cases: {
    ctx: { text: 'hello', seen: new Map([['msg_1', 'earlier text']]) },
    pass: [
      { why: 'a new id', ex: exchange(202, messageBody({ id: 'msg_2' })) },
      { why: 'the id of the same text sent before (a repeat taken as the one before)', ctx: { text: 'earlier text', seen: new Map([['msg_1', 'earlier text']]) }, ex: exchange(202, messageBody({ id: 'msg_1' })) },
      { why: 'the id of the text the request sent before, read from its body', ctx: { seen: new Map([['msg_1', 'earlier text']]) }, ex: sent('{"message":"earlier text"}', exchange(202, messageBody({ id: 'msg_1' }))) },
    ],
    fail: [
      { why: 'the id of another text', ex: exchange(202, messageBody({ id: 'msg_1' })), actual: /^id "msg_1" again, first given to "earlier text"/ },
      { why: 'the id of another text, the one sent read from the request body', ctx: { seen: new Map([['msg_1', 'earlier text']]) }, ex: sent('{"message":"later text"}', exchange(202, messageBody({ id: 'msg_1' }))) },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 201 of POST /pets', ex: { ...exchange(201, { id: 'msg_1', name: 'x', categoryId: 1 }), operationId: 'createPet' } },
      { why: 'an id that is not a string (messages.accepted fails it)', ex: exchange(202, messageBody({ id: 7 })) },
      { why: 'a transport failure', ex: failed() },
    ],
  },
});

/**
 * Per map of ids given, the answer that first showed each id, whichever check was judged first: held
 * weakly, as a run holding every 202 whole held hundreds of megabytes where each answer was padded
 * to megabytes. Once it is gone, no answer judged after is it.
 */
const FIRST_SHOWN = new WeakMap<Map<string, string>, Map<string, WeakRef<Exchange>>>();

function isFirstShowing(ids: Map<string, string>, id: string, exchange: Exchange): boolean {
  let first = FIRST_SHOWN.get(ids);
  if (!first) FIRST_SHOWN.set(ids, (first = new Map()));
  const shown = first.get(id);
  if (!shown) first.set(id, new WeakRef(exchange));
  return !shown || shown.deref() === exchange;
}

/**
 * Whether the answer shows a message given before for the same text: a service may take a repeated
 * submission as the one before (messagesIdUnique), whose status and createdAt are then its own.
 */
function isRepeat(exchange: Exchange, env: JudgeEnv): boolean {
  const id = message(exchange)?.id;
  const ids = env.messageIds;
  if (typeof id !== 'string' || !ids || isFirstShowing(ids, id, exchange)) return false;
  const text = ids.get(id);
  return text === undefined || text === submittedText(exchange);
}

/** A message field that is no string is messages.accepted's to fail (its schema), not this check's. */
export const messagesEcho = defineCheck<{ text: string }>({
  description: 'The message field echoes the submitted text exactly',
  judge(exchange, { env, text }) {
    const body = message(exchange);
    if (!body || brokenFields(env, 'Message', body).has('message')) return NOT_APPLICABLE;
    return echoes(body.message, text) ? PASS : fail(`message = ${JSON.stringify(text)}`, `message = ${stringifyJson(body.message ?? null)}`);
  },
  cases: {
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
});

export const messagesStatusQueued = defineCheck({
  description: 'The status of a new message is "queued" (a status that is no string is messages.accepted\'s to fail)',
  judge(exchange, { env }) {
    const body = message(exchange);
    if (!body || brokenFields(env, 'Message', body).has('status') || isRepeat(exchange, env)) return NOT_APPLICABLE;
    return body.status === 'queued' ? PASS : fail('status = "queued"', `status = ${stringifyJson(body.status ?? null)}`);
  },
  cases: {
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
      { why: 'a 201 of POST /pets (its status is a PetStatus)', ex: { ...exchange(201, { id: 7, name: 'x', categoryId: 1, status: 'available' }), operationId: 'createPet' } },
    ],
  },
});

/** An answer to POST /messages that sent `body`, for the cases. */
function sent(body: string, answer: Exchange): Exchange {
  return { ...answer, operationId: 'sendMessage', request: { ...answer.request, method: 'POST', url: 'https://msg.example.test/messages', body } };
}

/** A 202 whose createdAt is `value`, for the cases below: `why` says what the value shows. */
const createdAt = (value: string, why?: string) => ({ why: why ? `${value} (${why})` : value, ex: exchange(202, messageBody({ createdAt: value })) });

export const messagesCreatedAt = defineCheck({
  description: 'createdAt is an ISO 8601 timestamp in UTC',
  judge(exchange) {
    const body = message(exchange);
    if (!body) return NOT_APPLICABLE;
    const value = body.createdAt;
    if (typeof value === 'string' && parseIsoUtc(value) !== undefined) return PASS;
    return fail('createdAt like 2026-11-22T10:00:00Z (ISO 8601, UTC)', `createdAt = ${stringifyJson(value ?? null)}`);
  },
  cases: {
    ctx: {},
    pass: [
      createdAt('2026-11-22T10:00:00Z'),
      createdAt('2026-11-22T10:00:00.123Z'),
      createdAt('2026-11-22T10:00:00+00:00'),
      createdAt('20261122T100000Z', 'ISO 8601 basic format'),
      createdAt('20261122T100000,5Z', 'basic format, decimal comma'),
      createdAt('20261122T1000+0000', 'basic format, minutes, zero offset'),
      createdAt('2026-11-22T10Z', 'to the hour only (reduced precision)'),
      createdAt('2026-11-22T10:00.5Z', 'a decimal fraction of the minute'),
      createdAt('20261122T10,25Z', 'basic format, a decimal fraction of the hour'),
      createdAt('2026-326T10:00:00Z', 'an ordinal date'),
      createdAt('2026326T100000Z', 'an ordinal date, basic format'),
      createdAt('2026-W47-7T10:00:00Z', 'a week date'),
      createdAt('2026W477T100000Z', 'a week date, basic format'),
      createdAt('2024-366T10:00:00Z', 'day 366 of a leap year'),
      createdAt('2026-W53-1T10:00:00Z', '2026 starts on a Thursday: it has 53 weeks'),
    ],
    fail: [
      { ...createdAt('2026-11-22T12:00:00+02:00', 'not UTC'), actual: /\+02:00/ },
      createdAt('Sun Nov 22 2026'),
      createdAt('2026-11-22 10:00:00Z', 'space, not T'),
      { why: 'no offset at all', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:00:00' })) },
      { why: 'epoch milliseconds', ex: exchange(202, messageBody({ createdAt: 1795341600000 })) },
      { why: 'month 13', ex: exchange(202, messageBody({ createdAt: '2026-13-22T10:00:00Z' })) },
      createdAt('20261122t100000Z', 'lower-case t: RFC 3339, not ISO 8601'),
      { ...createdAt('20261122T120000+0200', 'basic format, not UTC'), actual: /\+0200/ },
      createdAt('2026-11-22T100000Z', 'extended date, basic time'),
      createdAt('20261302T100000Z', 'basic format, month 13'),
      createdAt('2026-366T10:00:00Z', '2026 has 365 days'),
      createdAt('2025-W53-1T10:00:00Z', '2025 has 52 weeks'),
      createdAt('2026-W47-8T10:00:00Z', 'weekday 8'),
      createdAt('2026-326T100000Z', 'extended date, basic time'),
      { why: 'absent', ex: exchange(202, { id: 'm', message: 'hi', status: 'queued' }), actual: /null/ },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a 200 of GET /pets/{petId}', ex: { ...exchange(200, { id: 7, name: 'x', categoryId: 1 }), operationId: 'getPet' } },
    ],
  },
});

/** `sentAt` defaults to when the client sent the request that got this answer (Exchange.sentAt). */
export const messagesCreatedAtRecent = defineCheck<{ sentAt?: Date }>({
  description: 'createdAt is within five minutes of the request',
  judge(exchange, { env, sentAt = exchange.sentAt === undefined ? undefined : new Date(exchange.sentAt) }) {
    if (isRepeat(exchange, env)) return NOT_APPLICABLE;
    const value = message(exchange)?.createdAt;
    const span = typeof value === 'string' ? isoUtcSpan(value) : undefined;
    if (span === undefined || sentAt === undefined) return NOT_APPLICABLE;
    // A time to the hour names the whole hour: any instant in it may be the one meant.
    const off = Math.max(0, span.start - sentAt.getTime(), sentAt.getTime() - (span.start + span.ms));
    return off <= RECENT_MS
      ? PASS
      : fail(`createdAt within 5 minutes of ${sentAt.toISOString()}`, `createdAt = ${String(value)}`);
  },
  cases: {
    ctx: { sentAt: NOW },
    pass: [
      { why: '4 minutes after sending', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:04:00Z' })) },
      { why: '1 minute before sending (clock skew)', ex: exchange(202, messageBody({ createdAt: '2026-11-22T09:59:00Z' })) },
      { why: '4 minutes after sending, in basic format', ex: exchange(202, messageBody({ createdAt: '20261122T100400Z' })) },
      { why: 'the hour of sending, to the hour only', ctx: { sentAt: new Date('2026-11-22T10:40:00Z') }, ex: exchange(202, messageBody({ createdAt: '2026-11-22T10Z' })) },
    ],
    fail: [
      { why: '6 minutes after sending', ex: exchange(202, messageBody({ createdAt: '2026-11-22T10:06:00Z' })), actual: /10:06:00Z/ },
      { why: 'a day earlier', ex: exchange(202, messageBody({ createdAt: '2026-11-21T10:00:00Z' })) },
      { why: 'the hour before sending, to the hour only', ctx: { sentAt: new Date('2026-11-22T10:40:00Z') }, ex: exchange(202, messageBody({ createdAt: '2026-11-22T09Z' })) },
      { why: '6 minutes after the client sent it, as the exchange says', ctx: {}, ex: { ...exchange(202, messageBody({ createdAt: '2026-11-22T10:06:00Z' })), sentAt: NOW.getTime() } },
    ],
    na: [
      { why: 'a 400', ex: exchange(400, errorBody(400)) },
      { why: 'a createdAt that is no date', ex: exchange(202, messageBody({ createdAt: 'nope' })) },
      { why: 'no time of sending known', ctx: {}, ex: exchange(202, messageBody({ createdAt: '2026-11-21T10:00:00Z' })) },
    ],
  },
});

export const messagesTextConstraints = definePart<{ refusable: Refusable }>({
  description: 'Records which message texts outside the core (empty, long, control characters, lone surrogates) are refused',
  judge(exchange, { refusable }) {
    if (refusable === undefined) return NOT_APPLICABLE;
    return acceptedOrRefused(exchange, `message ${refusable.why}`, isSuccess);
  },
});

export const messagesTextNormalized = definePart<{ text: string }>({
  description: 'Records a message text a 2xx returns in Unicode NFC where the one sent was not',
  judge(exchange, { text }) {
    const body = text === undefined ? undefined : message(exchange);
    return body ? nfcVerdict(body.message, text, 'message') : NOT_APPLICABLE;
  },
});

export const messagesInvalid400 = defineCheck<{ rule: string }>({
  description: 'Invalid JSON, a missing message, or a content type other than application/json give 400',
  judge(exchange, { rule }) {
    return exchange.response?.status === 400 ? PASS : fail(`400 for a request that breaks "${rule}"`, describeResponse(exchange));
  },
  cases: {
    ctx: { rule: 'malformed JSON (truncated)' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 415 (§4.5 says 400)', ex: exchange(415, errorBody(415)), actual: /^415/ },
      { why: 'a 202', ex: exchange(202, messageBody()) },
      { why: 'a 422', ex: exchange(422, errorBody(422)) },
    ],
  },
});

export const messagesNonString = defineCheck<{ rule: string }>({
  description: 'A message field that is not a string is refused with 400',
  judge(exchange, { rule }) {
    return exchange.response?.status === 400 ? PASS : fail(`400 for "${rule}"`, describeResponse(exchange));
  },
  cases: {
    ctx: { rule: 'message of the wrong JSON type (integer)' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 202', ex: exchange(202, messageBody({ message: '7' })), actual: /^202/ },
      { why: 'a 500', ex: exchange(500) },
    ],
  },
});

export const messagesSuccessStatus = defineCheck({
  description: 'Records the 2xx status the message operation answers with',
  judge(exchange) {
    const status = exchange.response?.status ?? 0;
    return status >= 200 && status < 300 ? { outcome: 'observe', value: String(status) } : NOT_APPLICABLE;
  },
  cases: {
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
});

export const messagesNotUtf8 = defineCheck<{ rule: string }>({
  description: 'A body that is not UTF-8 is invalid JSON (RFC 8259 §8.1) and is refused with 400',
  judge: (exchange, { rule }) => notUtf8Verdict(exchange, rule),
  cases: {
    ctx: { rule: 'message text not UTF-8: an ISO-8859-1 "é" (0xE9)' },
    pass: [{ why: 'a 400', ex: exchange(400, errorBody(400)) }],
    fail: [
      { why: 'a 202 echoing the text with U+FFFD in place of the byte, as a lenient decoder does', ex: exchange(202, messageBody({ message: 'caf\ufffd' })), actual: /^202/, expected: /RFC 8259 §8\.1/ },
      { why: 'a 415', ex: exchange(415, errorBody(415)), actual: /^415/ },
    ],
  },
});

/** The check of messages.text-constraints: messagesTextConstraints and messagesTextNormalized together. */
export const messagesTextConstraintsClause = combine(messagesTextConstraints, messagesTextNormalized, {
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
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const MESSAGES_CHECKS = {
  'messages.accepted': messagesAccepted,
  'messages.id-unique': messagesIdUnique,
  'messages.echo': messagesEcho,
  'messages.status-queued': messagesStatusQueued,
  'messages.created-at': messagesCreatedAt,
  'messages.created-at-recent': messagesCreatedAtRecent,
  'messages.text-constraints': messagesTextConstraintsClause,
  'messages.invalid-400': messagesInvalid400,
  'messages.non-string': messagesNonString,
  'messages.not-utf8': messagesNotUtf8,
  'messages.success-status': messagesSuccessStatus,
} as const;
