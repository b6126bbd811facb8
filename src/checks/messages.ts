import { describeResponse, jsonObject, type Exchange } from '../http/exchange.ts';
import { stringifyJson } from '../json/lossless.ts';
import { acceptedOrRefused, brokenFields, echoes, nfcVerdict, refusalExpected, refusedAsAllowed, schemaVerdict } from './common.ts';
import { combine, defineCheck, fail, NOT_APPLICABLE, PASS, type Refusable } from './types.ts';

/** ISO 8601 calendar date-time in UTC, extended or basic format (never mixed): a `Z` or a zero offset. */
const ISO_UTC = [
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:Z|z|\+00(?::?00)?)$/,
  /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?(?:Z|z|\+00(?:00)?)$/,
];
const RECENT_MS = 5 * 60_000;

/** Milliseconds since the epoch of an ISO 8601 UTC timestamp, or undefined when it is not one (30 February included). */
export function parseIsoUtc(text: string): number | undefined {
  const m = ISO_UTC.map((re) => re.exec(text)).find((match) => match !== null);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second = 0] = m.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  const leap = second === 60;
  if (month! < 1 || month! > 12 || hour! > 23 || minute! > 59 || second > 60) return undefined;
  const time = Date.UTC(year!, month! - 1, day!, hour!, minute!, leap ? 59 : second, Number(`0.${m[7] ?? '0'}`) * 1000);
  const date = new Date(time);
  if (day! < 1 || date.getUTCDate() !== day || date.getUTCMonth() !== month! - 1) return undefined;
  return time + (leap ? 1000 : 0);
}

function message(exchange: Exchange): Record<string, unknown> | undefined {
  const status = exchange.response?.status ?? 0;
  if (status < 200 || status > 299) return undefined;
  return jsonObject(exchange);
}

const isSuccess = (status: number) => status >= 200 && status <= 299;

export const messagesAccepted = defineCheck<{ refusable?: Refusable }>({
  description: 'A valid message is answered with 2xx and id, message, status and createdAt strings (a text the spec does not guarantee may be refused with 400)',
  judge(exchange, { env, refusable }) {
    if (refusedAsAllowed(exchange, refusable)) return PASS;
    if (!isSuccess(exchange.response?.status ?? 0)) return fail(`2xx with the message body${refusalExpected(refusable)}`, describeResponse(exchange));
    // The createdAt format has a clause of its own (messages.created-at).
    return schemaVerdict(exchange, env, 'Message', (problem) => problem.startsWith('/createdAt must match format'));
  },
});

/**
 * Two different texts never get one id. The same text twice may: a service may take a repeated
 * submission as the one before (§4.5 says nothing of duplicates).
 */
export const messagesIdUnique = defineCheck<{ text: string; seen: Map<string, string> }>({
  description: 'No two different messages get the same id',
  judge(exchange, { text, seen }) {
    const id = message(exchange)?.id;
    if (typeof id !== 'string') return NOT_APPLICABLE;
    const earlier = seen.get(id);
    if (earlier === undefined) {
      seen.set(id, text);
      return PASS;
    }
    if (earlier === text) return PASS;
    return fail('an id not given to another message earlier in this run', `id ${JSON.stringify(id)} again, first given to ${JSON.stringify(earlier.slice(0, 60))}`);
  },
});

/** A message field that is no string is messages.accepted's to fail (its schema), not this check's. */
export const messagesEcho = defineCheck<{ text: string }>({
  description: 'The message field echoes the submitted text exactly',
  judge(exchange, { env, text }) {
    const body = message(exchange);
    if (!body || brokenFields(env, 'Message', body).has('message')) return NOT_APPLICABLE;
    return echoes(body.message, text) ? PASS : fail(`message = ${JSON.stringify(text)}`, `message = ${stringifyJson(body.message ?? null)}`);
  },
});

export const messagesStatusQueued = defineCheck({
  description: 'The status of a new message is "queued" (a status that is no string is messages.accepted\'s to fail)',
  judge(exchange, { env }) {
    const body = message(exchange);
    if (!body || brokenFields(env, 'Message', body).has('status')) return NOT_APPLICABLE;
    return body.status === 'queued' ? PASS : fail('status = "queued"', `status = ${stringifyJson(body.status ?? null)}`);
  },
});

export const messagesCreatedAt = defineCheck({
  description: 'createdAt is an ISO 8601 timestamp in UTC',
  judge(exchange) {
    const body = message(exchange);
    if (!body) return NOT_APPLICABLE;
    const value = body.createdAt;
    if (typeof value === 'string' && parseIsoUtc(value) !== undefined) return PASS;
    return fail('createdAt like 2026-11-22T10:00:00Z (ISO 8601, UTC)', `createdAt = ${stringifyJson(value ?? null)}`);
  },
});

export const messagesCreatedAtRecent = defineCheck<{ sentAt: Date }>({
  description: 'createdAt is within five minutes of the request',
  judge(exchange, { sentAt }) {
    const value = message(exchange)?.createdAt;
    const time = typeof value === 'string' ? parseIsoUtc(value) : undefined;
    if (time === undefined) return NOT_APPLICABLE;
    return Math.abs(time - sentAt.getTime()) <= RECENT_MS
      ? PASS
      : fail(`createdAt within 5 minutes of ${sentAt.toISOString()}`, `createdAt = ${String(value)}`);
  },
});

export const messagesTextConstraints = defineCheck<{ refusable: Refusable }>({
  description: 'Records which message texts outside the core (empty, long, control characters, lone surrogates) are refused',
  judge(exchange, { refusable }) {
    if (refusable === undefined) return NOT_APPLICABLE;
    return acceptedOrRefused(exchange, `message ${refusable.why}`, isSuccess);
  },
});

export const messagesTextNormalized = defineCheck<{ text: string }>({
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
});

export const messagesNonString = defineCheck<{ rule: string }>({
  description: 'A message field that is not a string is refused with 400',
  judge(exchange, { rule }) {
    return exchange.response?.status === 400 ? PASS : fail(`400 for "${rule}"`, describeResponse(exchange));
  },
});

export const messagesSuccessStatus = defineCheck({
  description: 'Records the 2xx status the message operation answers with',
  judge(exchange) {
    const status = exchange.response?.status ?? 0;
    return status >= 200 && status < 300 ? { outcome: 'observe', value: String(status) } : NOT_APPLICABLE;
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const MESSAGES_CHECKS = {
  'messages.accepted': messagesAccepted,
  'messages.id-unique': messagesIdUnique,
  'messages.echo': messagesEcho,
  'messages.status-queued': messagesStatusQueued,
  'messages.created-at': messagesCreatedAt,
  'messages.created-at-recent': messagesCreatedAtRecent,
  'messages.text-constraints': combine(messagesTextConstraints, messagesTextNormalized),
  'messages.invalid-400': messagesInvalid400,
  'messages.non-string': messagesNonString,
  'messages.success-status': messagesSuccessStatus,
} as const;
