/** The plain-text story of one check: the exchange as HTTP text, Expected beside Actual, how to replay it. */
import { failuresOf, operationsOf } from './failures.ts';
import { failureReplayCommand, judgedPhrase, moreFailuresText, problemLabel, replayText } from './format.ts';
import type { CheckResult, ClauseResult, Evidence, FailureEvidence, RunReport, StoryEvidence } from './model.ts';
import { sanitizeText } from './sanitize.ts';
import { sectionLabel } from './sections.ts';

/** The request as an HTTP/1.1-style text block (unsanitised). */
export function requestText(evidence: Evidence): string {
  const { request } = evidence;
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== undefined && request.body !== '') lines.push('', request.body);
  if (request.bodyHex !== undefined) lines.push('(the body is not UTF-8: each byte outside it is written \\xHH above)');
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

/** A failing sequence of calls as numbered steps, each request under its step with its answer; the last step failed. */
export function storyLines(story: StoryEvidence): string[] {
  const confirmation = story.outOfTime
    ? '; --max-duration ran out before it could be run again twice more, so what calls before it left on the store may be part of it'
    : story.unconfirmed
      ? '; it did not fail twice more in a row when run again, and no other sequence failed so, so what calls before it left on the store may be part of it'
      : ', failed twice more in a row when run again';
  const lines = [`Story (the shortest sequence found, ${story.steps.length} ${story.steps.length === 1 ? 'step' : 'steps'}${confirmation}; the last step failed):`];
  for (const [index, step] of story.steps.entries()) {
    lines.push(`  ${index + 1}. ${step.call}`);
    for (const { request, answer } of step.requests) lines.push(`       ${request}`, `       -> ${answer}`);
  }
  return lines;
}

function failureLines(report: RunReport, failure: FailureEvidence, note: string | undefined): string[] {
  const lines: string[] = [];
  if (failure.expected !== undefined) lines.push(`Expected: ${failure.expected}`);
  if (failure.actual !== undefined) lines.push(`Actual:   ${failure.actual}`);
  if (note !== undefined) lines.push(`Note:     ${note}`);
  if (failure.counterexample !== undefined) lines.push(`Counterexample: ${failure.counterexample}`);
  if (failure.story) lines.push(...storyLines(failure.story));
  const replay = replayText(failure);
  if (replay) lines.push(`Replay:   ${replay} (run: ${failureReplayCommand(report, failure)})`);
  if (failure.evidence) {
    lines.push('Request:', indent(requestText(failure.evidence), '  '));
    lines.push('Response:', indent(responseText(failure.evidence), '  '));
    if (failure.story?.script) {
      lines.push('Reproduce (every step of the story, in order; the script is in the reports folder):', `  sh ${failure.story.script}`);
      lines.push('Last step alone:', indent(failure.evidence.curl, '  '));
    } else lines.push('Reproduce:', indent(failure.evidence.curl, '  '));
  }
  return lines;
}

/**
 * The full plain-text story of a clause's check (named by the clause's id): clause id, the quoted
 * sentence, the outcome, then for each operation it failed (or warned) on, Expected, Actual,
 * counterexample, replay data, request, response excerpt and curl line. Sanitised.
 */
export function checkDetailText(report: RunReport, clause: ClauseResult, check: CheckResult): string {
  const lines: string[] = [];
  lines.push(`Clause:   ${clause.id} (${sectionLabel(clause.section)}, ${clause.level}) ${clause.title}`);
  lines.push(`Sentence: "${clause.sentence}"`);
  if (clause.basis) lines.push(`Basis:    ${clause.basis}`);
  lines.push(`Outcome:  ${check.outcome}, ${judgedPhrase(check.judged)}`);
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
