import type { Clause } from '../contract/clauses.ts';
import { compareSections } from '../contract/clauses.ts';
import { addFailure, addWarning, capClauseFailures } from '../report/failures.ts';
import { DESELECTED_NOTE, type CheckResult, type ClauseResult, type Capability, type Outcome, type RunSummary } from '../report/model.ts';
import { NO_429_JUDGED } from '../checks/limits.ts';
import type { CheckRecord, ScenarioMeta } from '../suite/scenario.ts';
import { shortfallsOf, type Coverage, type LeftOut } from './coverage.ts';

const RANK: Record<Outcome, number> = { error: 7, fail: 6, warn: 5, partial: 4, observe: 3, pass: 2, skip: 1 };

/** Counts per operation, added up. */
function addCounts(into: Record<string, number>, counts: Record<string, number> = {}): Record<string, number> {
  for (const [operation, count] of Object.entries(counts)) into[operation] = (into[operation] ?? 0) + count;
  return into;
}

/** Adds what a record could not judge, and why, to what its clause gathered so far, whatever the outcomes. */
function gather(into: Omit<Coverage, 'judged'>, record: CheckRecord): void {
  for (const [operation, entry] of Object.entries(record.unjudged ?? {})) {
    const known = into.unjudged[operation];
    if (known) known.count += entry.count;
    else into.unjudged[operation] = { ...entry };
  }
  for (const value of record.covered ?? []) into.covered.add(value);
  if (record.outcome === 'skip' && record.blockedBy) into.blocked.push({ reason: record.note ?? '', blockedBy: record.blockedBy });
}

function merge(into: CheckResult | undefined, record: CheckRecord): CheckResult {
  const outcome = record.outcome ?? 'skip';
  if (!into) {
    const result: CheckResult = { check: record.check, clause: record.clause, outcome, judged: record.judged };
    for (const key of ['expected', 'actual', 'evidence', 'counterexample', 'seed', 'path', 'note', 'blockedBy', 'moreFailures', 'moreWarnings'] as const) {
      if (record[key] !== undefined) (result as unknown as Record<string, unknown>)[key] = record[key];
    }
    if (record.failures) result.failures = [...record.failures];
    if (record.warnings) result.warnings = [...record.warnings];
    if (record.observed?.length) result.note = record.observed.join('; ');
    if (record.byOperation) result.judgedByOperation = { ...record.byOperation };
    return result;
  }
  into.judged += record.judged;
  if (record.byOperation) into.judgedByOperation = addCounts(into.judgedByOperation ?? {}, record.byOperation);
  if (RANK[outcome] > RANK[into.outcome]) {
    // The worse outcome replaces the result whole: no note or mark of the lesser one stays behind.
    const { judged, judgedByOperation } = into;
    for (const key of Object.keys(into)) delete (into as unknown as Record<string, unknown>)[key];
    Object.assign(into, merge(undefined, record), { judged });
    if (judgedByOperation) into.judgedByOperation = judgedByOperation;
  } else if (outcome === 'fail' && into.outcome === 'fail') {
    // The same check failed in another scenario: its operations not listed yet are added.
    for (const failure of record.failures ?? []) addFailure(into, failure, { replace: false });
    if (record.moreFailures) into.moreFailures = (into.moreFailures ?? 0) + record.moreFailures;
  } else if (outcome === 'warn' && into.outcome === 'warn') {
    // The same check warned in another scenario: its operations not listed yet are added, as failures are.
    for (const warning of record.warnings ?? []) addWarning(into, warning, { replace: false });
    if (record.moreWarnings) into.moreWarnings = (into.moreWarnings ?? 0) + record.moreWarnings;
  } else if (outcome === 'skip' && into.outcome === 'skip' && record.blockedBy && !into.blockedBy) {
    // A skip the target may be to blame for outweighs one that is only the suite's choice.
    into.note = record.note;
    into.blockedBy = record.blockedBy;
  } else if (outcome === 'observe' && record.observed?.length) {
    const values = new Set([...(into.note?.split('; ') ?? []), ...record.observed]);
    into.note = [...values].slice(0, 20).join('; ');
  }
  return into;
}

export interface ScenarioOutcome {
  meta?: ScenarioMeta;
  /** Set when the test failed for a reason that was not a conformance verdict. */
  engineError?: string;
}

export interface Collected {
  clauses: ClauseResult[];
  summary: RunSummary;
  capabilities: Capability[];
  engineErrors: string[];
  requests: number;
}

export interface CollectOptions {
  isSelected: (clause: Clause) => boolean;
  /** Operations the user's settings keep out of this run, and why. */
  leftOut: LeftOut;
  /** The values of a contract enum (for a clause's minimum.each). */
  enumValues: (name: string) => string[];
}

