/** The words and phrases every report writer shares: outcome labels, counts, durations, replay, baseline. */
import { moreFailuresOf } from './failures.ts';
import { CUT_SHORT_MARK, type CheckResult, type ClauseResult, type FailureEvidence, type KnownFailure, type Outcome, type RunReport } from './model.ts';
import { countOutcomes, isDeselected, partialMust, uncheckedMust, type OutcomeCounts } from './grouping.ts';

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

/** What every writer takes besides the report. */
export interface RenderOptions {
  /**
   * Strings that must never appear in an output (an API key that leaked into a recorded
   * header or body by mistake). Every occurrence is replaced with `$API_KEY`.
   */
  secrets?: readonly string[];
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

/** `judged 3 exchanges`: how much evidence a verdict rests on. */
export function judgedPhrase(judged: number): string {
  return `judged ${judged} exchange${judged === 1 ? '' : 's'}`;
}

/** `createPet not judged: writes are not allowed`: one line per shortfall of a clause. */
export function shortfallLines(clause: ClauseResult): string[] {
  return (clause.shortfalls ?? []).map((s) => `${s.operation ? `${s.operation} not judged` : s.reason.startsWith(CUT_SHORT_MARK) ? 'Not judged in full' : 'Short of its minimum'}: ${s.reason}${s.choice ? ' (by these settings)' : ''}`);
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

/**
 * The verdict in words. A run that could not judge MUST clauses (exit 3) or that the engine broke
 * under (exit 4) does not ship either, but nothing failed: the words say which.
 */
export function verdictText(report: Pick<RunReport, 'verdict' | 'exitCode'>): string {
  if (report.verdict === 'pass') return 'ships';
  if (report.exitCode === 3) return 'cannot vouch';
  if (report.exitCode === 4) return 'no verdict: the engine broke';
  return 'does not ship';
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

/** Whether the report is one shard's share of a run or a merge of shards, in one line; '' for a whole run. */
export function shardLine(report: RunReport): string {
  if (report.shard) {
    const { index, count } = report.shard;
    return `Shard ${index}/${count} of a run: this verdict is this share's; merge the ${count} shards' report.json for the run's (docs/sharding.md).`;
  }
  const shards = report.merged?.shards;
  if (!shards?.length) return '';
  const slowest = Math.max(...shards.map((s) => s.durationMs));
  return `Merged from ${shards.length} shard${shards.length === 1 ? '' : 's'} of --runs ${report.runs / shards[0]!.count} each; the slowest took ${formatDuration(slowest)}.`;
}

/** What replays a failure on one machine: in a merged report, the run of the shard that met it; else the run's. */
export function failureReplayCommand(report: RunReport, failure: Pick<FailureEvidence, 'shard'>): string {
  const shard = failure.shard && report.merged?.shards.find((s) => `${s.index}/${s.count}` === failure.shard);
  return shard ? shard.replay : replayCommand(report);
}

/** `seed 1234, path "3:1:0"`, or '' when the check or failure has no replay data. */
export function replayText(check: Pick<FailureEvidence, 'seed' | 'path' | 'shard'>): string {
  const parts: string[] = [];
  if (check.seed !== undefined) parts.push(`seed ${check.seed}`);
  if (check.shard !== undefined) parts.push(`--shard ${check.shard}`);
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
