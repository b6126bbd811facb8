import { header } from '../http/exchange.ts';
import { defineCheck, NOT_APPLICABLE, quoted } from './types.ts';

/** What limits.rate-limit records of an answer other than 429. */
const NO_429_JUDGED = 'no 429 reached the suite';

/**
 * The clause's note once the run's counts are in: the 429s (and 503s with Retry-After) the client
 * retried never reach the check, so they replace its "none reached" observation.
 */
export function rateLimitNote(judged: string | undefined, waitedOut: { rateLimited: number; unavailable: number }): string | undefined {
  const { rateLimited, unavailable } = waitedOut;
  if (rateLimited === 0 && unavailable === 0) return judged;
  const counted = [rateLimited ? `${rateLimited} × 429` : '', unavailable ? `${unavailable} × 503 with Retry-After` : ''].filter(Boolean).join(' and ');
  const kept = (judged?.split('; ') ?? []).filter((value) => value !== NO_429_JUDGED);
  return [`${counted} met by the client, retried within the bounds (those that outlasted them are judged as they came)`, ...kept].join('; ');
}

export const rateLimitSeen = defineCheck({
  description: 'Records a 429 that outlasted the retries, and whether it carried Retry-After',
  judge(exchange) {
    if (!exchange.response) return NOT_APPLICABLE;
    if (exchange.response.status !== 429) return { outcome: 'observe', value: NO_429_JUDGED };
    const retryAfter = header(exchange, 'retry-after');
    return { outcome: 'observe', value: retryAfter ? quoted(`429 with Retry-After: ${retryAfter}`) : '429 without Retry-After' };
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const LIMITS_CHECKS = {
  'limits.rate-limit': rateLimitSeen,
} as const;
