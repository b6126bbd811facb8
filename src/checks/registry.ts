import { auth401, auth401Body, authAliasNotServed, authSchemeVariant, authValidKeyAccepted, authWwwAuthenticate } from './auth.ts';
import { errorShape, errorStatusField, jsonContentType, jsonNoBom, jsonUniqueNames, noServerError } from './common.ts';
import {
  create201Pet, createCategoryConstraints, createClientIdLeavesExisting, createContentType, createEcho, createNameConstraints, createNameNormalized, createNullOptional, createIdUnique, createIgnoresClientId, createInvalid400, createLocation, createLocationResolves, createUnknownFields, petDefaultStatus,
} from './create.ts';
import {
  deprecationAfterRemoval, deprecationHeadersWellFormed, deprecationOperational, deprecationSignals, deprecationSunsetNotEarly,
} from './deprecation.ts';
import { get200Pet, getMalformedId, getReadLag, getUnknown404 } from './get.ts';
import {
  list200Pets, listFullPage, listInvalidQuery, listInvalidQueryHandling, listLimitAccepted, listLimitDefault, listLimitMax,
  listLimitRespected, listStatusFilter,
} from './list.ts';
import {
  messagesAccepted, messagesCreatedAt, messagesCreatedAtRecent, messagesEcho, messagesIdUnique, messagesInvalid400, messagesNonString,
  messagesStatusQueued, messagesSuccessStatus, messagesTextConstraints, messagesTextNormalized,
} from './messages.ts';
import { ordersAccess, ordersExists } from './orders.ts';
import { rateLimitSeen } from './limits.ts';
import type { Check, JudgeEnv } from './types.ts';

/** Every check, by its stable name. A new clause is one check here and one line in a test. */
export const CHECKS = {
  'json-content-type': jsonContentType,
  'json-no-bom': jsonNoBom,
  'json-unique-names': jsonUniqueNames,
  'error-shape': errorShape,
  'error-status-field': errorStatusField,
  'no-5xx': noServerError,
  'auth-401': auth401,
  'auth-401-error-body': auth401Body,
  'auth-valid-key-accepted': authValidKeyAccepted,
  'auth-www-authenticate': authWwwAuthenticate,
  'auth-scheme-variant': authSchemeVariant,
  'auth-alias-not-served': authAliasNotServed,
  'list-200-pets': list200Pets,
  'list-limit-respected': listLimitRespected,
  'list-limit-default': listLimitDefault,
  'list-limit-max': listLimitMax,
  'list-limit-accepted': listLimitAccepted,
  'list-full-page': listFullPage,
  'list-status-filter': listStatusFilter,
  'list-invalid-query': listInvalidQuery,
  'list-invalid-query-handling': listInvalidQueryHandling,
  'create-201-pet': create201Pet,
  'create-echo': createEcho,
  'create-name-constraints': createNameConstraints,
  'create-name-normalized': createNameNormalized,
  'create-category-constraints': createCategoryConstraints,
  'create-id-unique': createIdUnique,
  'create-ignores-client-id': createIgnoresClientId,
  'create-client-id-leaves-existing': createClientIdLeavesExisting,
  'create-invalid-400': createInvalid400,
  'create-content-type': createContentType,
  'create-null-optional': createNullOptional,
  'create-location': createLocation,
  'create-location-resolves': createLocationResolves,
  'pet-default-status': petDefaultStatus,
  'create-unknown-fields': createUnknownFields,
  'get-200-pet': get200Pet,
  'get-read-lag': getReadLag,
  'get-unknown-404': getUnknown404,
  'get-malformed-id': getMalformedId,
  'deprecation-operational': deprecationOperational,
  'deprecation-headers-well-formed': deprecationHeadersWellFormed,
  'deprecation-sunset-not-early': deprecationSunsetNotEarly,
  'deprecation-signals': deprecationSignals,
  'deprecation-after-removal': deprecationAfterRemoval,
  'orders-exists': ordersExists,
  'orders-access': ordersAccess,
  'messages-accepted': messagesAccepted,
  'messages-echo': messagesEcho,
  'messages-id-unique': messagesIdUnique,
  'messages-status-queued': messagesStatusQueued,
  'messages-created-at': messagesCreatedAt,
  'messages-created-at-recent': messagesCreatedAtRecent,
  'messages-invalid-400': messagesInvalid400,
  'messages-non-string': messagesNonString,
  'messages-success-status': messagesSuccessStatus,
  'messages-text-constraints': messagesTextConstraints,
  'messages-text-normalized': messagesTextNormalized,
  'rate-limit-seen': rateLimitSeen,
} as const;

export type CheckName = keyof typeof CHECKS;

/** The context a check needs besides the exchange and the env. */
export type ContextOf<N extends CheckName> =
  (typeof CHECKS)[N] extends Check<infer C> ? Omit<C, 'env'> : never;

/** Checks applied to every exchange, whatever the scenario. */
export const COMMON_CHECKS = ['no-5xx', 'json-content-type', 'json-no-bom', 'json-unique-names', 'error-shape', 'error-status-field', 'auth-401-error-body', 'auth-www-authenticate', 'rate-limit-seen'] as const satisfies readonly CheckName[];

export function getCheck(name: string): Check<Record<string, unknown>> {
  const check = (CHECKS as Record<string, Check<never>>)[name];
  if (!check) throw new Error(`no check named ${name}`);
  return check as unknown as Check<Record<string, unknown>>;
}

export type { Check, JudgeEnv };
