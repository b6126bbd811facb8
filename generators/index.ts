/** fast-check arbitraries derived from the contract: no I/O, no assertions. */
export { badAuthorizations, validAuthorization, wrongBearer, type AuthVariant } from './auth.ts';
export { invalidBodies, type InvalidBody, type InvalidKind } from './invalid.ts';
export { invalidMessage, newMessage } from './messages.ts';
export { invalidNewPet, newPet, newPetWithUnknownField, statusValues } from './pets.ts';
export { invalidQuery, limitBounds, validLimit, validQuery, type InvalidQuery, type QueryInput } from './query.ts';
export { anyString, fromSchema, int64, INT64_MAX, INT64_MIN } from './schema.ts';
