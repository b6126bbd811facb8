import { describeResponse, header, type Exchange } from '../http/exchange.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS } from './types.ts';
import { earliestRemoval, earliestRemovalText, mayBeRemoved, removalOf } from '../contract/removal.ts';
import { errorBody, exchange, failed, pet } from './exchanges.ts';

// Values the cases below share.
const REMOVAL = new Date('2030-12-05T00:00:00Z');
const AFTER_REMOVAL = new Date('2031-01-10T00:00:00Z');
const REMOVAL_DAY_BEGINS = new Date('2030-12-04T10:00:00Z');
const JUST_BEFORE_IT = new Date(REMOVAL_DAY_BEGINS.getTime() - 1);
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
const DEPRECATION_HEADERS = { deprecation: '@1735689600', sunset: SUNSET, link: '</v1/pets>; rel="successor-version"' };

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms recipients must accept. */
const HTTP_DATE = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`),
  new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$`),
  new RegExp(`^${DAY} ${MONTH} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4}$`),
];
/** RFC 9651 §3.3: the bare items a parameter's value may be. */
const SF_BARE_ITEM = [
  '-?\\d{1,12}\\.\\d{1,3}',
  '-?\\d{1,15}',
  '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\["\\\\])*"',
  "[A-Za-z*][!#$%&'*+.^_`|~0-9A-Za-z:/-]*",
  ':[A-Za-z0-9+/=]*:',
  '\\?[01]',
  '@-?\\d{1,15}',
  '%"(?:[\\x20\\x21\\x23\\x24\\x26-\\x5b\\x5d-\\x7e]|\\\\["\\\\]|%[0-9a-f]{2})*"',
].join('|');
/** RFC 9651 §3.1.2: `;key` or `;key=bare-item`, as many as wanted. */
const SF_PARAMETERS = `(?:; *[a-z*][a-z0-9_.*-]*(?:=(?:${SF_BARE_ITEM}))?)*`;
/** RFC 9745 §2: an RFC 9651 Item whose value is a Date, "@" and an integer of at most 15 digits; an Item may carry parameters. */
const SF_DATE = new RegExp(`^@-?\\d{1,15}${SF_PARAMETERS}$`);
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
/** RFC 8288 §3: `<URI-Reference>` then `; param` pairs; link-values separated by commas. */
const LINK_VALUE = new RegExp(`^<[^<>\\s]*>(?:\\s*;\\s*${TOKEN}(?:\\s*=\\s*(?:${TOKEN}|${QUOTED}))?)*$`);

export function parseHttpDate(value: string): Date | undefined {
  const text = value.trim();
  if (!HTTP_DATE.some((re) => re.test(text))) return undefined;
  const time = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  if (Number.isNaN(time)) return undefined;
  const date = new Date(time);
  // Date.parse rolls 31 February over into March and ignores the weekday: an IMF-fixdate must round-trip.
  if (HTTP_DATE[0]!.test(text) && date.toUTCString() !== text) return undefined;
  return date;
}

function splitLinks(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inQuotes = false;
  let inUri = false;
  for (const char of value) {
    if (char === '"' && !inUri) inQuotes = !inQuotes;
    else if (char === '<' && !inQuotes) inUri = true;
    else if (char === '>' && !inQuotes) inUri = false;
    if (char === ',' && !inQuotes && !inUri) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  // RFC 9110 §5.6.1.2: a recipient MUST accept and ignore empty list elements.
  return parts.filter((part) => part !== '');
}

const DEPRECATION_HEADER_NAMES = ['deprecation', 'sunset', 'link'] as const;
/** A Deprecation date this far ahead of the suite's clock is no clock skew. */
const DEPRECATION_AHEAD_MS = 86_400_000;

/** The date a Deprecation value names (RFC 9745's @seconds, or a draft's HTTP-date), if it names one. */
function deprecationDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (SF_DATE.test(text)) return new Date(Number(/^@(-?\d+)/.exec(text)![1]) * 1000);
  return parseHttpDate(text);
}

