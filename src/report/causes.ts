/**
 * Failing clauses that likely share one cause, so a reader fixes one thing, not six: the same
 * operation unanswered, the same error answer failing several clauses, int64 values rounded through a
 * double. A guess from the evidence, said as one; every clause keeps its own failures.
 */
import { failuresOf } from './failures.ts';
import type { ClauseResult, FailureEvidence, LikelyCause } from './model.ts';

const SAFE = 2n ** 53n;

/** The integers beyond ±2^53 in a text, each with what a double makes of it where that differs. */
function roundedForms(text: string): { exact: string; rounded: string }[] {
  const found: { exact: string; rounded: string }[] = [];
  for (const match of text.matchAll(/-?\d{16,20}/g)) {
    const exact = match[0];
    const value = BigInt(exact);
    if (value < SAFE && value > -SAFE) continue;
    const rounded = BigInt(Number(exact)).toString();
    if (rounded !== exact) found.push({ exact, rounded });
  }
  return found;
}

/** `GET /v1/pets` from the recorded request, else the operation's name. */
function where(failure: FailureEvidence): string {
  const request = failure.evidence?.request;
  if (!request) return failure.operation ?? 'a request';
  let path = request.url;
  try {
    path = new URL(request.url).pathname;
  } catch {
    // shown as sent
  }
  return `${request.method} ${path}`;
}

/** The shape of an error answer: its status, type and, for a JSON object, its member names. */
function answerShape(failure: FailureEvidence): string | undefined {
  const response = failure.evidence?.response;
  if (!response || response.status < 400) return undefined;
  const type = response.headers['content-type']?.split(';')[0]?.trim() || 'no Content-Type';
  let body = 'an empty body';
  const text = response.bodyExcerpt.trim();
  if (text) {
    try {
      const value: unknown = JSON.parse(text);
      body = value && typeof value === 'object' && !Array.isArray(value) ? `a JSON object with ${Object.keys(value).sort().join(', ') || 'no members'}` : 'JSON that is not an object';
    } catch {
      body = response.bodyTruncated ? 'a long body' : `a body that is not JSON (${text.slice(0, 40).replace(/\d/g, '#')}…)`;
    }
  }
  return `${response.status} ${type} with ${body}`;
}

/** The causes each failure of a clause points to, as a key and the line a reader sees. */
function causesOf(failure: FailureEvidence): [string, string][] {
  const causes: [string, string][] = [];
  const transport = failure.evidence?.transportError;
  if (transport) causes.push([`transport ${where(failure)} ${transport.split(':')[0]}`, `${where(failure)}: ${transport}`]);
  const shape = answerShape(failure);
  if (shape) causes.push([`answer ${failure.operation} ${shape}`, `${failure.operation ?? where(failure)} answers ${shape}`]);
  const rounded = roundedForms(`${failure.expected ?? ''} ${failure.counterexample ?? ''} ${failure.evidence?.request.body ?? ''}`).find(({ rounded }) => `${failure.actual ?? ''} ${failure.evidence?.response?.bodyExcerpt ?? ''}`.includes(rounded));
  if (rounded) causes.push(['int64 rounded', `int64 values beyond 2^53 come back rounded to the nearest double (${rounded.exact} as ${rounded.rounded})`]);
  return causes;
}

/** Causes shared by two or more failing clauses, those explaining most first. */
export function likelyCauses(clauses: readonly ClauseResult[]): LikelyCause[] {
  const byKey = new Map<string, { summary: string; clauses: Set<string> }>();
  for (const clause of clauses) {
    if (clause.outcome !== 'fail') continue;
    for (const check of clause.checks) {
      if (check.outcome !== 'fail') continue;
      for (const failure of failuresOf(check)) {
        for (const [key, summary] of causesOf(failure)) {
          const entry = byKey.get(key) ?? { summary, clauses: new Set<string>() };
          entry.clauses.add(clause.id);
          byKey.set(key, entry);
        }
      }
    }
  }
  const seen = new Set<string>();
  const causes: LikelyCause[] = [];
  for (const entry of [...byKey.values()].sort((a, b) => b.clauses.size - a.clauses.size)) {
    const ids = [...entry.clauses];
    // The same clauses under a second reading (a timeout and its answer shape): the first says it.
    const set = [...ids].sort().join(' ');
    if (ids.length < 2 || seen.has(set)) continue;
    seen.add(set);
    causes.push({ summary: entry.summary, clauses: ids });
  }
  return causes;
}
