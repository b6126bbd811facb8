/**
 * Not application/json, though JSON by name: what a lax check takes for it (`/json/.test(type)`,
 * `startsWith('application/json')`, a `+json` suffix). §4.5 makes each a 400 for messages.
 */
export const JSONISH_MEDIA_TYPES = ['text/json', 'application/x-json', 'application/vnd.api+json', 'application/json-patch+json'] as const;

/** Content-Types other than application/json (null: none at all). */
export const OTHER_MEDIA_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', null, ...JSONISH_MEDIA_TYPES] as const;

/**
 * application/json with a charset parameter: still application/json (RFC 9110 §8.3; RFC 8259 §11
 * defines no charset for it, so adding one "really has no effect on compliant recipients").
 */
export const JSON_WITH_CHARSET = ['application/json; charset=utf-8', 'application/json;charset=UTF-8'] as const;

/**
 * application/json written otherwise, each a valid body's label that must be taken: with a charset
 * parameter, or in other letter case (RFC 9110 §8.3.1: the type and subtype are case-insensitive).
 */
export const JSON_SPELLED_OTHERWISE = [...JSON_WITH_CHARSET, 'Application/JSON'] as const;