/** Problems with whichever deprecation headers are present. */
export function deprecationHeaderProblems(exchange: Exchange): string[] {
  const problems: string[] = [];
  const deprecation = header(exchange, 'deprecation')?.trim();
  // `true` and an HTTP-date are the forms of the drafts before RFC 9745, still widely sent.
  if (deprecation !== undefined && !SF_DATE.test(deprecation) && deprecation !== 'true' && !parseHttpDate(deprecation)) {
    problems.push(`Deprecation: ${deprecation} is neither an RFC 9745 date (@<seconds>) nor a draft form (true, an HTTP-date)`);
  }
  const sunset = header(exchange, 'sunset');
  if (sunset !== undefined && !parseHttpDate(sunset)) problems.push(`Sunset: ${sunset} is not an HTTP-date (RFC 8594 §3)`);
  const link = header(exchange, 'link');
  if (link !== undefined) {
    const bad = splitLinks(link).find((part) => !LINK_VALUE.test(part));
    if (bad !== undefined) problems.push(`Link: ${bad} is not an RFC 8288 link-value`);
  }
  return problems;
}

export const deprecationOperational = defineCheck<{ removal: Date; id: string }>({
  description: 'Until its removal day begins anywhere (UTC+14), GET /pets/{id} of a listed animal answers 200',
  judge(exchange, { env, removal, id }) {
    if (mayBeRemoved(env.now, removal)) return NOT_APPLICABLE;
    if (exchange.response?.status === 200) return PASS;
    return fail(`200 for listed id ${id} until ${earliestRemovalText(removal)} (the ${removal.toISOString().slice(0, 10)} removal day's start at UTC+14)`, describeResponse(exchange));
  },
  cases: {
    ctx: { removal: REMOVAL, id: '7' },
    pass: [{ why: 'a 200 before removal', ex: exchange(200, pet(7), DEPRECATION_HEADERS) }],
    fail: [
      { why: 'a 404 for a listed id before removal', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'a 410 before removal', ex: exchange(410, errorBody(410)) },
      { why: 'a 410 at 09:59:59.999Z on 4 December 2030, still 4 December everywhere', ex: exchange(410, errorBody(410)), now: JUST_BEFORE_IT },
    ],
    na: [
      { why: 'a 404 after removal', ex: exchange(404, errorBody(404)), now: AFTER_REMOVAL },
      { why: 'a 410 at 10:00Z on 4 December 2030, when 5 December begins at UTC+14', ex: exchange(410, errorBody(410)), now: REMOVAL_DAY_BEGINS },
      { why: 'a 410 at 00:00Z on 5 December 2030', ex: exchange(410, errorBody(410)), now: REMOVAL },
    ],
  },
});

/** Whether an exchange is of the deprecated operation, or of none named (the cases): the headers of other operations are theirs. */
const ofGetPet = (exchange: Exchange) => exchange.operationId === undefined || exchange.operationId === 'getPet';

