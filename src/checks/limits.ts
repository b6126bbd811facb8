import { header } from '../http/exchange.ts';
import { isWaitedOut } from '../http/retry-after.ts';
import { errorBody, exchange, failed, pets } from './exchanges.ts';
import { defineCheck, NOT_APPLICABLE, quoted } from './types.ts';

/** What limits.rate-limit records of an answer other than 429. */
const NO_429_JUDGED = 'no 429 reached the suite';

/**
 * The clause's note once the run's counts are in: the 429s (and 503s with Retry-After) the client
 * retried never reach the check, so they replace its "none reached" observation; so do the 503s
 * without one it sent again as a limit on requests in flight or on the rate (src/http/origin-caps.ts,
 * src/http/origin-pace.ts).
 */
export function rateLimitNote(judged: string | undefined, met: { rateLimited: number; unavailable: number; overloaded?: number }): string | undefined {
  const { rateLimited, unavailable, overloaded = 0 } = met;
  if (rateLimited === 0 && unavailable === 0 && overloaded === 0) return judged;
  const counted = [rateLimited ? `${rateLimited} × 429` : '', unavailable ? `${unavailable} × 503 with Retry-After` : ''].filter(Boolean).join(' and ');
  const kept = (judged?.split('; ') ?? []).filter((value) => value !== NO_429_JUDGED);
  const waited = counted ? [`${counted} met by the client, retried within the bounds (those that outlasted them are left unjudged)`] : [];
  const capped = overloaded ? [`${overloaded} × 503 without Retry-After after calm answers, sent again with fewer in flight or after a wait (${OVERLOAD_JUDGED})`] : [];
  return [...waited, ...capped, ...kept].join('; ');
}

/** A 503 without Retry-After that outlasted the waits with the run's rests spent (src/http/rest-gate.ts). */
const HELD_AS_LIMIT = '503 without Retry-After held as a limit on the rate: it outlasted the waits, and the run had no rest left';

/** What becomes of a 503 without Retry-After that the client sent again. */
const OVERLOAD_JUDGED = 'a 503 that came again was judged';

export const rateLimitSeen = defineCheck({
  description: 'Records a 429 that outlasted the retries, and whether it carried Retry-After',
  judge(exchange) {
    if (!exchange.response) return NOT_APPLICABLE;
    const retryAfter = header(exchange, 'retry-after');
    if (exchange.response.status === 503 && isWaitedOut(503, retryAfter)) return { outcome: 'observe', value: quoted(`503 with Retry-After: ${retryAfter}`) };
    if (exchange.heldAsLimit) return { outcome: 'observe', value: HELD_AS_LIMIT };
    if (exchange.response.status !== 429) return { outcome: 'observe', value: NO_429_JUDGED };
    return { outcome: 'observe', value: retryAfter ? quoted(`429 with Retry-After: ${retryAfter}`) : '429 without Retry-After' };
  },
  cases: {
    ctx: {},
    observe: [
      { why: 'a 200', ex: exchange(200, pets(1)), value: 'no 429 reached the suite' },
      { why: 'a 429 with Retry-After', ex: exchange(429, errorBody(429), { 'retry-after': '5' }), value: '429 with Retry-After: 5' },
      { why: 'a 429 without Retry-After', ex: exchange(429, errorBody(429)), value: '429 without Retry-After' },
      { why: 'a 503 with a Retry-After the client waits out', ex: exchange(503, errorBody(503), { 'retry-after': '1' }), value: '503 with Retry-After: 1' },
      { why: 'a 503 without Retry-After the client held as a limit', ex: { ...exchange(503, errorBody(503)), heldAsLimit: true }, value: HELD_AS_LIMIT },
      { why: 'a 503 whose Retry-After reads as no time (judged as a 5xx)', ex: exchange(503, errorBody(503), { 'retry-after': 'soon' }), value: 'no 429 reached the suite' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const LIMITS_CHECKS = {
  'limits.rate-limit': rateLimitSeen,
} as const;
