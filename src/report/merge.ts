/**
 * The shards of one run (--shard i/n) as the one report a single machine would have written: each
 * check's results added up, each clause's outcome and shortfalls worked out again from the evidence
 * of all shards together (docs/sharding.md).
 */
import type { Clause } from '../contract/clauses.ts';
import { settleVerdict } from '../cli/exit-code.ts';
import { UsageError } from '../errors.ts';
import { capabilities, clauseHead, mergeCheck } from '../run/collect.ts';
import { shortfallsOf } from '../run/coverage.ts';
import type { CheckRecord } from '../suite/recorder.ts';
import { likelyCauses } from './causes.ts';
import { capClauseFailures } from './failures.ts';
import type { CheckResult, ClauseCoverage, ClauseResult, Outcome, RunReport, RunSummary, Traffic } from './model.ts';

/** Outcomes of one clause in several shards, the one that wins first: a failure anywhere fails it. */
const PRECEDENCE: readonly Outcome[] = ['fail', 'error', 'warn', 'pass', 'partial', 'observe', 'skip'];

export interface MergeContext {
  catalogue: readonly Clause[];
  enumValues: (name: string) => string[];
}

/**
 * Which deployment a report checked: reports of different targets are never merged clause by
 * clause. The embedded reference server is one target whatever port each run gave it.
 */
export function targetKey(report: Pick<RunReport, 'target'>): string {
  const { env, embedded, baseUrl, messagesBaseUrl } = report.target;
  return embedded ? `${env} embedded` : `${env} ${baseUrl} ${messagesBaseUrl}`;
}

/** Throws UsageError (exit 2) unless the reports are the shards of one run, each once and none missing. */
export function checkShards(reports: { path: string; report: RunReport }[]): void {
  const [first, ...rest] = reports;
  if (!first) throw new UsageError('merge: no report to merge');
  const count = first.report.shard?.count ?? 1;
  const seen = new Map<number, string>();
  for (const { path, report } of reports) {
    const same = (what: string, value: unknown, expected: unknown) => {
      if (value !== expected) throw new UsageError(`merge: ${path} is not a shard of the run of ${first.path}: its ${what} is ${JSON.stringify(value)}, not ${JSON.stringify(expected)}`);
    };
    for (const other of rest.length ? [first] : []) {
      same('seed', report.seed, other.report.seed);
      same('--runs', report.runs, other.report.runs);
      same('--fail-on', report.failOn, other.report.failOn);
      same('shard count', report.shard?.count ?? 1, count);
    }
    const index = report.shard?.index ?? 1;
    const twice = seen.get(index);
    if (twice) throw new UsageError(`merge: ${twice} and ${path} are the same shard (${index}/${count}) of one target: give each shard once`);
    seen.set(index, path);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) throw new UsageError(`merge: shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} of ${first.report.target.baseUrl} missing: the run is judged on every shard's evidence`);
}

/** A check's result as a record of the run that made it, so mergeCheck adds it up as it adds up scenarios. */
function asRecord(check: CheckResult): CheckRecord {
  const { judgedByOperation, outcome, ...rest } = structuredClone(check);
  // Checks are judged pass, fail, warn, skip or observe; `error` is a clause's alone.
  const record: CheckRecord = { ...rest, outcome: outcome === 'error' ? 'skip' : outcome };
  if (judgedByOperation) record.byOperation = judgedByOperation;
  if (check.outcome === 'observe' && check.note) record.observed = check.note.split('; ');
  return record;
}

function addCounts(into: Record<string, number>, counts: Record<string, number> = {}): Record<string, number> {
  for (const [key, count] of Object.entries(counts)) into[key] = (into[key] ?? 0) + count;
  return into;
}

function mergedCoverage(parts: ClauseResult[]): Required<Pick<ClauseCoverage, 'unjudged' | 'rateLimitedOn'>> & { covered: Set<string>; blocked: NonNullable<ClauseCoverage['blocked']>[] } {
  const out = { unjudged: {} as NonNullable<ClauseCoverage['unjudged']>, covered: new Set<string>(), blocked: [] as NonNullable<ClauseCoverage['blocked']>[], rateLimitedOn: {} as Record<string, number> };
  for (const { coverage, shortfalls, checks } of parts) {
    // What the budget cut in a shard, which its coverage keeps only the first blocked entry of: the merge keeps it too.
    for (const shortfall of shortfalls ?? []) if (shortfall.blockedBy === 'budget' && !shortfall.operation) out.blocked.push({ reason: shortfall.reason, blockedBy: 'budget' });
    for (const check of checks) if (check.outcome === 'skip' && check.blockedBy === 'budget') out.blocked.push({ reason: check.note ?? '', blockedBy: 'budget' });
    for (const value of coverage?.covered ?? []) out.covered.add(value);
    for (const [operation, entry] of Object.entries(coverage?.unjudged ?? {})) {
      const known = out.unjudged[operation];
      if (known) known.count += entry.count;
      else out.unjudged[operation] = { ...entry };
    }
    if (coverage?.blocked) out.blocked.push(coverage.blocked);
    addCounts(out.rateLimitedOn, coverage?.rateLimitedOn);
  }
  return out;
}