/** Turns what every scenario recorded into one result per clause, ordered by section. */
export function collect(catalogue: Clause[], scenarios: ScenarioOutcome[], options: CollectOptions): Collected {
  const { isSelected } = options;
  const byCheck = new Map<string, CheckResult>();
  const coverage = new Map<string, Omit<Coverage, 'judged'>>();
  const errored = new Set<string>();
  const engineErrors: string[] = [];
  let requests = 0;
  let rateLimited = 0;
  let unavailable = 0;
  const retryAfter: string[] = [];
  for (const { meta, engineError } of scenarios) {
    if (meta) {
      requests += meta.requests;
      rateLimited += meta.rateLimited;
      unavailable += meta.unavailable;
      retryAfter.push(...meta.retryAfter);
      for (const record of meta.checks) {
        byCheck.set(record.check, merge(byCheck.get(record.check), record));
        const clauseCoverage = coverage.get(record.clause) ?? { unjudged: {}, covered: new Set<string>(), blocked: [] };
        gather(clauseCoverage, record);
        coverage.set(record.clause, clauseCoverage);
      }
    }
    const error = engineError ?? meta?.engineError;
    if (error) {
      engineErrors.push(meta ? `${meta.scenario}: ${error}` : error);
      for (const name of meta?.declared ?? []) errored.add(name);
    }
  }
  const clauses: ClauseResult[] = catalogue
    .slice()
    .sort((a, b) => compareSections(a.section, b.section))
    .map((clause) => {
      const checks = [...byCheck.values()].filter((check) => check.clause === clause.id);
      capClauseFailures(checks);
      let outcome: Outcome = checks.reduce<Outcome>((worst, check) => (RANK[check.outcome] > RANK[worst] ? check.outcome : worst), 'skip');
      if (outcome === 'skip' && checks.length === 0) {
        checks.push({ check: '-', clause: clause.id, outcome: 'skip', judged: 0, note: isSelected(clause) ? 'not exercised in this run' : DESELECTED_NOTE });
      }
      if (outcome !== 'fail' && checks.some((check) => errored.has(check.check))) outcome = 'error';
      const result: ClauseResult = { id: clause.id, section: clause.section, title: clause.title, sentence: clause.sentence, level: clause.level, operations: clause.operations, outcome, checks };
      const judged = checks.reduce<Record<string, number>>((sum, check) => addCounts(sum, check.judgedByOperation), {});
      if (Object.keys(judged).length) result.judgedByOperation = judged;
      const gathered = coverage.get(clause.id);
      if (gathered && outcome !== 'skip' && outcome !== 'observe' && outcome !== 'error') {
        const shortfalls = shortfallsOf(clause, { ...gathered, judged }, options);
        if (shortfalls.length) {
          result.shortfalls = shortfalls;
          if (outcome === 'pass') result.outcome = 'partial';
        }
      }
      return result;
    });
  noteWaitedOut(clauses, rateLimited, unavailable);
  const summary: RunSummary = { pass: 0, fail: 0, warn: 0, partial: 0, skip: 0, observe: 0, error: 0 };
  for (const clause of clauses) summary[clause.outcome]++;
  return { clauses, summary, capabilities: capabilities(clauses, { rateLimited, retryAfter, unavailable }), engineErrors, requests };
}

/**
 * limits.rate-limit judges only the answers that reached the suite; the 429s (and 503s with
 * Retry-After) the client retried never do, so the run's counts replace its "none reached" note.
 */
function noteWaitedOut(clauses: ClauseResult[], rateLimited: number, unavailable: number): void {
  const check = clauses.find((c) => c.id === 'limits.rate-limit')?.checks.find((c) => c.check === 'limits.rate-limit');
  if (!check || (rateLimited === 0 && unavailable === 0)) return;
  const counted = [rateLimited ? `${rateLimited} × 429` : '', unavailable ? `${unavailable} × 503 with Retry-After` : ''].filter(Boolean).join(' and ');
  const judged = (check.note?.split('; ') ?? []).filter((value) => value !== NO_429_JUDGED);
  check.note = [`${counted} met by the client, retried within the bounds (those that outlasted them are judged as they came)`, ...judged].join('; ');
}

const PROFILE: { clause: string; title: string; pass?: string; warn?: string }[] = [
  { clause: 'auth.www-authenticate', title: 'WWW-Authenticate on 401', pass: 'present', warn: 'absent' },
  { clause: 'create.location', title: 'Location on 201', pass: 'present', warn: 'absent' },
  { clause: 'auth.scheme-variants', title: 'The valid key as "bearer <API_KEY>" or after two spaces' },
  { clause: 'deprecation.signals', title: 'Deprecation headers on GET /pets/{petId}' },
  { clause: 'list.invalid-query-handling', title: 'Invalid limit or status' },
  { clause: 'pet.default-status', title: 'Status given when omitted' },
  { clause: 'create.unknown-fields', title: 'Unknown NewPet fields' },
  { clause: 'create.content-type', title: 'A NewPet under another Content-Type, or none' },
  { clause: 'create.name-constraints', title: 'Names beyond the core (3 to 12 ASCII letters in words)' },
  { clause: 'create.category-constraints', title: 'categoryIds not known to name a category' },
  { clause: 'orders.access', title: 'GET /store/orders for the valid key' },
  { clause: 'messages.success-status', title: 'Message operation success status' },
  { clause: 'messages.text-constraints', title: 'Message texts beyond the core (1 to 100 printable ASCII characters)' },
  { clause: 'get.read-lag', title: 'GET /pets/{petId} of an animal just created or listed' },
  { clause: 'deprecation.after-removal', title: 'GET /pets/{petId} after its removal date' },
];

/** Where the spec leaves a choice open, what this server chose. */
function capabilities(clauses: ClauseResult[], { rateLimited, retryAfter, unavailable }: { rateLimited: number; retryAfter: string[]; unavailable: number }): Capability[] {
  const found: Capability[] = [];
  for (const entry of PROFILE) {
    const clause = clauses.find((c) => c.id === entry.clause);
    if (!clause || clause.outcome === 'skip') continue;
    const value =
      clause.outcome === 'pass' ? entry.pass : clause.outcome === 'warn' ? entry.warn : clause.checks.map((c) => c.note).filter(Boolean).join('; ');
    if (value) found.push({ id: entry.clause, title: entry.title, value });
  }
  found.push({
    id: 'limits.rate-limit',
    title: '429 with Retry-After',
    value: rateLimited === 0 ? 'no 429 seen' : `${rateLimited} × 429, Retry-After ${retryAfter.length ? 'present' : 'absent'}`,
  });
  if (unavailable > 0) {
    found.push({ id: 'limits.rate-limit', title: '503 with Retry-After (retried like a 429)', value: `${unavailable} × 503` });
  }
  return found;
}
