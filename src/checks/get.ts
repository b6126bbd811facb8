import { describeResponse, jsonBody, jsonObject } from '../http/exchange.ts';
import { stringifyJson } from '../json/lossless.ts';
import { samePet, schemaVerdict } from './common.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS } from './types.ts';

/**
 * `statusMayChange`: the animal is one the suite did not create, so another client may have moved it
 * to another status between the listing and the GET (§3: "Transitions: not shown"); a Pet that differs
 * from the listing only by another status is then no evidence either way.
 */
export const get200Pet = defineCheck<{ expected: Record<string, unknown>; statusMayChange?: boolean }>({
  description: 'GET /pets/{id} of an existing animal answers 200 with that Pet',
  judge(exchange, { env, expected, statusMayChange }) {
    if (exchange.response?.status !== 200) return fail(`200 with ${stringifyJson(expected)}`, describeResponse(exchange));
    const shape = schemaVerdict(exchange, env, 'Pet');
    if (shape.outcome !== 'pass') return shape;
    const body = jsonBody(exchange);
    if (body.ok && samePet(env, body.value, expected)) return PASS;
    const status = jsonObject(exchange)?.status;
    if (statusMayChange && typeof status === 'string' && samePet(env, body.ok ? body.value : undefined, { ...expected, status })) return NOT_APPLICABLE;
    return fail(stringifyJson(expected), describeResponse(exchange));
  },
});

/** Bounds the lag is reported in, so that the observations of one run stay few. */
const LAG_BOUNDS_MS = [50, 100, 250, 500, 1000, 2000];

/**
 * Records whether a GET of an animal the service had shown found it at once, or only after 404s
 * (a read replica trailing the primary: the spec promises no read-your-writes timing). `misses`
 * and `lagMs` come from the retries of src/suite/read-lag.ts.
 */
export const getReadLag = defineCheck<{ misses: number; lagMs: number; heldMs?: number }>({
  description: 'Records whether an animal just created or listed is found by the first GET /pets/{id}, or only after a 404',
  judge(exchange, { misses, lagMs, heldMs = 0 }) {
    if (exchange.response?.status !== 200) return NOT_APPLICABLE;
    const bound = LAG_BOUNDS_MS.find((ms) => lagMs <= ms) ?? lagMs;
    if (misses === 0 && heldMs > 0) return { outcome: 'observe', value: `found within ${bound} ms, its first GET held back by the lag earlier reads met` };
    if (misses === 0) return { outcome: 'observe', value: 'found by the first GET' };
    return { outcome: 'observe', value: `404 at first, found within ${bound} ms` };
  },
});

export const getUnknown404 = defineCheck<{ id: string }>({
  description: 'GET /pets/{id} of an id no animal has answers 404',
  judge(exchange, { id }) {
    const status = exchange.response?.status;
    if (status === 404) return PASS;
    if (status === 200) {
      // An animal under exactly that id was there after all: not the server's fault.
      const found = jsonObject(exchange)?.id;
      if (found !== undefined && String(found) === id) return NOT_APPLICABLE;
    }
    return fail(`404 for unknown id ${id}`, describeResponse(exchange));
  },
});

export const getMalformedId = defineCheck<{ id: string }>({
  description: 'GET /pets/{id} with an id that is not an int64 answers 4xx (the Error shape is judged apart)',
  judge(exchange, { id }) {
    const status = exchange.response?.status ?? 0;
    return status >= 400 && status < 500 && status !== 401 ? PASS : fail(`a 4xx for petId ${JSON.stringify(id)}`, describeResponse(exchange));
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const GET_CHECKS = {
  'get.200-pet': get200Pet,
  'get.read-lag': getReadLag,
  'get.unknown-404': getUnknown404,
  'get.malformed-id': getMalformedId,
} as const;
