/** fast-check arbitraries derived from the contract: no I/O, no assertions. */
export { badAuthorizations, firstPercentEncoded, FOREIGN_JWTS, validAuthorization, withoutValidKey, wrongBearer, type AuthVariant } from './auth.ts';
export { invalidBodies, invalidCases, mediaTypeCases, type InvalidBody, type InvalidCase, type InvalidKind } from './invalid.ts';
export { JSON_SPELLED_OTHERWISE, JSON_WITH_CHARSET, JSONISH_MEDIA_TYPES, OTHER_MEDIA_TYPES } from './media-types.ts';
export { EDGE_MESSAGES, invalidMessageCases, newMessage, notUtf8MessageCases, type InvalidMessageRequest } from './messages.ts';
export { coreNewPet, edgeNewPets, invalidNewPet, invalidNewPetCases, newPet, newPetWithNullOptional, newPetWithUnknownField, notUtf8NewPetCases, statusValues } from './pets.ts';
export { invalidQuery, invalidQueryCases, limitBounds, validLimit, validQuery, type InvalidQuery, type QueryInput } from './query.ts';
export { anyString, fromSchema, int64, INT64_MAX, INT64_MIN } from './schema.ts';
export { coreMessage, coreName, MESSAGE_LENGTH, messageEdge, NAME_LENGTH, nameEdge } from './text.ts';
