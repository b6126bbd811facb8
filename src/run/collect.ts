import type { Clause } from '../contract/clauses.ts';
import { compareSections } from '../contract/clauses.ts';
import { addFailure, addWarning, capClauseFailures, FAILURE_FIELDS } from '../report/failures.ts';
import { DESELECTED_NOTE, type CheckResult, type ClauseCoverage, type ClauseResult, type Capability, type Outcome, type RunSummary, type Traffic } from '../report/model.ts';
import { rateLimitNote } from '../checks/limits.ts';
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
  if (record.cutShort) into.blocked.push({ reason: record.cutShort, blockedBy: 'budget' });
  if (record.heldBack) into.blocked.push(record.heldBack);
  addCounts(into.rateLimitedOn, record.rateLimitedOn);
}

/** Adds one record of a check to what the run has of it so far (also `merge`'s, for the shards' results of a check). */
export function mergeCheck(into: CheckResult | undefined, record: CheckRecord): CheckResult {
  const outcome = record.outcome ?? 'skip';
  if (!into) {
    const result: CheckResult = { check: record.check, clause: record.clause, outcome, judged: record.judged };
    for (const key of [...FAILURE_FIELDS, 'note', 'blockedBy', 'moreFailures', 'moreWarnings'] as const) {
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
    Object.assign(into, mergeCheck(undefined, record), { judged });
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
  traffic: Traffic;
  /** Each scenario that ran, when it began (epoch ms), how long it took and what it sent. */
  scenarios: { title: string; startedAt: number; ms: number; requests: number }[];
}

export interface CollectOptions {
  isSelected: (clause: Clause) => boolean;
  /** Operations the user's settings keep out of this run, and why. */
  leftOut: LeftOut;
  /** Per clause, the operations --only's operation tokens keep it from (src/suite/selection.ts leftOutByOnly). */
  leftOutOf?: (clause: Clause) => LeftOut;
  /** The values of a contract enum (for a clause's minimum.each). */
  enumValues: (name: string) => string[];
}

/** What a clause's result repeats of the catalogue's clause (its profile goes to the capabilities instead). */
export function clauseHead(clause: Omit<Clause, 'profile'>): Omit<ClauseResult, 'outcome' | 'checks'> {
  const { id, section, title, sentence, basis, level, operations } = clause;
  return { id, section, title, sentence, ...(basis ? { basis } : {}), level, operations };
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
  let resent = 0;
  let unrequestedAnswers = 0;
  let overloaded = 0;
  let pacedRps = Infinity;
  let servedConnections = Infinity;
  const retryAfter: string[] = [];
  for (const { meta, engineError } of scenarios) {
    if (meta) {
      requests += meta.requests;
      rateLimited += meta.rateLimited;
      unavailable += meta.unavailable;
      resent += meta.resent ?? 0;
      unrequestedAnswers += meta.unrequestedAnswers ?? 0;
      overloaded += meta.overloaded ?? 0;
      pacedRps = Math.min(pacedRps, meta.pacedRps ?? Infinity);
      servedConnections = Math.min(servedConnections, meta.servedConnections ?? Infinity);
      retryAfter.push(...meta.retryAfter);
      for (const record of meta.checks) {
        byCheck.set(record.check, mergeCheck(byCheck.get(record.check), record));
        const clauseCoverage = coverage.get(record.clause) ?? { unjudged: {}, covered: new Set<string>(), blocked: [], rateLimitedOn: {} };
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
        const unexercised = clause.minimum?.made ? `not exercised in this run: no answer showed what its ${clause.minimum.made} made` : 'not exercised in this run';
        checks.push({ check: '-', clause: clause.id, outcome: 'skip', judged: 0, note: isSelected(clause) ? unexercised : DESELECTED_NOTE });
      }
      if (outcome !== 'fail' && checks.some((check) => errored.has(check.check))) outcome = 'error';
      const result: ClauseResult = { ...clauseHead(clause), outcome, checks };
      const judged = checks.reduce<Record<string, number>>((sum, check) => addCounts(sum, check.judgedByOperation), {});
      if (Object.keys(judged).length) result.judgedByOperation = judged;
      const gathered = coverage.get(clause.id);
      const kept = gathered && coverageOf(gathered);
      if (kept) result.coverage = kept;
      if (gathered && outcome !== 'skip' && outcome !== 'observe' && outcome !== 'error') {
        const confined = options.leftOutOf?.(clause);
        const leftOut = confined?.size ? new Map([...options.leftOut, ...confined]) : options.leftOut;
        const shortfalls = shortfallsOf(clause, { ...gathered, judged }, { leftOut, enumValues: options.enumValues });
        if (shortfalls.length) {
          result.shortfalls = shortfalls;
          if (outcome === 'pass') result.outcome = 'partial';
        }
      }
      return result;
    });
  noteWaitedOut(clauses, { rateLimited, unavailable, overloaded });
  const summary: RunSummary = { pass: 0, fail: 0, warn: 0, partial: 0, skip: 0, observe: 0, error: 0 };
  for (const clause of clauses) summary[clause.outcome]++;
  const timings = scenarios.flatMap(({ meta }) => (meta?.startedAt === undefined || meta.ms === undefined ? [] : [{ title: meta.scenario, startedAt: meta.startedAt, ms: meta.ms, requests: meta.requests }]));
  const traffic: Traffic = { requests, rateLimited, unavailable, retryAfter: retryAfter.length, ...(resent ? { resent } : {}), ...(unrequestedAnswers ? { unrequestedAnswers } : {}), ...(overloaded ? { overloaded } : {}), ...(pacedRps !== Infinity ? { pacedRps: Math.max(1, Math.floor(pacedRps)) } : {}), ...(servedConnections !== Infinity ? { servedConnections } : {}) };
  return { clauses, summary, capabilities: capabilities(clauses, catalogue, traffic), engineErrors, requests, traffic, scenarios: timings };
}

/** What a report keeps of a clause's coverage (for `merge`), or undefined when there is nothing. */
function coverageOf(gathered: Omit<Coverage, 'judged'>): ClauseCoverage | undefined {
  const kept: ClauseCoverage = {};
  if (gathered.covered.size) kept.covered = [...gathered.covered].sort();
  if (Object.keys(gathered.unjudged).length) kept.unjudged = structuredClone(gathered.unjudged);
  if (gathered.blocked[0]) kept.blocked = { ...gathered.blocked[0] };
  if (Object.keys(gathered.rateLimitedOn).length) kept.rateLimitedOn = { ...gathered.rateLimitedOn };
  return Object.keys(kept).length ? kept : undefined;
}

/** limits.rate-limit judges only the answers that reached the suite: the run's counts complete its note. */
function noteWaitedOut(clauses: ClauseResult[], met: { rateLimited: number; unavailable: number; overloaded: number }): void {
  const check = clauses.find((c) => c.id === 'limits.rate-limit')?.checks[0];
  if (!check) return;
  const note = rateLimitNote(check.note, met);
  if (note !== undefined) check.note = note;
}

/** Where the spec leaves a choice open, what this server chose (the clauses' `profile` in spec/clauses.yaml). */
export function capabilities(clauses: ClauseResult[], catalogue: readonly Clause[], { rateLimited, retryAfter, unavailable, overloaded, servedConnections }: Omit<Traffic, 'requests'>): Capability[] {
  const found: Capability[] = [];
  for (const { id, profile } of catalogue) {
    const clause = clauses.find((c) => c.id === id);
    if (!profile || !clause || clause.outcome === 'skip') continue;
    const value =
      clause.outcome === 'pass' ? profile.pass : clause.outcome === 'warn' ? profile.warn : clause.checks.map((c) => c.note).filter(Boolean).join('; ');
    if (value) found.push({ id: clause.id, title: profile.title, value });
  }
  found.push({
    id: 'limits.rate-limit',
    title: '429 with Retry-After',
    value: rateLimited === 0 ? 'no 429 seen' : `${rateLimited} × 429, Retry-After ${retryAfter ? 'present' : 'absent'}`,
  });
  if (unavailable > 0) {
    found.push({ id: 'limits.rate-limit', title: '503 with Retry-After (retried like a 429)', value: `${unavailable} × 503` });
  }
  if (overloaded) {
    found.push({ id: 'limits.rate-limit', title: '503 without Retry-After after calm answers (sent again with fewer in flight or after a wait, judged on what came then)', value: `${overloaded} × 503` });
  }
  if (servedConnections) found.push({ id: 'limits.rate-limit', title: 'Connections served at a time (a new one left unread while others stayed open)', value: String(servedConnections) });
  return found;
}
