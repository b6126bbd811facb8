/** Helpers shared by the report writers: grouping, counting, sanitising, redaction, formatting. */
import { failuresOf, moreFailuresOf, operationsOf } from './failures.ts';
import { DESELECTED_NOTE, type CheckResult, type ClauseResult, type Evidence, type FailureEvidence, type KnownFailure, type Outcome, type RunReport } from './model.ts';
import { compareSections, sectionLabel, sectionTitle } from './sections.ts';

/** The column order of every count table. */
export const OUTCOMES: readonly Outcome[] = ['pass', 'fail', 'warn', 'partial', 'skip', 'observe', 'error'];

export const OUTCOME_LABEL: Readonly<Record<Outcome, string>> = {
  pass: 'Pass',
  fail: 'Fail',
  warn: 'Warn',
  partial: 'Partial',
  skip: 'Skip',
  observe: 'Observe',
  error: 'Error',
};

/** h2spec-style marks, used by the terminal and the HTML report. */
export const OUTCOME_MARK: Readonly<Record<Outcome, string>> = {
  pass: '✔',
  fail: '✖',
  warn: '⚠',
  partial: '◐',
  skip: '○',
  observe: 'ℹ',
  error: '‼',
};

/** The placeholder every secret is replaced with. */
export const SECRET_PLACEHOLDER = '$API_KEY';

export interface RenderOptions {
  /**
   * Strings that must never appear in an output (an API key that leaked into a recorded
   * header or body by mistake). Every occurrence is replaced with `$API_KEY`.
   */
  secrets?: readonly string[];
}

export type OutcomeCounts = Record<Outcome, number>;

export interface SectionGroup {
  section: string;
  /** Heading text without the number ('' when the section is not in the table). */
  title: string;
  /** `§4.1 List animals: GET /pets` */
  label: string;
  clauses: ClauseResult[];
  counts: OutcomeCounts;
}

export function zeroCounts(): OutcomeCounts {
  return { pass: 0, fail: 0, warn: 0, partial: 0, skip: 0, observe: 0, error: 0 };
}

export function countOutcomes(items: readonly { outcome: Outcome }[]): OutcomeCounts {
  const counts = zeroCounts();
  for (const item of items) counts[item.outcome] += 1;
  return counts;
}

export function totalOf(counts: OutcomeCounts): number {
  return OUTCOMES.reduce((sum, o) => sum + counts[o], 0);
}

/** Whether --only/--skip left the clause out of the run. */
export function isDeselected(clause: ClauseResult): boolean {
  return clause.outcome === 'skip' && clause.checks.every((check) => check.note === DESELECTED_NOTE);
}

/** fail and error are failing outcomes (they break the build); warn is a warning. */
export function isFailing(outcome: Outcome): boolean {
  return outcome === 'fail' || outcome === 'error';
}

/** The clauses grouped by section, sections in natural order, clauses in report order. */
export function groupBySection(report: RunReport): SectionGroup[] {
  const bySection = new Map<string, ClauseResult[]>();
  for (const clause of report.clauses) {
    const list = bySection.get(clause.section);
    if (list) list.push(clause);
    else bySection.set(clause.section, [clause]);
  }
  return [...bySection.keys()].sort(compareSections).map((section) => {
    const clauses = bySection.get(section) ?? [];
    return {
      section,
      title: sectionTitle(section),
      label: sectionLabel(section),
      clauses,
      counts: countOutcomes(clauses),
    };
  });
}

/** MUST clauses the run skipped (deselected ones included): no verdict of the run vouches for them. */
export function uncheckedMust(report: RunReport): ClauseResult[] {
  return report.clauses.filter((clause) => clause.level === 'MUST' && clause.outcome === 'skip');
}

/** MUST clauses judged only in part: nothing failed, but the evidence fell short (ClauseResult.shortfalls). */
export function partialMust(report: RunReport): ClauseResult[] {
  return report.clauses.filter((clause) => clause.level === 'MUST' && clause.outcome === 'partial');
}

/**
 * `12 MUST clauses were not checked in this run and 2 only in part`, and after a passing verdict
 * `: the SHIPS verdict does not vouch for them`; '' when every MUST clause was judged in full. One
 * wording for every artifact.
 */
export function uncheckedMustText(report: RunReport): string {
  const n = uncheckedMust(report).length;
  const p = partialMust(report).length;
  if (n === 0 && p === 0) return '';
  const parts = [n ? `${n} MUST clause${n === 1 ? ' was' : 's were'} not checked in this run` : '', p ? `${n ? `${p}` : `${p} MUST clause${p === 1 ? ' was' : 's were'}`} checked only in part` : ''];
  const one = n + p === 1;
  return `${parts.filter(Boolean).join(' and ')}${report.verdict === 'pass' ? `: the SHIPS verdict does not vouch for ${one ? 'it' : 'them'}` : ''}`;
}