/** Judges every answer of GET /pets/{petId} that carries any of the three headers, in whichever scenario. */
export const deprecationHeadersWellFormed = defineCheck({
  description: 'Deprecation, Sunset and Link headers, when present, follow RFC 9745, RFC 8594 and RFC 8288, and Deprecation names no date still to come',
  judge(exchange, { env }) {
    if (!exchange.response || !ofGetPet(exchange) || !DEPRECATION_HEADER_NAMES.some((name) => header(exchange, name) !== undefined)) return NOT_APPLICABLE;
    const problems = deprecationHeaderProblems(exchange);
    const since = deprecationDate(header(exchange, 'deprecation'));
    if (since && since.getTime() > env.now.getTime() + DEPRECATION_AHEAD_MS) {
      problems.push(`Deprecation: ${header(exchange, 'deprecation')!.trim()} names ${since.toISOString()}, still to come (RFC 9745 §2: deprecated only from then), while §4.3 says the operation is deprecated`);
    }
    return problems.length ? fail('well-formed Deprecation, Sunset and Link headers', problems.join('; ')) : PASS;
  },
  cases: {
    ctx: {},
    pass: [
      { why: 'Deprecation @1735689600, Sunset IMF-fixdate, Link successor-version', ex: exchange(200, pet(7), DEPRECATION_HEADERS) },
      { why: 'Sunset in the obsolete RFC 850 form', ex: exchange(200, pet(7), { sunset: 'Thursday, 05-Dec-30 00:00:00 GMT' }) },
      { why: 'Sunset in the asctime form', ex: exchange(200, pet(7), { sunset: 'Thu Dec  5 00:00:00 2030' }) },
      { why: 'Deprecation: true (the drafts before RFC 9745)', ex: exchange(200, pet(7), { deprecation: 'true' }) },
      { why: 'Deprecation as an HTTP-date (an earlier draft)', ex: exchange(200, pet(7), { deprecation: 'Sun, 01 Jun 2025 00:00:00 GMT' }) },
      { why: 'Deprecation @1924992000 (1 January 2031) on a clock past it', ex: exchange(200, pet(7), { deprecation: '@1924992000' }), now: AFTER_REMOVAL },
      { why: 'two link-values', ex: exchange(200, pet(7), { link: '</v1/pets>; rel="successor-version", <https://docs.example/deprecation>; rel="deprecation"; type="text/html"' }) },
      { why: 'Link with empty list elements (RFC 9110 §5.6.1.2)', ex: exchange(200, pet(7), { link: ', </v1/pets>; rel="successor-version",, <https://docs.example/d>; rel="deprecation", ' }) },
      { why: 'Deprecation with a parameter (an RFC 9651 Item)', ex: exchange(200, pet(7), { deprecation: '@1735689600;note="see docs"' }) },
      {
        why: 'Deprecation with parameters of every bare-item type',
        ex: exchange(200, pet(7), { deprecation: '@1735689600; a=-1;b;c=?1;d=tok/x:y;e=1.5;f=:aGk=:;g=@5;h=%"caf%c3%a9";i="q\\"d"' }),
      },
    ],
    fail: [
      { why: 'Deprecation: yes please', ex: exchange(200, pet(7), { deprecation: 'yes please' }), actual: /Deprecation: yes please/ },
      { why: 'Deprecation: 2030-12-05 (no HTTP-date)', ex: exchange(200, pet(7), { deprecation: '2030-12-05' }) },
      { why: 'Sunset: 2030-12-05', ex: exchange(200, pet(7), { sunset: '2030-12-05' }), actual: /Sunset: 2030-12-05/ },
      { why: 'Link without angle brackets', ex: exchange(200, pet(7), { link: '/v1/pets; rel="successor-version"' }), actual: /Link/ },
      { why: 'Deprecation with an upper-case parameter key', ex: exchange(200, pet(7), { deprecation: '@1735689600;Note=1' }), actual: /Deprecation/ },
      { why: 'Deprecation with a parameter without a value after =', ex: exchange(200, pet(7), { deprecation: '@1735689600;note=' }) },
      { why: 'Deprecation with white space before the ;', ex: exchange(200, pet(7), { deprecation: '@1735689600 ;note=1' }) },
      { why: 'Deprecation @1924992000 (1 January 2031), still to come: not deprecated yet', ex: exchange(200, pet(7), { deprecation: '@1924992000' }), actual: /still to come/ },
      { why: 'Deprecation as an HTTP-date still to come', ex: exchange(200, pet(7), { deprecation: 'Wed, 01 Jan 2031 00:00:00 GMT' }), actual: /still to come/ },
      { why: 'Link with a bad element among empty ones', ex: exchange(200, pet(7), { link: ',, /v1/pets; rel="successor-version",' }), actual: /Link/ },
    ],
    na: [
      { why: 'a transport failure', ex: failed() },
      { why: 'no Deprecation, Sunset or Link header (nothing to judge)', ex: exchange(200, pet(7)) },
      { why: 'a Link of another operation (a listing may page with its own)', ex: { ...exchange(200, [pet(7)], { link: 'next page' }), operationId: 'listPets' } },
    ],
  },
});

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const ZONED_HTTP_LIKE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} (?:UTC|GMT|[+-]\d{4})$/;

/**
 * The latest instant a Sunset may mean: an HTTP-date exactly; else, read leniently (the SHOULD of
 * deprecation.headers-well-formed warns of the form), an ISO 8601 instant with its zone, a
 * day-month-year date with a zone, or an ISO 8601 day, as it begins in the last zone to reach it
 * (UTC-12). Undefined for a text read neither way.
 */
