import { header } from '../http/exchange.ts';
import { defineCheck, NOT_APPLICABLE } from './types.ts';

export const rateLimitSeen = defineCheck({
  name: 'rate-limit-seen',
  clause: 'limits.rate-limit',
  description: 'Records a 429 that outlasted the retries, and whether it carried Retry-After',
  judge(exchange) {
    if (!exchange.response) return NOT_APPLICABLE;
    if (exchange.response.status !== 429) return { outcome: 'observe', value: 'no 429 reached the suite' };
    const retryAfter = header(exchange, 'retry-after');
    return { outcome: 'observe', value: retryAfter ? `429 with Retry-After: ${retryAfter}` : '429 without Retry-After' };
  },
});
