/**
 * The API key and other secrets in every output: the forms of the key the suite sends (and a server
 * may echo back), and their redaction from text, markup and a whole run report. Outputs show
 * `$API_KEY` in their place.
 */

/** The placeholder every secret is replaced with. */
export const SECRET_PLACEHOLDER = '$API_KEY';

function usableSecrets(secrets: readonly string[] | undefined): string[] {
  if (!secrets) return [];
  const set = new Set(secrets.filter((s) => typeof s === 'string' && s.length > 0 && s !== SECRET_PLACEHOLDER));
  // Longer first, so a secret that contains another one is replaced whole.
  return [...set].sort((a, b) => b.length - a.length);
}

/**
 * Secrets shorter than this are replaced only where they stand as a whole token: replacing every
 * occurrence of a key like `abc` would mangle words, ids and clause names in every report.
 */
export const SHORT_SECRET_LENGTH = 8;

export interface NearMissKeys {
  /** The key with the case of its ASCII letters swapped (sh: `$(printf %s "$API_KEY" | tr 'a-zA-Z' 'A-Za-z')`), unless it has none. */
  caseSwapped?: string;
  /** The key without its last character (sh: `${API_KEY%?}`), unless that leaves nothing. */
  truncated?: string;
  /** The key without its first character (sh: `${API_KEY#?}`), unless that leaves nothing. */
  beheaded?: string;
  /** The key with its last character replaced (see replacementOf): as long as the key. */
  lastReplaced?: string;
  /** The key with its first character replaced (these three for a key of 3 characters or more). */
  firstReplaced?: string;
  /** The key with the character after its first half (index length/2, rounded down) replaced. */
  middleReplaced?: string;
  /** For a key of digits only, the same number written otherwise: `0<key>`, `<key>.0`, `+<key>`. */
  zeroPrefixed?: string;
  decimalSuffixed?: string;
  plusPrefixed?: string;
}

/** What an equal-length near miss puts in place of a character: x, or y where it was x. */
function replacementOf(char: string): string {
  return char === 'x' ? 'y' : 'x';
}

function replacedAt(key: string, index: number): string {
  return `${key.slice(0, index)}${replacementOf(key[index]!)}${key.slice(index + 1)}`;
}

/** Wrong keys that hold almost all of the key: the suite sends them, so outputs must redact them. */
export function nearMissKeys(key: string): NearMissKeys {
  const near: NearMissKeys = {};
  // Only a key of both cases shows case is part of its alphabet; a hex key may be read either way.
  if (/[a-z]/.test(key) && /[A-Z]/.test(key)) near.caseSwapped = key.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  // Cut from a key of exactly SHORT_SECRET_LENGTH, it would be redacted only as a token while the key is redacted everywhere.
  if (key.length > 1 && key.length !== SHORT_SECRET_LENGTH) {
    near.truncated = key.slice(0, -1);
    near.beheaded = key.slice(1);
  }
  // Only of a printable ASCII key, whose characters the sh of the curl line (${#…}, cut -c) counts as
  // here, and of 3 characters or more: of a shorter one each is a word such as x, redacted wherever it stands.
  if (/^[\x21-\x7e]+$/.test(key) && key.length >= 3) {
    near.lastReplaced = replacedAt(key, key.length - 1);
    near.firstReplaced = replacedAt(key, 0);
    near.middleReplaced = replacedAt(key, Math.floor(key.length / 2));
  }
  if (/^\d+$/.test(key)) {
    near.zeroPrefixed = `0${key}`;
    near.decimalSuffixed = `${key}.0`;
    near.plusPrefixed = `+${key}`;
  }
  return near;
}

/**
 * How a server may echo a form back: with JSON's escaped solidus (PHP's json_encode writes `\/`), or
 * percent-encoded, in either case of hex digit.
 */
function echoedForms(form: string): string[] {
  const percent = encodeURIComponent(form);
  return [form.replaceAll('/', '\\/'), percent, percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())];
}

