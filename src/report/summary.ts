/**
 * summary.md: short GitHub-flavoured Markdown for a CI job page ($GITHUB_STEP_SUMMARY):
 * verdict line, counts by section, failures one line each (capped), warnings, replay command.
 */
import { failuresOf, moreFailuresOf } from './failures.ts';
import type { CheckResult, ClauseResult, FailureEvidence, RunReport } from './model.ts';
import { redactReport, redactText } from '../secrets.ts';
import { formatDuration, judgedPerOperation, knownText, moreFailuresText, OUTCOME_LABEL, replayCommand, replayText, shardLine, shortfallLines, uncheckedMustText, verdictText, type RenderOptions } from './format.ts';
import { countOutcomes, groupBySection, isFailing, notableChecks, OUTCOMES, skipReason, totalOf, uncheckedMust, zeroCounts } from './grouping.ts';
import { oneLine } from './sanitize.ts';

/** Failure lines shown before the list is cut. */
export const SUMMARY_MAX_FAILURES = 30;
/** Warning lines shown before the list is cut. */
export const SUMMARY_MAX_WARNINGS = 10;

/** Escapes text for Markdown prose (GFM), table cells included. */
function md(s: string): string {
  return oneLine(s, 300)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]|~<>&]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`))
    .replace(/^(\s*)([-=])/, '$1\\$2');
}

/**
 * A code span that survives any content and keeps its spaces: backtick fence longer than any run
 * inside, pipes escaped, and one space of padding each side (which CommonMark strips) when the text
 * starts or ends with a backtick or a space.
 */
function code(s: string, max = 120): string {
  const text = oneLine(s, max).replace(/\|/g, '\\|');
  if (text === '') return '` `';
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(text) && /[^ ]/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function problemLine(clause: ClauseResult, check: CheckResult | undefined, failure: FailureEvidence | undefined): string {
  const head = `**${code(clause.id, 80)}** (§${md(clause.section)}, ${clause.level}${clause.outcome === 'error' ? ', engine error' : ''})`;
  if (!check || !failure) return `- ${head} ${md(clause.title)}`;
  const parts: string[] = [];
  if (failure.expected !== undefined) parts.push(`expected ${code(failure.expected)}`);
  if (failure.actual !== undefined) parts.push(`actual ${code(failure.actual)}`);
  if (parts.length === 0 && check.note !== undefined) parts.push(md(check.note));
  const replay = replayText(failure);
  const on = failure.operation !== undefined ? ` on ${code(failure.operation, 80)}` : '';
  return `- ${head}${on}: ${parts.join(' · ') || md(clause.title)}${replay ? ` (${md(replay)})` : ''}`;
}

/** One line per operation each notable check failed on (or per check), and how many were left out. */
function problemLines(clauses: ClauseResult[]): { lines: string[]; count: number } {
  const lines: string[] = [];
  let count = 0;
  for (const clause of clauses) {
    const checks = notableChecks(clause);
    if (checks.length === 0) {
      lines.push(problemLine(clause, undefined, undefined));
      count++;
    }
    for (const check of checks) {
      const failures = failuresOf(check);
      for (const failure of failures) lines.push(problemLine(clause, check, failure));
      count += failures.length;
      const more = moreFailuresText(check, '; report.html and junit.xml list those shown');
      if (more) lines.push(`- **${code(clause.id, 80)}**: _${more}_`);
    }
  }
  return { lines, count };
}

/**
 * One line per failing clause the baseline accepts: its first failure, how many more report.html
 * shows, and the entry's reason and expiry.
 */
function knownLines(clauses: ClauseResult[]): string[] {
  return clauses.map((clause) => {
    const checks = notableChecks(clause);
    const first = checks[0];
    const shown = checks.reduce((n, check) => n + failuresOf(check).length + moreFailuresOf(check), 0);
    const more = shown > 1 ? ` · ${shown - 1} more in report.html` : '';
    return `${problemLine(clause, first, first ? failuresOf(first)[0] : undefined)}${more} — ${md(knownText(clause))}`;
  });
}

function capped(lines: string[], max: number, noun: string): string[] {
  if (lines.length <= max) return lines;
  const rest = lines.length - max;
  return [
    ...lines.slice(0, max),
    '',
    `_…and ${rest} more ${noun}${rest === 1 ? '' : 's'} not shown here; the HTML report and junit.xml list them all._`,
  ];
}

/**
 * What the verdicts rest on besides first answers: requests the target refused with 503 and no
 * Retry-After, or lost with their connection, each judged on the answer to its sending again; and a
 * target that served few connections at a time. A reader deciding whether the build ships sees them.
 */
function sentAgainText(report: RunReport): string | undefined {
  const { overloaded, resent, servedConnections } = report.traffic ?? {};
  const parts = [
    overloaded ? `${overloaded} ${overloaded === 1 ? 'request' : 'requests'} answered 503 without Retry-After, as a gateway limiting load answers, were sent again with fewer in flight or after a wait, and judged on what came then` : '',
    resent ? `${resent} ${resent === 1 ? 'request was' : 'requests were'} sent once more after a connection lost under ${resent === 1 ? 'it' : 'them'} (a close the request may have crossed) or a 408` : '',
    servedConnections ? `the target seemed to serve ${servedConnections === 1 ? 'one connection' : `${servedConnections} connections`} at a time, and the run held to that` : '',
  ].filter(Boolean);
  return parts.length ? `${parts.map(md).join('; ')}.` : undefined;
}

/** A `### heading`, its lines, and the blank lines around them. */
function section(heading: string, lines: string[]): string[] {
  return [`### ${heading}`, '', ...lines, ''];
}

