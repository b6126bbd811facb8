/** Content-Types other than application/json (null: none at all). */
export const OTHER_MEDIA_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', null] as const;

/**
 * application/json with a charset parameter: still application/json (RFC 9110 §8.3; RFC 8259 §11
 * defines no charset for it, so adding one "really has no effect on compliant recipients").
 */
export const JSON_WITH_CHARSET = ['application/json; charset=utf-8', 'application/json;charset=UTF-8'] as const;
