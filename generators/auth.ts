import fc from 'fast-check';
import type { Authorization } from '../src/http/client.ts';
import { basicCredentials, nearMissKeys } from '../src/secrets.ts';

/** An Authorization header to send (null: none), with how it is shown: `$API_KEY`, never the key. */
export interface AuthVariant {
  id: string;
  authorization: Authorization | null;
}

/**
 * What a request whose query, body or path is invalid is sent under: no Authorization, and a wrong
 * key. It must still get 401 (§5.3, §7: on all operations): a server that validates before it
 * authenticates answers 400 or 404 instead, and tells a caller without a key what it holds.
 */
export function withoutValidKey(key: string): AuthVariant[] {
  return [
    { id: 'absent', authorization: null },
    { id: 'key with a suffix', authorization: { value: `Bearer ${key}x`, shown: 'Bearer ${API_KEY}x' } },
  ];
}

/**
 * JWT-shaped tokens the service never issued: `{}.{}.` with an empty signature (what a check that
 * honours `alg: none` or a missing alg takes), and an HS256 JWT of `{"sub":"animal-store-conformance"}`
 * signed with the secret `not-the-api-key` (what a check that decodes without verifying takes).
 */
export const FOREIGN_JWTS = {
  unsigned: 'e30.e30.',
  wronglySigned: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbmltYWwtc3RvcmUtY29uZm9ybWFuY2UifQ.m5-4xKLu5bjgVpyRHGPBhlQGRrKEc6_khgQnYylunk4',
} as const;

/**
 * Every Authorization that is not `Bearer <API_KEY>`: §5.2 names that one form. The scheme's case is
 * left alone (RFC 9110 makes it case-insensitive), so `bearer <key>` is never sent as a bad key. The
 * raw key under another scheme (Basic, Token) catches a server that ignores the scheme and compares
 * what follows it (§4.5: 401 when the header "is not in the `Bearer <API_KEY>` form"); the key as a
 * Basic password, one that reuses an HTTP Basic check; the key followed by another word, one that
 * splits the header on spaces and compares the second word. The near misses of the key catch a
 * case-insensitive lookup (a `*_ci` collation), a prefix or truncated comparison, and a suffix
 * comparison (`endsWith`) either way round; the key with its last, first or a middle character
 * replaced, a comparison that skips a character of a token as long as the key (an off-by-one loop, a
 * compare of half the bytes); for a key of digits, the same number written otherwise (`0<key>`,
 * `<key>.0`, `+<key>`), a comparison by value (PHP's loose `==`). The FOREIGN_JWTS, one that takes any
 * JWT without verifying its signature. The key glued to the scheme or quoted catches a server that
 * strips `Bearer` with the spaces after it, or unquotes the token; `undefined` and `null`, one that
 * compares with a setting it never read. The key in an X-API-Key, Api-Key, X-Auth-Token or
 * X-Access-Token header, or a cookie, and no Authorization catches a server that also takes the key
 * from a header of its own (§5.2 passes it as a bearer token in Authorization; §5.3: a missing key
 * gets 401). X-Forwarded-For, X-Real-IP or Forwarded naming 127.0.0.1, and no Authorization, catches a
 * server that lets its own host's requests through unauthenticated and believes a header the client
 * sets about where a request comes from. The key percent-encoded, or followed by `==`, one that
 * URL-decodes the token or compares base64 keys decoded.
 */
