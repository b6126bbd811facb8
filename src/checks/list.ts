import { describeResponse, jsonBody } from '../http/exchange.ts';
import { limitBounds } from '../contract/model.ts';
import { stringifyJson } from '../json/lossless.ts';
import { schemaVerdict } from './common.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS, type Verdict } from './types.ts';
import type { Exchange } from '../http/exchange.ts';

/** The listing as an array, when the response is a 200 with one. */
function items(exchange: Exchange): unknown[] | undefined {
  if (exchange.response?.status !== 200) return undefined;
  const body = jsonBody(exchange);
  return body.ok && Array.isArray(body.value) ? body.value : undefined;
}

/** An empty listing can break neither a bound nor a filter: it judges nothing. */
function atMost(exchange: Exchange, max: number, what: string): Verdict {
  const list = items(exchange);
  if (!list?.length) return NOT_APPLICABLE;
  return list.length <= max ? PASS : fail(`at most ${max} animals (${what})`, `${list.length} animals`);
}

export const list200Pets = defineCheck({
  description: 'GET /pets with the valid key and valid parameters answers 200 with Pets',
  judge(exchange, { env }) {
    if (exchange.response?.status !== 200) return fail('200 with an array of Pet', describeResponse(exchange));
    return schemaVerdict(exchange, env, 'Pets');
  },
});

export const listLimitRespected = defineCheck<{ limit: number }>({
  description: 'A listing holds at most limit animals',
  judge: (exchange, { limit }) => atMost(exchange, limit, `limit=${limit}`),
});

export const listLimitDefault = defineCheck({
  description: 'Without limit, a listing holds at most the default (20)',
  judge(exchange, { env }) {
    const { fallback } = limitBounds(env.contract);
    return atMost(exchange, fallback, `limit omitted, default ${fallback}`);
  },
});

/** `query`: the query string sent, as it is to be shown ("?limit=0&status=sold", "no query"). */
export const listLimitMax = defineCheck<{ query: string }>({
  description: 'A listing never holds more than the maximum limit (100) animals',
  judge(exchange, { query, env }) {
    const { max } = limitBounds(env.contract);
    return atMost(exchange, max, `${query}, maximum ${max}`);
  },
});

export const listLimitAccepted = defineCheck<{ limit: number }>({
  description: 'Every limit from the minimum to the maximum (1 to 100) is answered with 200',
  judge(exchange, { limit }) {
    return exchange.response?.status === 200 ? PASS : fail(`200 for limit=${limit}`, describeResponse(exchange));
  },
});

export const listFullPage = defineCheck<{ limit: number; known: number }>({
  description: 'A page holds min(limit, animals known to exist) animals',
  judge(exchange, { limit, known }) {
    const list = items(exchange);
    if (!list) return NOT_APPLICABLE;
    const want = Math.min(limit, known);
    if (want === 0) return NOT_APPLICABLE;
    return list.length >= want ? PASS : fail(`${want} animals (limit ${limit}, at least ${known} exist)`, `${list.length} animals`);
  },
});

export const listStatusFilter = defineCheck<{ status: string }>({
  description: 'With status=S every animal listed has status S',
  judge(exchange, { status }) {
    const list = items(exchange);
    if (!list?.length) return NOT_APPLICABLE;
    const index = list.findIndex((pet) => (pet as Record<string, unknown> | null)?.status !== status);
    if (index < 0) return PASS;
    const other = stringifyJson((list[index] as Record<string, unknown> | null)?.status ?? null);
    return fail(`every item with status "${status}"`, `item ${index + 1} of ${list.length} (index ${index}) has status ${other}`);
  },
});

export const listInvalidQuery = defineCheck<{ query: string }>({
  description: 'An invalid query value is refused with a 4xx (GET /pets lists no error status for it), or answered with 200 and a listing within bounds',
  judge(exchange, { query }) {
    const status = exchange.response?.status;
    if (status === undefined || status >= 500) return NOT_APPLICABLE;
    // 401 and 403 speak of the valid key, not of the query.
    if (status === 200 || (status >= 400 && status < 500 && status !== 401 && status !== 403)) return PASS;
    return fail(`a 4xx refusal (400, 422...) or 200 (clamped) for ${query}`, describeResponse(exchange));
  },
});

export const listInvalidQueryHandling = defineCheck<{ query: string }>({
  description: 'Records whether invalid query values are rejected or tolerated',
  judge(exchange, { query }) {
    const status = exchange.response?.status;
    if (status === undefined) return NOT_APPLICABLE;
    return { outcome: 'observe', value: status === 200 ? 'tolerated with 200' : status >= 400 && status < 500 ? `rejected with ${status}` : `answered ${status}`, detail: query };
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const LIST_CHECKS = {
  'list.200-pets': list200Pets,
  'list.limit-respected': listLimitRespected,
  'list.limit-default': listLimitDefault,
  'list.limit-max': listLimitMax,
  'list.limit-bounds-accepted': listLimitAccepted,
  'list.full-page': listFullPage,
  'list.status-filter': listStatusFilter,
  'list.invalid-query': listInvalidQuery,
  'list.invalid-query-handling': listInvalidQueryHandling,
} as const;
