import { AUTH_CHECKS } from './auth.ts';
import { COMMON_CLAUSE_CHECKS } from './common.ts';
import { CREATE_INPUT_CHECKS } from './create-input.ts';
import { CREATE_CHECKS } from './create.ts';
import { DEPRECATION_CHECKS } from './deprecation.ts';
import { GET_CHECKS } from './get.ts';
import { LIMITS_CHECKS } from './limits.ts';
import { LIST_CHECKS } from './list.ts';
import { MESSAGES_CHECKS } from './messages.ts';
import { ORDERS_CHECKS } from './orders.ts';
import { STATE_CHECKS } from './state.ts';
import type { Check, JudgeEnv } from './types.ts';

/** The checks by family (one file of src/checks each); a check without its canned cases does not compile. */
export const FAMILIES = {
  common: COMMON_CLAUSE_CHECKS,
  auth: AUTH_CHECKS,
  list: LIST_CHECKS,
  create: CREATE_CHECKS,
  'create-input': CREATE_INPUT_CHECKS,
  get: GET_CHECKS,
  deprecation: DEPRECATION_CHECKS,
  orders: ORDERS_CHECKS,
  messages: MESSAGES_CHECKS,
  limits: LIMITS_CHECKS,
  state: STATE_CHECKS,
} as const satisfies Readonly<Record<string, Readonly<Record<string, { cases: object }>>>>;

/**
 * Every check, keyed by the id of the clause in spec/clauses.yaml it verifies: one name from the
 * catalogue to the reports. A new clause is one entry in its family's file.
 */
export const CHECKS = {
  ...COMMON_CLAUSE_CHECKS,
  ...AUTH_CHECKS,
  ...LIST_CHECKS,
  ...CREATE_CHECKS,
  ...CREATE_INPUT_CHECKS,
  ...GET_CHECKS,
  ...DEPRECATION_CHECKS,
  ...ORDERS_CHECKS,
  ...MESSAGES_CHECKS,
  ...LIMITS_CHECKS,
  ...STATE_CHECKS,
} as const;

/** A clause id that has a check. */
export type CheckName = keyof typeof CHECKS;

/** The context a check needs besides the exchange and the env. */
export type ContextOf<N extends CheckName> =
  (typeof CHECKS)[N] extends Check<infer C> ? Omit<C, 'env'> : never;

/** Checks applied to every exchange, whatever the scenario. */
export const COMMON_CHECKS = ['errors.no-5xx', 'json.content-type', 'json.unique-names', 'errors.shape', 'errors.status-field', 'auth.error-body', 'auth.www-authenticate', 'limits.rate-limit', 'create.id-unique', 'state.id-fresh', 'get.same-id', 'messages.id-unique', 'messages.status-queued', 'messages.created-at', 'messages.created-at-recent', 'deprecation.headers-well-formed', 'deprecation.sunset-not-early', 'list.shows-created', 'json.content-coding', 'http.one-answer'] as const satisfies readonly CheckName[];

export function getCheck(name: string): Check<Record<string, unknown>> {
  const check = (CHECKS as Record<string, unknown>)[name] as Check<never> | undefined;
  if (!check) throw new Error(`no check for clause ${name}`);
  return check as unknown as Check<Record<string, unknown>>;
}

export function isCheckName(name: string): name is CheckName {
  return Object.hasOwn(CHECKS, name);
}

export type { Check, JudgeEnv };