/** `createPet not judged: writes are not allowed`: one line per shortfall of a clause. */
export function shortfallLines(clause: ClauseResult): string[] {
  return (clause.shortfalls ?? []).map((s) => `${s.operation ? `${s.operation} not judged` : 'Short of its minimum'}: ${s.reason}${s.choice ? ' (by these settings)' : ''}`);
}

/** `listPets 12 · getPet 3`: the exchanges a clause judged per operation. */
export function judgedPerOperation(clause: ClauseResult): string {
  return Object.entries(clause.judgedByOperation ?? {})
    .map(([operation, count]) => `${operation} ${count}`)
    .join(' · ');
}

/**
 * `24 of 54 clauses judged against URL (6 observed, 24 skipped)`: judged is what was passed, failed
 * or warned, so a clause the run skipped is never counted as checked.
 */
export function judgedText(report: RunReport): string {
  const deselected = report.clauses.filter(isDeselected).length;
  const counts = countOutcomes(report.clauses);
  const judged = counts.pass + counts.fail + counts.warn + counts.partial;
  const selected = report.clauses.length - deselected;
  const rest = [
    counts.partial ? `${counts.partial} only in part` : '',
    counts.observe ? `${counts.observe} observed` : '',
    counts.skip - deselected ? `${counts.skip - deselected} skipped` : '',
    counts.error ? `${counts.error} errored` : '',
  ].filter(Boolean);
  return (
    `${judged} of ${selected} clause${selected === 1 ? '' : 's'} judged against ${report.target.baseUrl}` +
    (rest.length ? ` (${rest.join(', ')})` : '') +
    (deselected ? `; ${deselected} deselected by --only/--skip` : '')
  );
}

/** Why a clause was skipped (or what was observed): the first note, else the first recorded Actual. */
export function skipReason(clause: ClauseResult): string | undefined {
  const checks = notableChecks(clause);
  return checks.find((c) => c.note !== undefined)?.note ?? checks.find((c) => c.actual !== undefined)?.actual;
}

/** The checks of a clause that carry the clause's story for a non-passing outcome. */
export function notableChecks(clause: ClauseResult): CheckResult[] {
  if (clause.outcome === 'pass') return [];
  const same = clause.checks.filter((c) => c.outcome === clause.outcome);
  if (same.length > 0) return same;
  return clause.checks.filter((c) => c.outcome !== 'pass');
}

// ---------------------------------------------------------------------------------------------
// Sanitising: server bodies can contain anything.

/**
 * Makes a string safe to show in any text output (XML 1.0, HTML, a terminal, Markdown):
 * - C0 controls other than tab and line feed, DEL and C1 controls (which include the terminal
 *   escape introducers) become a visible `\u001b`-style escape, so the reader sees that the
 *   server sent them and nothing can drive the terminal;
 * - CRLF becomes LF; a lone CR becomes `\r`;
 * - lone surrogates and the non-characters U+FFFE / U+FFFF become U+FFFD.
 * Every remaining character is legal in XML 1.0.
 */
export function sanitizeText(input: string): string {
  let out = '';
  const s = input.replace(/\r\n/g, '\n');
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i += 1;
      } else {
        out += '\uFFFD';
      }
      continue;
    }
    if (code >= 0xdc00 && code <= 0xdfff) {
      out += '\uFFFD';
      continue;
    }
    if (code === 0x09 || code === 0x0a) {
      out += s[i]!;
      continue;
    }
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      out += code === 0x0d ? '\\r' : `\\u${code.toString(16).padStart(4, '0')}`;
      continue;
    }
    if (code === 0xfffe || code === 0xffff) {
      out += '\uFFFD';
      continue;
    }
    out += s[i]!;
  }
  return out;
}

/**
 * One line, capped at `max` chars: spaces and tabs are kept as they are (a padded value must stay
 * visibly padded) and each line break inside is shown as `\n` (U+2028 and U+2029 as `\u2028`,
 * `\u2029`), as sanitizeText shows `\r`.
 */