/** The run as short GitHub-flavoured Markdown. Pure. */
export function renderSummary(input: RunReport, options: RenderOptions = {}): string {
  const report = redactReport(input, options.secrets);
  const groups = groupBySection(report);
  const counts = countOutcomes(report.clauses);
  const ships = report.verdict === 'pass';
  const accepted = report.clauses.filter((c) => isFailing(c.outcome) && c.known);
  const out: string[] = [];

  out.push(
    `## ${ships ? '✅' : '❌'} ${md(report.spec.title)} ${md(report.spec.version)}: **${verdictText(report)}**`,
  );
  out.push('');
  out.push(
    `${md(report.tool.name)} ${md(report.tool.version)} against ${report.target.embedded ? `the embedded reference server (${code(report.target.baseUrl)}), not a deployment` : `${code(report.target.baseUrl)} (${md(report.target.env)})`} · seed ${code(String(report.seed))} · ${report.runs} runs · ${md(formatDuration(report.durationMs))} · --fail-on ${report.failOn}`,
  );
  out.push('');
  const shard = shardLine(report);
  if (shard) out.push(md(shard), '');
  out.push(
    `**${totalOf(counts)} clauses:** ${OUTCOMES.map((o) => `${counts[o]} ${OUTCOME_LABEL[o].toLowerCase()}`).join(', ')}` +
      (accepted.length > 0 ? ` · ${accepted.length} failure${accepted.length === 1 ? '' : 's'} accepted by the baseline` : '') +
      (report.engineErrors.length > 0 ? ` · **${report.engineErrors.length} engine error${report.engineErrors.length === 1 ? '' : 's'}**` : ''),
  );
  out.push('');
  const sentAgain = sentAgainText(report);
  if (sentAgain) out.push(`> **Sent again:** ${sentAgain}`, '');
  const unchecked = uncheckedMust(report);
  const partial = report.clauses.filter((c) => c.outcome === 'partial');
  const uncheckedText = uncheckedMustText(report);
  if (uncheckedText) {
    const where = [unchecked.length ? '"MUST clauses not checked"' : '', partial.length ? '"Judged only in part"' : ''].filter(Boolean).join(' and ');
    out.push(`> **Note:** ${md(uncheckedText)} (see ${where} below).`);
    out.push('');
  }

  out.push(`| Section | ${OUTCOMES.map((o) => OUTCOME_LABEL[o]).join(' | ')} |`);
  out.push(`|---|${OUTCOMES.map(() => '---:').join('|')}|`);
  const total = zeroCounts();
  for (const g of groups) {
    for (const o of OUTCOMES) total[o] += g.counts[o];
    const cells = OUTCOMES.map((o) => {
      const n = g.counts[o];
      return n > 0 && (o === 'fail' || o === 'error') ? `**${n}**` : String(n);
    });
    out.push(`| ${md(g.label)} | ${cells.join(' | ')} |`);
  }
  out.push(`| **Total** | ${OUTCOMES.map((o) => `**${total[o]}**`).join(' | ')} |`);
  out.push('');

  const failing = report.clauses.filter((c) => isFailing(c.outcome) && !c.known);
  if (failing.length > 0) {
    const { lines, count } = problemLines(failing);
    // A clause fails once per operation it failed on: the count of clauses above is the smaller number.
    const clauses = count === failing.length ? '' : `, on ${failing.length} clause${failing.length === 1 ? '' : 's'}`;
    out.push(...section(`Failures (${count}${clauses})`, capped(lines, SUMMARY_MAX_FAILURES, 'failure')));
  }
  if (accepted.length > 0) {
    out.push(...section(`Known failures (accepted by the baseline) (${accepted.length})`, capped(knownLines(accepted), SUMMARY_MAX_FAILURES, 'known failure line')));
  }
  const warning = report.clauses.filter((c) => c.outcome === 'warn');
  if (warning.length > 0) {
    const { lines, count } = problemLines(warning);
    out.push(...section(`Warnings (${count})`, capped(lines, SUMMARY_MAX_WARNINGS, 'warning')));
  }
  if (report.causes?.length) {
    const lines = report.causes.map((cause) => `- ${md(cause.summary)}: ${cause.clauses.map((id) => code(id, 80)).join(', ')}`);
    out.push(...section(`Likely one cause (${report.causes.length})`, lines));
  }
  if (partial.length > 0) {
    const lines = partial.map((clause) => {
      const judged = judgedPerOperation(clause);
      return `- **${code(clause.id, 80)}** (§${md(clause.section)}, ${clause.level}) ${md(clause.title)}: ${md(shortfallLines(clause).join('; '))}${judged ? ` (judged: ${md(judged)})` : ''}`;
    });
    out.push(...section(`Judged only in part (${partial.length})`, capped(lines, SUMMARY_MAX_FAILURES, 'clause')));
  }
  if (unchecked.length > 0) {
    const lines = unchecked.map((clause) => {
      const reason = skipReason(clause);
      return `- **${code(clause.id, 80)}** (§${md(clause.section)}) ${md(clause.title)}${reason !== undefined ? `: ${md(reason)}` : ''}`;
    });
    out.push(...section(`MUST clauses not checked (${unchecked.length})`, capped(lines, SUMMARY_MAX_FAILURES, 'clause')));
  }
  if (report.engineErrors.length > 0) {
    out.push(...section(`Engine errors (${report.engineErrors.length})`, capped(report.engineErrors.map((e) => `- ${code(e, 200)}`), 10, 'engine error')));
  }
  out.push(`Replay: ${code(replayCommand(report), 200)}`);
  out.push('');
  return redactText(out.join('\n'), options.secrets);
}