/** The Basic credentials the wrong-credential probes send: the key as the user name (`<key>:`), and as the password (`user:<key>`). */
export function basicCredentials(key: string): { keyAsUser: string; keyAsPassword: string } {
  return { keyAsUser: Buffer.from(`${key}:`).toString('base64'), keyAsPassword: Buffer.from(`user:${key}`).toString('base64') };
}

/**
 * The key and the Authorization value that carries it, encoded as a server may reflect them: base64
 * and base64url without their padding, and hex (either case, as secrets of SHORT_SECRET_LENGTH or
 * more are matched).
 */
function encodedForms(key: string): string[] {
  const forms: string[] = [];
  for (const text of [key, `Bearer ${key}`]) {
    const bytes = Buffer.from(text, 'utf8');
    forms.push(bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url'), bytes.toString('hex'));
  }
  return forms.filter((form) => form.length >= SHORT_SECRET_LENGTH);
}

/**
 * The forms of the API key the suite itself sends (the key, and those of its wrong-credential
 * probes), each also as a server may echo it back, and the key encoded (encodedForms).
 */
export function keyForms(key: string): string[] {
  const { keyAsUser, keyAsPassword } = basicCredentials(key);
  const sent = [key, keyAsUser, keyAsPassword, ...encodedForms(key)];
  // A key this short is only replaced as a whole token, so the probes that glue something to it are named too.
  if (key.length < SHORT_SECRET_LENGTH) sent.push(`${key}x`, `x${key}`, `Bearer${key}`);
  sent.push(...Object.values(nearMissKeys(key)));
  return [...new Set(sent.flatMap((form) => [form, ...echoedForms(form)]))];
}

/** A secret other than the key (a gateway header's value, proxy credentials), also as a server may echo it back. */
export function secretForms(secret: string): string[] {
  return secret ? [...new Set([secret, ...echoedForms(secret)])] : [];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD = /[\p{L}\p{N}_-]/u;
// Before a short secret: no letter, digit, _ or -, unless it ends a %XX, \uXXXX or \n-style escape.
const TOKEN_START = '(?:(?<![\\p{L}\\p{N}_-])|(?<=%[0-9A-Fa-f]{2}|\\\\u[0-9A-Fa-f]{4}|\\\\[nrtbf]))';
const TOKEN_END = '(?![\\p{L}\\p{N}_-])';

/** A hex number of `width` digits, each letter in either case. */
function hexEitherCase(value: number, width: number): string {
  return value
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
}

/**
 * One character of a secret as a server may echo it: itself, JSON-escaped (`\u002d`, a surrogate
 * pair for one beyond the BMP; `\/` for a solidus), percent-encoded (its UTF-8 bytes) or an HTML
 * character reference (`&#45;`, `&#x2d;`), any escape in either case of hex digit. So a key echoed
 * in any mix of those spellings is still found.
 */
function charPattern(char: string): string {
  const units = Array.from({ length: char.length }, (_, i) => char.charCodeAt(i));
  const code = char.codePointAt(0)!;
  const forms = [
    escapeRegExp(char),
    units.map((unit) => `\\\\u${hexEitherCase(unit, 4)}`).join(''),
    [...Buffer.from(char, 'utf8')].map((byte) => `%${hexEitherCase(byte, 2)}`).join(''),
    `&#0*${code};`,
    `&#[xX]0*${hexEitherCase(code, 1)};`,
  ];
  if (char === '/') forms.push('\\\\/');
  return `(?:${forms.join('|')})`;
}

function secretPattern(secret: string): string {
  const literal = Array.from(secret).map(charPattern).join('');
  if (secret.length >= SHORT_SECRET_LENGTH) return literal;
  // A boundary is asked for only on a side where the secret's own edge is a word character.
  const chars = Array.from(secret);
  return `${WORD.test(chars[0]!) ? TOKEN_START : ''}${literal}${WORD.test(chars[chars.length - 1]!) ? TOKEN_END : ''}`;
}

/** The shortest start of a secret that is replaced where a text was cut off inside the secret. */
export const CUT_SECRET_MIN = 4;

/**
 * A start of the secret (CUT_SECRET_MIN characters or more, short of the whole) where a text was
 * cut with `…`, or, for an excerpt known to be cut (`atEnd`), where it ends: excerpts are cut at a
 * byte count that may fall inside an echoed key. Elsewhere a start of the key is left alone, as a
 * key beginning with a word would take that word out of every report ("client-id").
 */
function cutPattern(secret: string, atEnd: boolean): string {
  const chars = Array.from(secret);
  let tail = '';
  for (let i = chars.length - 2; i >= CUT_SECRET_MIN; i--) tail = `(?:${escapeRegExp(chars[i]!)}${tail})?`;
  return `${escapeRegExp(chars.slice(0, CUT_SECRET_MIN).join(''))}${tail}(?=…${atEnd ? '|$' : ''})`;
}

const PATTERNS = new Map<string, RegExp[]>();

/**
 * The secrets of SHORT_SECRET_LENGTH or more in any case of their letters (a server may fold one
 * into a header name, or upper-case it), then the short ones as they are: one alternation each,
 * longest secret first, the cut-off starts of the long ones after them; built once per list.
 */
function redactionPatterns(list: string[], atEnd: boolean): RegExp[] {
  const id = `${atEnd}\u0000${list.join('\u0000')}`;
  let patterns = PATTERNS.get(id);
  if (!patterns) {
    const long = list.filter((secret) => secret.length >= SHORT_SECRET_LENGTH);
    const short = list.filter((secret) => secret.length < SHORT_SECRET_LENGTH);
    const cut = long.filter((secret) => Array.from(secret).length > CUT_SECRET_MIN).map((secret) => cutPattern(secret, atEnd));
    patterns = [];
    if (long.length) patterns.push(new RegExp([...long.map(secretPattern), ...cut].join('|'), 'giu'));
    if (short.length) patterns.push(new RegExp(short.map(secretPattern).join('|'), 'gu'));
    PATTERNS.set(id, patterns);
  }
  return patterns;
}

/**
 * Replaces every occurrence of every secret with `$API_KEY` (existing placeholders are kept); a
 * secret shorter than SHORT_SECRET_LENGTH only where it stands as a token. `cutAtEnd`: the text is
 * an excerpt whose end cut what followed.
 */
export function redactText(text: string, secrets: readonly string[] | undefined, { cutAtEnd = false } = {}): string {
  const list = usableSecrets(secrets);
  if (list.length === 0) return text;
  // Placeholders, those there before and those each pass writes, are split out before the next
  // pass, so a secret inside "$API_KEY" is left alone.
  let out = text;
  for (const pattern of redactionPatterns(list, cutAtEnd)) {
    out = out
      .split(SECRET_PLACEHOLDER)
      .map((part) => part.replace(pattern, () => SECRET_PLACEHOLDER))
      .join(SECRET_PLACEHOLDER);
  }
  return out;
}

/**
 * The last pass over rendered markup (HTML, XML), whose data was redacted before rendering: short
 * secrets are left out, as they would match tag and attribute names (`a`, `class`, `div`).
 */
export function redactMarkup(markup: string, secrets: readonly string[] | undefined): string {
  return redactText(markup, secrets?.filter((secret) => secret.length >= SHORT_SECRET_LENGTH));
}

/** Keys are the model's own names, never data, except inside a `headers` record. */
function redactValue(value: unknown, secrets: string[], dataKeys = false): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[dataKeys ? redactText(k, secrets) : k] = redactValue(v, secrets, k === 'headers');
    // A response's excerpt that stops short of its body was cut at its end.
    const excerpt = (value as { bodyExcerpt?: unknown; bodyTruncated?: unknown }).bodyExcerpt;
    if (typeof excerpt === 'string' && (value as { bodyTruncated?: unknown }).bodyTruncated === true) out.bodyExcerpt = redactText(excerpt, secrets, { cutAtEnd: true });
    return out;
  }
  return value;
}

/**
 * A deep copy of a run report (or any part of one) with every secret replaced in every string, the
 * names in a `headers` record included; the same object when there is no secret to replace.
 */
export function redactReport<T>(report: T, secrets: readonly string[] | undefined): T {
  const list = usableSecrets(secrets);
  if (list.length === 0) return report;
  return redactValue(report, list) as T;
}
