import type { CheckName } from '../checks/registry.ts';
import type { Exchange } from '../http/exchange.ts';
import { addFailure, addWarning } from '../report/failures.ts';
import { RATE_LIMITED_MARK, type BlockedBy, type CheckResult, type FailureEvidence, type Outcome } from '../report/model.ts';
import { failureOf, operationOf } from './evidence.ts';
import { ConformanceFailures } from './failure.ts';
import type { Verdicts } from './judge.ts';
import { unjudgedCause } from './body-cap.ts';

/** A CheckResult while it is being gathered: no outcome until something bore on it. */
export interface CheckRecord extends Omit<CheckResult, 'outcome'> {
  outcome?: Exclude<Outcome, 'error'>;
  observed?: string[];
  /** Answers that would have borne on it but were 429 (rate limited): they judge nothing. */
  answers429?: number;
  /** Per operation, the exchanges it judged (a verdict other than n/a). */
  byOperation?: Record<string, number>;
  /** Values of the clause's `minimum.each` its verdicts covered (e.g. the status values a filter was judged on). */
  covered?: string[];
  /** Per operation, why requests that would have borne on it judged nothing (not sent, or cut short). */
  unjudged?: Record<string, { reason: string; count: number }>;
  /** Per operation, answers its scenario had handed back rate limited (429, or 503 with Retry-After): an operation it did not reach may be down to them. */
  rateLimitedOn?: Record<string, number>;
  /** Its scenario was cut short by --max-duration after something bore on it: why it was not judged in full. */
  cutShort?: string;
  /** Evidence the target kept from it whatever else bore on it (CheckRecord.blockedBy is a skip's): the first such, and why. */
  heldBack?: { reason: string; blockedBy: BlockedBy };
}

const MAX_OBSERVED = 20;

/** Gathers one scenario's verdicts into a record per check: counts, observations, warnings and failures. */
export class Recorder {
  readonly records = new Map<string, CheckRecord>();
  private failed = 0;
  /** By check, the operations it warned on so far: each is listed once. */
  private readonly warnedOn = new Map<string, Set<string>>();

  get hasFailed(): boolean {
    return this.failed > 0;
  }

  record(name: string): CheckRecord {
    let record = this.records.get(name);
    if (!record) {
      record = { check: name, clause: name, judged: 0 };
      this.records.set(name, record);
    }
    return record;
  }

  /** Records what judging an exchange concluded; returns its MUST failures, not yet recorded, if any. */
  apply(exchange: Exchange, { verdicts, unjudged, unjudgedBecause, rateLimited }: Verdicts): ConformanceFailures | undefined {
    const operation = operationOf(exchange);
    for (const name of unjudged) {
      const record = this.record(name);
      record.unjudged ??= {};
      const reason = unjudgedBecause ?? `${exchange.failure!.kind}: ${exchange.failure!.message}`;
      const entry = (record.unjudged[operation] ??= { reason, count: 0 });
      entry.count++;
    }
    for (const name of rateLimited) {
      const record = this.record(name);
      record.answers429 = (record.answers429 ?? 0) + 1;
    }
    const failures: ConformanceFailures['failures'] = [];
    for (const { name, level, verdict, covers } of verdicts) {
      const record = this.record(name);
      record.judged++;
      record.byOperation ??= {};
      record.byOperation[operation] = (record.byOperation[operation] ?? 0) + 1;
      if (covers !== undefined && !(record.covered ??= []).includes(covers)) record.covered.push(covers);
      if (verdict.outcome === 'pass') {
        record.outcome ??= 'pass';
      } else if (verdict.outcome === 'observe') {
        record.outcome = 'observe';
        record.observed ??= [];
        const value = verdict.detail ? `${verdict.value} (${verdict.detail})` : verdict.value;
        if (!record.observed.includes(value) && record.observed.length < MAX_OBSERVED) record.observed.push(value);
      } else if (level === 'MUST') {
        failures.push({ clause: name, expected: verdict.expected, actual: verdict.actual });
      } else if (record.outcome !== 'fail') {
        // Every operation it warned on is kept, as a failure is: the first warning on each.
        record.outcome = 'warn';
        const warned = this.warnedOn.get(name) ?? new Set<string>();
        if (!warned.has(operation)) {
          this.warnedOn.set(name, warned.add(operation));
          addWarning(record, failureOf(exchange, verdict), { replace: false });
        }
      }
    }
    return failures.length ? new ConformanceFailures(failures, exchange) : undefined;
  }

  /**
   * Records each failure under its check, one per operation (a later one on the same operation
   * replaces it, unless only the earlier one has a shrunk counterexample).
   */
  recordFailures(error: ConformanceFailures, replay: Pick<FailureEvidence, 'counterexample' | 'seed' | 'path' | 'shard' | 'story'> = {}): void {
    this.failed++;
    for (const f of error.failures) {
      const record = this.record(f.clause);
      record.outcome = 'fail';
      addFailure(record, { ...failureOf(error.exchange, f), ...replay }, { replace: true });
    }
  }

  /**
   * Records why a check could not be judged, unless something bore on it: every answer rate
   * limited, requests not answered, else `reason` (with the 429s given up on since the scenario began).
   */
  skip(name: CheckName, reason: string, gaveUp429: number, blockedBy?: BlockedBy): void {
    const record = this.record(name);
    if (record.outcome !== undefined) return;
    record.outcome = 'skip';
    const unjudged = Object.entries(record.unjudged ?? {});
    if (record.answers429) record.note = `every answer that bore on it was ${RATE_LIMITED_MARK}: ${record.answers429}`;
    else if (unjudged.length) record.note = unjudged.map(([operation, { reason, count }]) => `${operation}: ${count} ${count === 1 ? 'request' : 'requests'} judged nothing (${reason})`).join('; ');
    else if (record.heldBack && !blockedBy && gaveUp429 === 0) record.note = record.heldBack.reason;
    else record.note = gaveUp429 > 0 ? `${reason}; this scenario was ${RATE_LIMITED_MARK} ${gaveUp429} times` : reason;
    if (record.answers429 || gaveUp429 > 0) record.blockedBy = 'rate-limit';
    else if (unjudged.length) {
      // An answer the suite could not read is its own doing; one missing, the target's, and that comes first.
      const causes = unjudged.map(([, entry]) => unjudgedCause(entry.reason));
      record.blockedBy = causes.includes('no-answer') ? 'no-answer' : causes[0]!;
    }
    else if (blockedBy) record.blockedBy = blockedBy;
    else if (record.heldBack) record.blockedBy = record.heldBack.blockedBy;
  }
}