function mergeClause(clause: Clause, parts: ClauseResult[], leftOut: ReadonlyMap<string, string>, context: MergeContext): ClauseResult {
  const byCheck = new Map<string, CheckResult>();
  for (const check of parts.flatMap((part) => part.checks)) byCheck.set(check.check, mergeCheck(byCheck.get(check.check), asRecord(check)));
  // The placeholder of a clause no scenario of a shard touched gives way to any real check.
  const real = [...byCheck.values()].filter((check) => check.check !== '-');
  const checks = real.length ? real : [...byCheck.values()].slice(0, 1);
  capClauseFailures(checks);
  const first = parts[0]!;
  const outcome = PRECEDENCE.find((candidate) => parts.some((part) => part.outcome === candidate)) ?? 'skip';
  const result: ClauseResult = { ...clauseHead(first), outcome: outcome === 'partial' ? 'pass' : outcome, checks };
  const judged = parts.reduce<Record<string, number>>((sum, part) => addCounts(sum, part.judgedByOperation), {});
  if (Object.keys(judged).length) result.judgedByOperation = judged;
  const gathered = mergedCoverage(parts);
  const coverage: ClauseCoverage = {};
  if (gathered.covered.size) coverage.covered = [...gathered.covered].sort();
  if (Object.keys(gathered.unjudged).length) coverage.unjudged = gathered.unjudged;
  if (gathered.blocked[0]) coverage.blocked = gathered.blocked[0];
  if (Object.keys(gathered.rateLimitedOn).length) coverage.rateLimitedOn = gathered.rateLimitedOn;
  if (Object.keys(coverage).length) result.coverage = coverage;
  if (!['skip', 'observe', 'error'].includes(result.outcome)) {
    const shortfalls = shortfallsOf(clause, { ...gathered, judged }, { leftOut, enumValues: context.enumValues });
    if (shortfalls.length) {
      result.shortfalls = shortfalls;
      if (result.outcome === 'pass') result.outcome = 'partial';
    }
  }
  return result;
}

/** `--runs N --shard i/n` becomes `--runs N×n`: the one command that sends what all the shards sent. */
function wholeReplay(replay: string | undefined, runs: number): string | undefined {
  return replay?.replace(/ --shard '?\d+\/\d+'?/, '').replace(/--runs \d+/, `--runs ${runs}`);
}

/** The shards of one run (checked with checkShards) as one report; its verdict and exit code as the run's. */
export function mergeShards(shards: RunReport[], context: MergeContext): RunReport {
  const sorted = [...shards].sort((a, b) => (a.shard?.index ?? 1) - (b.shard?.index ?? 1));
  const first = sorted[0]!;
  const start = Math.min(...sorted.map((r) => Date.parse(r.startedAt)));
  const end = Math.max(...sorted.map((r) => Date.parse(r.startedAt) + r.durationMs));
  const leftOut = new Map<string, string>();
  for (const shortfall of sorted.flatMap((r) => r.clauses.flatMap((c) => c.shortfalls ?? []))) {
    if (shortfall.choice && shortfall.operation) leftOut.set(shortfall.operation, shortfall.reason);
  }
  const clauses = context.catalogue.flatMap((clause) => {
    const parts = sorted.flatMap((r) => r.clauses.filter((c) => c.id === clause.id));
    return parts.length ? [mergeClause(clause, parts, leftOut, context)] : [];
  });
  const summary: RunSummary = { pass: 0, fail: 0, warn: 0, partial: 0, skip: 0, observe: 0, error: 0 };
  for (const clause of clauses) summary[clause.outcome]++;
  const sums: Required<Omit<Traffic, 'pacedRps' | 'servedConnections'>> = { requests: 0, rateLimited: 0, unavailable: 0, retryAfter: 0, resent: 0, unrequestedAnswers: 0, overloaded: 0 };
  for (const report of sorted) for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += report.traffic?.[key] ?? 0;
  const pacedRps = Math.min(...sorted.map((r) => r.traffic?.pacedRps ?? Infinity));
  const servedConnections = Math.min(...sorted.map((r) => r.traffic?.servedConnections ?? Infinity));
  const { resent, unrequestedAnswers, overloaded, ...counted } = sums;
  const traffic: Traffic = { ...counted, ...(resent ? { resent } : {}), ...(unrequestedAnswers ? { unrequestedAnswers } : {}), ...(overloaded ? { overloaded } : {}), ...(pacedRps !== Infinity ? { pacedRps } : {}), ...(servedConnections !== Infinity ? { servedConnections } : {}) };
  const label = (r: RunReport) => (r.shard ? `shard ${r.shard.index}/${r.shard.count}: ` : '');
  const engineErrors = sorted.flatMap((r) => r.engineErrors.map((error) => `${label(r)}${error}`));
  const runs = first.runs * (first.shard?.count ?? 1);
  const failing = summary.fail + (first.failOn === 'should' ? summary.warn : 0);
  const replay = sorted.length > 1 || first.shard ? wholeReplay(first.replay, runs) : first.replay;
  const merged: RunReport = {
    ...first,
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    runs,
    scenarios: sorted.flatMap((r) => (r.scenarios ?? []).map((s) => ({ ...s, atMs: s.atMs + Date.parse(r.startedAt) - start }))),
    ...(replay ? { replay } : {}),
    summary,
    clauses,
    capabilities: capabilities(clauses, context.catalogue, traffic),
    engineErrors,
    verdict: 'pass',
    exitCode: 0,
    traffic,
  };
  settleVerdict(merged, failing);
  delete merged.shard;
  delete merged.causes;
  const causes = likelyCauses(clauses);
  if (causes.length) merged.causes = causes;
  if (sorted.some((r) => r.shard)) {
    merged.merged = {
      shards: sorted.map((r) => ({ index: r.shard?.index ?? 1, count: r.shard?.count ?? 1, startedAt: r.startedAt, durationMs: r.durationMs, requests: r.traffic?.requests ?? 0, replay: r.replay ?? '' })),
    };
  }
  return merged;
}