export function badAuthorizations(key: string): AuthVariant[] {
  const { keyAsUser: basic, keyAsPassword: basicPassword } = basicCredentials(key);
  const { caseSwapped, truncated, beheaded, lastReplaced, firstReplaced, middleReplaced, zeroPrefixed, decimalSuffixed, plusPrefixed } = nearMissKeys(key);
  const nearMisses: AuthVariant[] = [];
  if (caseSwapped) nearMisses.push({ id: 'key with the case of its letters swapped', authorization: { value: `Bearer ${caseSwapped}`, shown: `Bearer $(printf %s "$API_KEY" | tr 'a-zA-Z' 'A-Za-z')` } });
  if (truncated) nearMisses.push({ id: 'key without its last character', authorization: { value: `Bearer ${truncated}`, shown: 'Bearer ${API_KEY%?}' } });
  if (beheaded) nearMisses.push({ id: 'key without its first character', authorization: { value: `Bearer ${beheaded}`, shown: 'Bearer ${API_KEY#?}' } });
  if (lastReplaced) nearMisses.push({ id: 'key with its last character replaced', authorization: { value: `Bearer ${lastReplaced}`, shown: `Bearer \${API_KEY%?}${shReplacement('${API_KEY#"${API_KEY%?}"}')}` } });
  if (firstReplaced) nearMisses.push({ id: 'key with its first character replaced', authorization: { value: `Bearer ${firstReplaced}`, shown: `Bearer ${shReplacement('${API_KEY%"${API_KEY#?}"}')}\${API_KEY#?}` } });
  if (middleReplaced) {
    const cut = (columns: string) => `$(printf %s "$API_KEY" | cut -c${columns})`;
    const shown = `Bearer ${cut('-$((${#API_KEY}/2))')}${shReplacement(cut('$((${#API_KEY}/2+1))'))}${cut('$((${#API_KEY}/2+2))-')}`;
    nearMisses.push({ id: 'key with a middle character replaced', authorization: { value: `Bearer ${middleReplaced}`, shown } });
  }
  if (zeroPrefixed) nearMisses.push({ id: 'numeric key after a 0', authorization: { value: `Bearer ${zeroPrefixed}`, shown: 'Bearer 0$API_KEY' } });
  if (decimalSuffixed) nearMisses.push({ id: 'numeric key followed by .0', authorization: { value: `Bearer ${decimalSuffixed}`, shown: 'Bearer ${API_KEY}.0' } });
  if (plusPrefixed) nearMisses.push({ id: 'numeric key after a +', authorization: { value: `Bearer ${plusPrefixed}`, shown: 'Bearer +$API_KEY' } });
  // Shown as a POSIX sh works it out (printf gives a character's code after a quote), so no character of the key is written down.
  if (/^[A-Za-z0-9]/.test(key)) {
    nearMisses.push({ id: 'key with its first character percent-encoded', authorization: { value: `Bearer ${firstPercentEncoded(key)}`, shown: `Bearer $(printf '%%%02X' "'\${API_KEY%"\${API_KEY#?}"}")\${API_KEY#?}` } });
  }
  const [absent, suffixed] = withoutValidKey(key);
  return [
    absent!,
    { id: 'empty', authorization: { value: '', shown: '' } },
    { id: 'Bearer without a token', authorization: { value: 'Bearer', shown: 'Bearer' } },
    { id: 'Basic scheme', authorization: { value: `Basic ${basic}`, shown: `Basic $(printf '%s:' "$API_KEY" | base64 | tr -d '\\n')` } },
    { id: 'Basic scheme with the raw key', authorization: { value: `Basic ${key}`, shown: 'Basic $API_KEY' } },
    { id: 'Basic scheme with the key as the password', authorization: { value: `Basic ${basicPassword}`, shown: `Basic $(printf 'user:%s' "$API_KEY" | base64 | tr -d '\\n')` } },
    { id: 'Token scheme', authorization: { value: `Token ${key}`, shown: 'Token $API_KEY' } },
    { id: 'key without a scheme', authorization: { value: key, shown: '$API_KEY' } },
    suffixed!,
    { id: 'key followed by another word', authorization: { value: `Bearer ${key} x`, shown: 'Bearer $API_KEY x' } },
    { id: 'key after another character', authorization: { value: `Bearer x${key}`, shown: 'Bearer x$API_KEY' } },
    { id: 'key glued to the scheme', authorization: { value: `Bearer${key}`, shown: 'Bearer$API_KEY' } },
    { id: 'key in quotes', authorization: { value: `Bearer "${key}"`, shown: `Bearer $(printf '"%s"' "$API_KEY")` } },
    { id: 'the word undefined', authorization: { value: 'Bearer undefined', shown: 'Bearer undefined' } },
    { id: 'the word null', authorization: { value: 'Bearer null', shown: 'Bearer null' } },
    { id: 'a JWT of {} and {} without a signature', authorization: { value: `Bearer ${FOREIGN_JWTS.unsigned}`, shown: `Bearer ${FOREIGN_JWTS.unsigned}` } },
    { id: 'an HS256 JWT signed with another secret', authorization: { value: `Bearer ${FOREIGN_JWTS.wronglySigned}`, shown: `Bearer ${FOREIGN_JWTS.wronglySigned}` } },
    { id: 'key followed by base64 padding', authorization: { value: `Bearer ${key}==`, shown: 'Bearer ${API_KEY}==' } },
    { id: 'none, the key in X-API-Key', authorization: { value: key, shown: '$API_KEY', header: 'X-API-Key' } },
    { id: 'none, the key in Api-Key', authorization: { value: key, shown: '$API_KEY', header: 'Api-Key' } },
    { id: 'none, the key in X-Auth-Token', authorization: { value: key, shown: '$API_KEY', header: 'X-Auth-Token' } },
    { id: 'none, the key in X-Access-Token', authorization: { value: key, shown: '$API_KEY', header: 'X-Access-Token' } },
    { id: 'none, the key in a cookie (api_key)', authorization: { value: `api_key=${key}`, shown: 'api_key=$API_KEY', header: 'Cookie' } },
    ...LOOPBACK_CLAIMS,
    ...nearMisses,
  ];
}

/** No Authorization, and a header saying the request comes from the server's own host: a server trusting it skips authentication for anyone who sends it. */
const LOOPBACK_CLAIMS: readonly AuthVariant[] = [
  { id: 'none, from 127.0.0.1 as X-Forwarded-For says', authorization: { value: '127.0.0.1', shown: '127.0.0.1', header: 'X-Forwarded-For' } },
  { id: 'none, from 127.0.0.1 as X-Real-IP says', authorization: { value: '127.0.0.1', shown: '127.0.0.1', header: 'X-Real-IP' } },
  { id: 'none, from 127.0.0.1 as Forwarded says', authorization: { value: 'for=127.0.0.1', shown: 'for=127.0.0.1', header: 'Forwarded' } },
];

/**
 * POSIX sh printing what replacementOf puts in place of the character `char` (an sh expression) prints:
 * the curl line works it out, so it writes down nothing of the key's character.
 */
function shReplacement(char: string): string {
  return `$([ "${char}" = x ] && printf y || printf x)`;
}

/** The text with its first character, an ASCII one, percent-encoded: `pets` as `%70ets`. */
export function firstPercentEncoded(text: string): string {
  return `%${text.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}${text.slice(1)}`;
}

/** Random wrong bearer tokens (never equal to the key). */
export function wrongBearer(key: string): fc.Arbitrary<AuthVariant> {
  return fc
    .stringMatching(/^[A-Za-z0-9._~+/-]{1,64}=*$/)
    .filter((token) => token !== key)
    .map((token) => ({ id: 'random wrong key', authorization: { value: `Bearer ${token}`, shown: `Bearer ${token}` } }));
}

export function validAuthorization(key: string): AuthVariant {
  return { id: 'valid key', authorization: { value: `Bearer ${key}`, shown: 'Bearer $API_KEY' } };
}
