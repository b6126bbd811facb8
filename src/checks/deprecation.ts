import { describeResponse, header, type Exchange } from '../http/exchange.ts';
import { defineCheck, fail, NOT_APPLICABLE, PASS } from './types.ts';
import { earliestRemoval, earliestRemovalText, mayBeRemoved } from '../contract/removal.ts';

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
});

export const deprecationHeadersWellFormed = defineCheck({
  description: 'Deprecation, Sunset and Link headers, when present, follow RFC 9745, RFC 8594 and RFC 8288',
  judge(exchange) {
    if (!exchange.response) return NOT_APPLICABLE;
    const problems = deprecationHeaderProblems(exchange);
    return problems.length ? fail('well-formed Deprecation, Sunset and Link headers', problems.join('; ')) : PASS;
  },
});

export const deprecationSunsetNotEarly = defineCheck<{ removal: Date }>({
  description: 'A Sunset header is not earlier than the announced removal date',
  judge(exchange, { removal }) {
    const sunset = header(exchange, 'sunset');
    const date = sunset === undefined ? undefined : parseHttpDate(sunset);
    if (!date) return NOT_APPLICABLE;
    // The spec names a day, not a zone: 5 December begins at UTC+14, 14 hours before it does in UTC.
    const earliest = earliestRemoval(removal);
    return date >= earliest ? PASS : fail(`Sunset on or after ${earliest.toUTCString()} (the removal day's start at UTC+14)`, `Sunset: ${sunset}`);
  },
});

export const deprecationSignals = defineCheck({
  description: 'Records which of Deprecation, Sunset and Link the deprecated operation sends',
  judge(exchange) {
    if (!exchange.response) return NOT_APPLICABLE;
    const sent = ['deprecation', 'sunset', 'link'].filter((name) => header(exchange, name) !== undefined);
    return { outcome: 'observe', value: sent.length ? sent.join(', ') : 'none' };
  },
});

export const deprecationAfterRemoval = defineCheck<{ removal: Date }>({
  description: 'With the clock past the start of the removal day at UTC+14, records whether GET /pets/{id} is still served',
  judge(exchange, { env, removal }) {
    const status = exchange.response?.status;
    if (!mayBeRemoved(env.now, removal) || status === undefined) return NOT_APPLICABLE;
    return { outcome: 'observe', value: status === 200 ? 'still served' : `answered ${status}` };
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