function latestSunset(value: string): Date | undefined {
  const exact = parseHttpDate(value);
  if (exact) return exact;
  const text = value.trim();
  const day = ISO_DAY.exec(text);
  if (day) {
    const start = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    return new Date(start).getUTCDate() === Number(day[3]) ? new Date(start + 12 * 3_600_000) : undefined;
  }
  if (!ISO_INSTANT.test(text) && !ZONED_HTTP_LIKE.test(text)) return undefined;
  const time = Date.parse(text.replace(/ UTC$/, ' GMT'));
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** A comma that ends one HTTP-date and starts another (each form begins with its day's name): where two Sunset lines were joined. */
const BETWEEN_DATES = /\s*,\s*(?=(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun))/;

/**
 * Judges every answer of GET /pets/{petId} that carries a Sunset, in whichever scenario (`removal`
 * defaults to the contract's for getPet). Two Sunset lines reach the suite joined by a comma: each
 * announces the removal, so one early is enough to fail (headers-well-formed warns of the pair).
 */
export const deprecationSunsetNotEarly = defineCheck<{ removal?: Date }>({
  description: 'A Sunset header is not earlier than the announced removal date',
  judge(exchange, { env, removal = removalOf(env.contract, 'getPet') }) {
    const sunset = header(exchange, 'sunset');
    if (sunset === undefined || removal === undefined || !ofGetPet(exchange)) return NOT_APPLICABLE;
    const whole = latestSunset(sunset);
    const dates = whole ? [whole] : sunset.split(BETWEEN_DATES).map(latestSunset);
    // The spec names a day, not a zone: 5 December begins at UTC+14, 14 hours before it does in UTC.
    const earliest = earliestRemoval(removal);
    if (dates.some((date) => date !== undefined && date < earliest)) return fail(`Sunset on or after ${earliest.toUTCString()} (the removal day's start at UTC+14)`, `Sunset: ${sunset}`);
    return dates.every((date) => date !== undefined) ? PASS : NOT_APPLICABLE;
  },
  cases: {
    ctx: { removal: REMOVAL },
    pass: [
      { why: 'Sunset on 5 Dec 2030', ex: exchange(200, pet(7), { sunset: SUNSET }) },
      { why: 'Sunset in 2031', ex: exchange(200, pet(7), { sunset: 'Wed, 01 Jan 2031 00:00:00 GMT' }) },
      { why: 'Sunset at midnight of 5 December in CET', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 23:00:00 GMT' }) },
      { why: 'Sunset at the start of 5 December at UTC+14', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 10:00:00 GMT' }) },
      { why: 'the ISO 8601 day of the removal', ex: exchange(200, pet(7), { sunset: '2030-12-05' }) },
      { why: 'the ISO 8601 day before it (at UTC-12 it begins after 5 December began at UTC+14)', ex: exchange(200, pet(7), { sunset: '2030-12-04' }) },
      { why: 'an ISO 8601 Sunset in 2031', ex: exchange(200, pet(7), { sunset: '2031-01-01T00:00:00+01:00' }) },
      { why: 'two Sunset lines, neither early', ex: exchange(200, pet(7), { sunset: `${SUNSET}, Fri, 05 Dec 2031 00:00:00 GMT` }) },
      { why: 'no removal passed: the contract\'s for getPet', ctx: {}, ex: exchange(200, pet(7), { sunset: SUNSET }) },
    ],
    fail: [
      { why: 'Sunset on 1 Dec 2030', ex: exchange(200, pet(7), { sunset: 'Sun, 01 Dec 2030 00:00:00 GMT' }), actual: /01 Dec 2030/ },
      { why: 'Sunset before 5 December began anywhere (UTC+14)', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 09:59:59 GMT' }) },
      { why: 'an ISO 8601 Sunset a month early (no HTTP-date: headers-well-formed warns of that)', ex: exchange(200, pet(7), { sunset: '2030-11-01T00:00:00Z' }) },
      { why: 'an ISO 8601 day two days early', ex: exchange(200, pet(7), { sunset: '2030-12-03' }) },
      { why: 'an HTTP-date in UTC rather than GMT, a month early', ex: exchange(200, pet(7), { sunset: 'Fri, 01 Nov 2030 00:00:00 UTC' }) },
      { why: 'two Sunset lines, the second early (a gateway adds its own)', ex: exchange(200, pet(7), { sunset: `${SUNSET}, Sun, 01 Dec 2030 00:00:00 GMT` }), actual: /01 Dec 2030/ },
      { why: 'two Sunset lines in the RFC 850 form, the first early', ex: exchange(200, pet(7), { sunset: 'Sunday, 01-Dec-30 00:00:00 GMT, Thursday, 05-Dec-30 00:00:00 GMT' }) },
      { why: 'an early one beside one that is no date', ex: exchange(200, pet(7), { sunset: 'Sun, 01 Dec 2030 00:00:00 GMT, Mon, 99 Foo 2030' }) },
      { why: 'no removal passed: the contract\'s for getPet', ctx: {}, ex: exchange(200, pet(7), { sunset: 'Sun, 01 Dec 2030 00:00:00 GMT' }) },
    ],
    na: [
      { why: 'no Sunset', ex: exchange(200, pet(7)) },
      { why: 'a Sunset that is no date at all', ex: exchange(200, pet(7), { sunset: 'soon' }) },
      { why: 'a date without a zone (its instant is not known)', ex: exchange(200, pet(7), { sunset: '2030-11-01T00:00:00' }) },
      { why: 'one on time beside one that is no date', ex: exchange(200, pet(7), { sunset: `${SUNSET}, soon` }) },
      { why: 'a Sunset of another operation', ex: { ...exchange(200, [pet(7)], { sunset: 'Sun, 01 Dec 2030 00:00:00 GMT' }), operationId: 'listPets' } },
    ],
  },
});

export const deprecationSignals = defineCheck({
  description: 'Records which of Deprecation, Sunset and Link the deprecated operation sends',
  judge(exchange) {
    if (!exchange.response) return NOT_APPLICABLE;
    const sent = ['deprecation', 'sunset', 'link'].filter((name) => header(exchange, name) !== undefined);
    return { outcome: 'observe', value: sent.length ? sent.join(', ') : 'none' };
  },
  cases: {
    ctx: {},
    observe: [
      { why: 'all three', ex: exchange(200, pet(7), DEPRECATION_HEADERS), value: 'deprecation, sunset, link' },
      { why: 'Sunset only', ex: exchange(200, pet(7), { sunset: SUNSET }), value: 'sunset' },
      { why: 'none', ex: exchange(200, pet(7)), value: 'none' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
});

export const deprecationAfterRemoval = defineCheck<{ removal: Date }>({
  description: 'With the clock past the start of the removal day at UTC+14, records whether GET /pets/{id} is still served',
  judge(exchange, { env, removal }) {
    const status = exchange.response?.status;
    if (!mayBeRemoved(env.now, removal) || status === undefined) return NOT_APPLICABLE;
    return { outcome: 'observe', value: status === 200 ? 'still served' : `answered ${status}` };
  },
  cases: {
    ctx: { removal: REMOVAL },
    observe: [
      { why: 'a 200 after removal', ex: exchange(200, pet(7)), now: AFTER_REMOVAL, value: 'still served' },
      { why: 'a 410 after removal', ex: exchange(410, errorBody(410)), now: AFTER_REMOVAL, value: 'answered 410' },
      { why: 'a 404 on the removal date', ex: exchange(404, errorBody(404)), now: REMOVAL, value: 'answered 404' },
      { why: 'a 410 once 5 December has begun at UTC+14', ex: exchange(410, errorBody(410)), now: REMOVAL_DAY_BEGINS, value: 'answered 410' },
    ],
    na: [
      { why: 'a 200 before removal', ex: exchange(200, pet(7)) },
      { why: 'a 410 a millisecond before 5 December begins anywhere', ex: exchange(410, errorBody(410)), now: JUST_BEFORE_IT },
      { why: 'a transport failure after removal', ex: failed(), now: AFTER_REMOVAL },
    ],
  },
});

/** This family's checks, each keyed by the clause of spec/clauses.yaml it verifies. */
export const DEPRECATION_CHECKS = {
  'deprecation.operational': deprecationOperational,
  'deprecation.headers-well-formed': deprecationHeadersWellFormed,
  'deprecation.sunset-not-early': deprecationSunsetNotEarly,
  'deprecation.signals': deprecationSignals,
  'deprecation.after-removal': deprecationAfterRemoval,
} as const;
