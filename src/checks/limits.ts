import { header } from '../http/exchange.ts';
import { defineCheck, NOT_APPLICABLE, quoted } from './types.ts';

/** What limits.rate-limit records of an answer other than 429; the run's collector adds the 429s the client waited out. */
export const NO_429_JUDGED = 'no 429 reached the suite';

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
