import { describeResponse, header, jsonBody, type Exchange } from '../http/exchange.ts';
import { acceptedOrRefused, schemaVerdict } from './common.ts';
import { combine, defineCheck, fail, NOT_APPLICABLE, PASS, type JudgeEnv } from './types.ts';

/** `invalid`: what else is wrong with the request (a query, body or path); the key is judged first all the same. */
export const auth401 = defineCheck<{ variant: string; invalid?: string }>({
  description: 'A missing or invalid Authorization is answered with 401, whatever else is wrong with the request',
  judge(exchange, { variant, invalid }) {
    if (variant === undefined) return NOT_APPLICABLE;
    const status = exchange.response?.status;
    if (status === 401) return PASS;
    const besides = invalid ? `, whatever else is wrong (here ${invalid}): §7 gives 401 on all operations` : '';
    return fail(`401 for Authorization ${variant}${besides}`, describeResponse(exchange));
  },
});

export const auth401Body = defineCheck({
  description: 'A 401 carries an Error body',
  judge(exchange, { env }) {
    if (exchange.response?.status !== 401) return NOT_APPLICABLE;
    return schemaVerdict(exchange, env, 'Error');
  },
});

/**
 * Whether the contract shows no success for the exchange's operation: its responses are then not
 * shown (§4.4), so a 403 may deny the key's account the operation without rejecting the key.
 */
function responsesOpen(exchange: Exchange, env: JudgeEnv): boolean {
  const responses = exchange.operationId ? env.contract.operations[exchange.operationId]?.responses : undefined;
  return responses !== undefined && !Object.keys(responses).some((code) => code.startsWith('2'));
}

/** Where the operation's responses are not shown, a 403 passes here and orders.access records it. */
export const authValidKeyAccepted = defineCheck({
  description: 'Authorization: Bearer <API_KEY> is never answered with 401, nor with 403 where the operation\'s responses are shown',
  judge(exchange, { env }) {
    const status = exchange.response?.status;
    if (status === undefined) return NOT_APPLICABLE;
    const mayForbid = responsesOpen(exchange, env);
    if (status === 401 || (status === 403 && !mayForbid)) {
      return fail(mayForbid ? 'a status other than 401 for the valid key' : 'a status other than 401 and 403 for the valid key', describeResponse(exchange));
    }
    return PASS;
  },
});

/**
 * Records whether the valid key is taken under another spelling of the Bearer form: the scheme in
 * lower case (RFC 9110 §11.1: "a case-insensitive token") or two spaces before the token (RFC 6750
 * §2.1: 1*SP). §5 shows only `Bearer <API_KEY>`, so either answer is allowed.
 */
export const authSchemeVariant = defineCheck<{ variant: string }>({
  description: 'Records whether "bearer <API_KEY>" and "Bearer  <API_KEY>" are taken for the valid key',
  judge(exchange, { variant }) {
    return acceptedOrRefused(exchange, variant, (status) => status >= 200 && status < 300);
  },
});

export const authWwwAuthenticate = defineCheck({
  description: 'A 401 carries a WWW-Authenticate challenge',
  judge(exchange) {
    if (exchange.response?.status !== 401) return NOT_APPLICABLE;
    const challenge = header(exchange, 'www-authenticate');
    if (challenge && /\S/.test(challenge)) return PASS;
    return fail('WWW-Authenticate: Bearer …', 'no WWW-Authenticate header on the 401');
  },
});

export const authAliasNotServed = defineCheck<{ alias: string }>({
  description: 'Without credentials, another spelling of GET /v1/pets (a trailing slash, upper case, a doubled slash) serves no listing, and HEAD /v1/pets or /v1/pets/{petId} no 2xx',
  judge(exchange, { alias }) {
    const status = exchange.response?.status;
    if (alias === undefined || status === undefined) return NOT_APPLICABLE;
    if (status < 200 || status > 299) return PASS;
    // A HEAD has no body to look at; its 2xx says the GET would have been served (RFC 9110 §9.3.2).
    if (exchange.request.method === 'HEAD') return fail(`no 2xx for ${alias} without credentials (401, or 404, 405, a redirect)`, describeResponse(exchange));
    // Any JSON array is data served without a key, whether or not each item is a valid Pet.
    const body = jsonBody(exchange);
    if (!body.ok || !Array.isArray(body.value)) return PASS;
    return fail(`no listing at ${alias} without credentials (401, or 404, 405, a redirect)`, describeResponse(exchange));
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const AUTH_CHECKS = {
  'auth.required': combine(auth401, authAliasNotServed),
  'auth.error-body': auth401Body,
  'auth.valid-key-accepted': authValidKeyAccepted,
  'auth.scheme-variants': authSchemeVariant,
  'auth.www-authenticate': authWwwAuthenticate,
} as const;
