/**
 * Baseline of known failures, so a team can adopt the suite before the server is clean:
 *
 *   known:
 *     - clause: list.limit-max
 *       reason: clamps to 100 instead of rejecting, ticket PETS-123
 *       expires: 2026-03-31     # optional; the entry stops covering the failure after this day
 *
 * JSON with the same shape works too. A failing clause (fail or error) listed and unexpired is
 * known: still reported, not new. An expired entry counts as a new failure again. A listed clause
 * that no longer fails is reported as now passing, so the baseline shrinks.
 */
import { readCapped } from '../config/read-capped.ts';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadClauses } from '../contract/clauses.ts';
import { settleVerdict, type Unvouched } from '../cli/exit-code.ts';
import type { Outcome, RunReport } from './model.ts';
import { isFailing } from './grouping.ts';

export interface BaselineEntry {
  clause: string;
  reason: string;
  /** YYYY-MM-DD; the entry covers the failure up to and including this day (UTC). */
  expires?: string;
}

export interface Baseline {
  known: BaselineEntry[];
}

export interface BaselineResult {
  /** Failing clause ids that are not covered by an unexpired entry (expired ones included). */
  newFailures: string[];
  /** Failing clauses covered by an unexpired entry: still failing, still shown, not new. */
  known: BaselineEntry[];
  /** Entries past their date whose clause still fails: those count as new failures again. */
  expired: BaselineEntry[];
  /** Entries whose clause ran and no longer fails (pass, warn or observe): remove them. */
  nowPassing: BaselineEntry[];
  /** Entries whose clause was skipped this run: nothing to conclude. */
  notJudged: BaselineEntry[];
  /** Entries naming a catalogue clause that is not in the report (a report narrowed by hand). */
  unknownClauses: BaselineEntry[];
  /** Entries naming no clause of the catalogue (spec/clauses.yaml) at all: a typo, or the clause was renamed. */
  noSuchClause: NoSuchClause[];
}

export interface NoSuchClause extends BaselineEntry {
  /** The catalogue's clause id nearest to the one written, when one is a likely typo of it. */
  didYouMean?: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/**
 * Checks the parsed content of a baseline file. `source` names the file in error messages.
 * Throws an Error that says which file and which entry is wrong, and how. An entry is named as a
 * person counts the list, from 1, with its index beside it: `known entry 4 (known[3])`.
 */
export function parseBaseline(data: unknown, source: string): Baseline {
  const fail = (what: string): never => {
    throw new Error(`Invalid baseline file ${source}: ${what}. Expected { known: [{ clause, reason, expires?: 'YYYY-MM-DD' }] }.`);
  };
  if (data === null || data === undefined) fail('the file is empty');
  if (typeof data !== 'object' || Array.isArray(data)) fail(`the top level must be an object, got ${describe(data)}`);
  const top = data as Record<string, unknown>;
  for (const key of Object.keys(top)) if (key !== 'known') fail(`unknown top-level key "${key}"`);
  if (!('known' in top)) fail('missing the "known" list');
  if (!Array.isArray(top.known)) fail(`"known" must be a list, got ${describe(top.known)}`);
  const entryAt = (i: number) => `known entry ${i + 1} (known[${i}])`;
  const fieldAt = (i: number, key: string) => `${entryAt(i)}: ${key}`;
  const seen = new Map<string, number>();
  const known = (top.known as unknown[]).map((raw, i): BaselineEntry => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail(`${entryAt(i)} must be an object, got ${describe(raw)}`);
    const e = raw as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (key !== 'clause' && key !== 'reason' && key !== 'expires') fail(`${entryAt(i)} has an unknown key "${key}"`);
    }
    if (e.clause === undefined) fail(`${entryAt(i)} has no clause: give the id of the clause whose failure it accepts (spec/clauses.yaml)`);
    if (typeof e.clause !== 'string' || e.clause.trim() === '') fail(`${fieldAt(i, 'clause')} must be a non-empty string, got ${describe(e.clause)}`);
    const clause = (e.clause as string).trim();
    if (e.reason === undefined) fail(`${entryAt(i)} (clause ${clause}) has no reason: say why its failure is accepted, e.g. a ticket`);
    if (typeof e.reason !== 'string' || e.reason.trim() === '') {
      fail(`${fieldAt(i, 'reason')} must be a non-empty string saying why the failure is accepted (clause ${clause}), got ${describe(e.reason)}`);
    }
    const entry: BaselineEntry = { clause, reason: (e.reason as string).trim() };
    if (e.expires !== undefined) {
      // YAML reads an unquoted 2026-03-31 as a string with the default (core) schema; be lenient with Dates anyway.
      const exp = e.expires instanceof Date && !Number.isNaN(e.expires.getTime()) ? e.expires.toISOString().slice(0, 10) : e.expires;
      if (typeof exp !== 'string' || !isRealDate(exp)) {
        fail(`${fieldAt(i, 'expires')} must be a date written YYYY-MM-DD (clause ${clause}), got ${describe(e.expires)}`);
      }
      entry.expires = exp as string;
    }
    const prev = seen.get(clause);
    if (prev !== undefined) fail(`clause "${clause}" is listed twice: ${entryAt(prev)} and ${entryAt(i)}`);
    seen.set(clause, i);
    return entry;
  });
  return { known };
}

/** A baseline lists known failures, one short entry per clause: a few KB. */
const MAX_BASELINE_BYTES = 1024 * 1024;