export function oneLine(input: string, max = 200): string {
  const flat = sanitizeText(input)
    .replace(/^\n+|\n+$/g, '')
    .replace(/[\n\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16)}`));
  return truncate(flat, max);
}

/** Cuts at `max` code points and adds an ellipsis; never splits a surrogate pair. */
export function truncate(input: string, max: number): string {
  const chars = Array.from(input);
  if (chars.length <= max) return input;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

// ---------------------------------------------------------------------------------------------
// Redaction.

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
}

/** Wrong keys that hold almost all of the key: the suite sends them, so outputs must redact them. */
export function nearMissKeys(key: string): NearMissKeys {
  const near: NearMissKeys = {};
  // Only a key of both cases shows case is part of its alphabet; a hex key may be read either way.
  if (/[a-z]/.test(key) && /[A-Z]/.test(key)) near.caseSwapped = key.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  // Cut from a key of exactly SHORT_SECRET_LENGTH, it would be redacted only as a token while the key is redacted everywhere.
  if (key.length > 1 && key.length !== SHORT_SECRET_LENGTH) near.truncated = key.slice(0, -1);
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

/**
 * The forms of the API key the suite itself sends (the key, and those of its wrong-credential
 * probes), each also as a server may echo it back.
 */
export function keyForms(key: string): string[] {
  const { caseSwapped, truncated } = nearMissKeys(key);
  const sent = [key, Buffer.from(`${key}:`).toString('base64')];
  // A key this short is only replaced as a whole token, so the "key with a suffix" probe is named too.
  if (key.length < SHORT_SECRET_LENGTH) sent.push(`${key}x`);
  if (caseSwapped) sent.push(caseSwapped);
  if (truncated) sent.push(truncated);
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

function secretPattern(secret: string): string {
  const literal = escapeRegExp(secret);
  if (secret.length >= SHORT_SECRET_LENGTH) return literal;
  // A boundary is asked for only on a side where the secret's own edge is a word character.
  const chars = Array.from(secret);
  return `${WORD.test(chars[0]!) ? TOKEN_START : ''}${literal}${WORD.test(chars[chars.length - 1]!) ? TOKEN_END : ''}`;
}

/**
 * Replaces every occurrence of every secret with `$API_KEY` (existing placeholders are kept); a
 * secret shorter than SHORT_SECRET_LENGTH only where it stands as a token.
 */
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

const PATTERNS = new Map<string, RegExp>();

/** One alternation, longest secret first, then the cut-off starts of the long ones; built once per list. */
function redactionPattern(list: string[], atEnd: boolean): RegExp {
  const id = `${atEnd}\u0000${list.join('\u0000')}`;
  let pattern = PATTERNS.get(id);
  if (!pattern) {
    const cut = list.filter((secret) => secret.length >= SHORT_SECRET_LENGTH && Array.from(secret).length > CUT_SECRET_MIN).map((secret) => cutPattern(secret, atEnd));
    pattern = new RegExp([...list.map(secretPattern), ...cut].join('|'), 'gu');
    PATTERNS.set(id, pattern);
  }
  return pattern;
}

/** `cutAtEnd`: the text is an excerpt whose end cut what followed. */
export function redactText(text: string, secrets: readonly string[] | undefined, { cutAtEnd = false } = {}): string {
  const list = usableSecrets(secrets);
  if (list.length === 0) return text;
  // One pass, so a placeholder just written is never scanned again; existing placeholders are
  // split out so a secret inside "$API_KEY" is left alone.
  const pattern = redactionPattern(list, cutAtEnd);
  return text
    .split(SECRET_PLACEHOLDER)
    .map((part) => part.replace(pattern, () => SECRET_PLACEHOLDER))
    .join(SECRET_PLACEHOLDER);
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

/** A deep copy of the report with every secret replaced in every string (header names included). */
export function redactReport(report: RunReport, secrets: readonly string[] | undefined): RunReport {
  const list = usableSecrets(secrets);
  if (list.length === 0) return report;
  return redactValue(report, list) as RunReport;
}

// ---------------------------------------------------------------------------------------------
// Formatting.

export function verdictText(report: RunReport): string {
  return report.verdict === 'pass' ? 'ships' : 'does not ship';
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return `${m} min ${rest} s`;
}

export function replayCommand(report: RunReport): string {
  return report.replay ?? `npx animal-store-conformance --seed ${report.seed} --runs ${report.runs}`;
}

/** `seed 1234, path "3:1:0"`, or '' when the check or failure has no replay data. */
export function replayText(check: Pick<FailureEvidence, 'seed' | 'path'>): string {
  const parts: string[] = [];
  if (check.seed !== undefined) parts.push(`seed ${check.seed}`);
  if (check.path !== undefined && check.path !== '') parts.push(`path ${JSON.stringify(check.path)}`);
  return parts.join(', ');
}

export function countsPhrase(counts: OutcomeCounts): string {
  return [
    `${counts.pass} passed`,
    `${counts.fail} failed`,
    `${counts.warn} warned`,
    counts.partial ? `${counts.partial} judged in part` : '',
    `${counts.skip} skipped`,
    `${counts.observe} observed`,
    `${counts.error} errored`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The request as an HTTP/1.1-style text block (unsanitised). */
export function requestText(evidence: Evidence): string {
  const { request } = evidence;
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== undefined && request.body !== '') lines.push('', request.body);
  return lines.join('\n');
}

/** The response as an HTTP/1.1-style text block, or the transport error (unsanitised). */
export function responseText(evidence: Evidence): string {
  const { response } = evidence;
  if (!response) return `(no response) ${evidence.transportError ?? 'transport failed'}`;
  const lines = [`HTTP ${response.status}`];
  for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`);
  lines.push('', response.bodyExcerpt + (response.bodyTruncated ? '\n… (body truncated)' : ''));
  if (evidence.transportError) lines.push('', `transport error: ${evidence.transportError}`);
  return lines.join('\n');
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : by + l))
    .join('\n');
}

/** `REASON (expires DAY)`: why a baseline entry accepts a failure, and until when. */
export function knownReason(known: KnownFailure): string {
  return `${known.reason}${known.expires ? ` (expires ${known.expires})` : ''}`;
}

/** `accepted by the baseline: REASON (expires DAY)`, or '' when no baseline entry accepts the clause. */
export function knownText(clause: ClauseResult): string {
  return clause.known ? `accepted by the baseline: ${knownReason(clause.known)}` : '';
}

/** `failed on`, or `warned on` for a check that warned (a SHOULD clause): what its operations did. */
export function problemVerb(check: Pick<CheckResult, 'outcome'>): 'failed on' | 'warned on' {
  return check.outcome === 'warn' ? 'warned on' : 'failed on';
}

/** `Failed on` or `Warned on`: the label of a check's list of operations. */
export function problemLabel(check: Pick<CheckResult, 'outcome'>): 'Failed on' | 'Warned on' {
  return check.outcome === 'warn' ? 'Warned on' : 'Failed on';
}

/** `…and 3 more operations it failed on` (warned on) plus `tail`, or '' when none were left out. */
export function moreFailuresText(check: CheckResult, tail: string): string {
  const n = moreFailuresOf(check);
  return n > 0 ? `…and ${n} more operation${n === 1 ? '' : 's'} it ${problemVerb(check)}${tail}` : '';
}

function failureLines(report: RunReport, failure: FailureEvidence, note: string | undefined): string[] {
  const lines: string[] = [];
  if (failure.expected !== undefined) lines.push(`Expected: ${failure.expected}`);
  if (failure.actual !== undefined) lines.push(`Actual:   ${failure.actual}`);
  if (note !== undefined) lines.push(`Note:     ${note}`);
  if (failure.counterexample !== undefined) lines.push(`Counterexample: ${failure.counterexample}`);
  const replay = replayText(failure);
  if (replay) lines.push(`Replay:   ${replay} (run: ${replayCommand(report)})`);
  if (failure.evidence) {
    lines.push('Request:', indent(requestText(failure.evidence), '  '));
    lines.push('Response:', indent(responseText(failure.evidence), '  '));
    lines.push('Reproduce:', indent(failure.evidence.curl, '  '));
  }
  return lines;
}

/**
 * The full plain-text story of one check of a clause: clause id, the quoted sentence, then for each
 * operation it failed (or warned) on, Expected, Actual, counterexample, replay data, request,
 * response excerpt and curl line. Sanitised.
 */
export function checkDetailText(report: RunReport, clause: ClauseResult, check: CheckResult): string {
  const lines: string[] = [];
  lines.push(`Clause:   ${clause.id} (${sectionLabel(clause.section)}, ${clause.level}) ${clause.title}`);
  lines.push(`Sentence: "${clause.sentence}"`);
  lines.push(`Check:    ${check.check} (${check.outcome}, judged ${check.judged} exchange${check.judged === 1 ? '' : 's'})`);
  const failures = failuresOf(check);
  const operations = operationsOf(failures);
  if (operations.length > 0) lines.push(`${problemLabel(check)}: ${operations.join(', ')}`);
  for (const [i, failure] of failures.entries()) {
    if (failures.length > 1) lines.push('', `On ${failure.operation ?? `failure ${i + 1}`} (${i + 1} of ${failures.length}):`);
    lines.push(...failureLines(report, failure, i === 0 ? check.note : undefined));
  }
  const more = moreFailuresText(check, ', not listed');
  if (more) lines.push('', more);
  return sanitizeText(lines.join('\n'));
}