/** Reads and checks a baseline file (.json, .yaml or .yml; other names are read as YAML, a superset of JSON). */
export async function loadBaseline(path: string): Promise<Baseline> {
  let text: string;
  try {
    text = readCapped(path, MAX_BASELINE_BYTES);
  } catch (err) {
    throw new Error(`Cannot read baseline file ${path}: ${(err as Error).message}`, { cause: err });
  }
  let data: unknown;
  const ext = extname(path).toLowerCase();
  try {
    data = ext === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new Error(`Invalid baseline file ${path}: not valid ${ext === '.json' ? 'JSON' : 'YAML'}: ${(err as Error).message}`, { cause: err });
  }
  return parseBaseline(data, path);
}

/** `today` as YYYY-MM-DD in UTC. */
function day(today: Date): string {
  if (Number.isNaN(today.getTime())) throw new Error('applyBaseline: today is an invalid Date');
  return today.toISOString().slice(0, 10);
}

/** Edit distance (insertions, deletions, substitutions) of two short ids. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The catalogue id a mistyped one most likely meant: within 2 edits (or a third of its length), the nearest. */
function nearestClause(id: string, ids: readonly string[]): string | undefined {
  let best: { id: string; d: number } | undefined;
  for (const candidate of ids) {
    const d = distance(id, candidate);
    if (!best || d < best.d) best = { id: candidate, d };
  }
  return best && best.d <= Math.max(2, Math.floor(id.length / 3)) ? best.id : undefined;
}

/**
 * Sorts the run's failing clauses and the baseline's entries. `catalogue` (spec/clauses.yaml unless
 * given) tells an entry naming no clause at all from one whose clause the report does not hold.
 */
export function applyBaseline(report: RunReport, baseline: Baseline, today: Date, catalogue: readonly { id: string }[] = loadClauses()): BaselineResult {
  const todayStr = day(today);
  const entries = new Map<string, BaselineEntry>();
  for (const e of baseline.known) if (!entries.has(e.clause)) entries.set(e.clause, e);
  const result: BaselineResult = { newFailures: [], known: [], expired: [], nowPassing: [], notJudged: [], unknownClauses: [], noSuchClause: [] };
  const ids = catalogue.map((clause) => clause.id);
  // Clause id -> the run's outcomes for it (an id should appear once; be safe if not).
  const outcomes = new Map<string, Outcome[]>();
  for (const clause of report.clauses) outcomes.set(clause.id, [...(outcomes.get(clause.id) ?? []), clause.outcome]);
  for (const [id, list] of outcomes) {
    if (!list.some(isFailing)) continue;
    const entry = entries.get(id);
    if (!entry) {
      result.newFailures.push(id);
    } else if (entry.expires !== undefined && entry.expires < todayStr) {
      result.expired.push(entry);
      result.newFailures.push(id);
    } else {
      result.known.push(entry);
    }
  }
  for (const entry of entries.values()) {
    const list = outcomes.get(entry.clause);
    if (list === undefined && !ids.includes(entry.clause)) {
      const didYouMean = nearestClause(entry.clause, ids);
      result.noSuchClause.push(didYouMean === undefined ? entry : { ...entry, didYouMean });
    } else if (list === undefined) result.unknownClauses.push(entry);
    else if (list.some(isFailing)) continue;
    else if (list.every((o) => o === 'skip')) result.notJudged.push(entry);
    else result.nowPassing.push(entry);
  }
  return result;
}

/**
 * A report (a run's, or shards merged) judged against a baseline: the failures it accepts are marked
 * known, and only the new ones (and the warnings, with --fail-on should) fail the gate. Returns the
 * account to print and the MUST clauses left unjudged (see settleVerdict).
 */
export function gateOnBaseline(report: RunReport, baseline: Baseline, today: Date): { account: string; unvouched: Unvouched } {
  const result = applyBaseline(report, baseline, today);
  markKnown(report, result);
  const unvouched = settleVerdict(report, result.newFailures.length + (report.failOn === 'should' ? report.summary.warn : 0));
  return { account: renderBaselineResult(result), unvouched };
}

/** Marks each failing clause an unexpired entry accepts, so every artifact tells it from a new failure. */
export function markKnown(report: RunReport, result: BaselineResult): void {
  const accepted = new Map(result.known.map((entry) => [entry.clause, entry]));
  for (const clause of report.clauses) {
    const entry = accepted.get(clause.id);
    if (!entry || !isFailing(clause.outcome)) continue;
    clause.known = entry.expires === undefined ? { reason: entry.reason } : { reason: entry.reason, expires: entry.expires };
  }
}

/** A short plain-text account of a baseline application (terminal and Markdown friendly). */
export function renderBaselineResult(result: BaselineResult): string {
  const out: string[] = [];
  const entry = (e: BaselineEntry): string => `- ${e.clause}: ${e.reason}${e.expires ? ` (expires ${e.expires})` : ''}`;
  out.push(
    result.newFailures.length > 0
      ? `Baseline: ${result.newFailures.length} new failure${result.newFailures.length === 1 ? '' : 's'}: ${result.newFailures.join(', ')}`
      : 'Baseline: no new failures.',
  );
  const block = (title: string, list: BaselineEntry[]): void => {
    if (list.length > 0) out.push('', `${title} (${list.length}):`, ...list.map(entry));
  };
  block('Expired entries, failing again', result.expired);
  block('Known failures (accepted by the baseline)', result.known);
  block('Now passing: remove these entries from the baseline', result.nowPassing);
  block('Not judged this run (skipped)', result.notJudged);
  if (result.noSuchClause.length > 0) {
    out.push(
      '',
      `Entries naming no such clause (not in spec/clauses.yaml; they accept nothing) (${result.noSuchClause.length}):`,
      ...result.noSuchClause.map((e) => `- ${e.clause}: no such clause${e.didYouMean ? ` (did you mean ${e.didYouMean}?)` : ''}; its reason: ${e.reason}`),
    );
  }
  block('Entries naming a clause not in this run', result.unknownClauses);
  out.push('');
  return out.join('\n');
}
