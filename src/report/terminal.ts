/**
 * Terminal output, h2spec style: results grouped by section, one mark per clause, details for
 * failures and warnings, then summary lines and the replay command.
 * Server text is sanitised, so a hostile body cannot drive the terminal (ESC becomes `\u001b`).
 */
import { failuresOf, operationsOf } from './failures.ts';
import type { CheckResult, FailureEvidence, Outcome, RunReport } from './model.ts';
import { redactReport, redactText } from '../secrets.ts';
import { countsPhrase, formatDuration, judgedPerOperation, knownText, moreFailuresText, OUTCOME_MARK, problemLabel, replayCommand, replayText, shortfallLines, verdictText, type RenderOptions } from './format.ts';
import { countOutcomes, groupBySection, isDeselected, notableChecks, skipReason, totalOf } from './grouping.ts';
import { sanitizeText } from './sanitize.ts';
import { storyLines } from './detail.ts';
import { shellWord } from '../http/curl.ts';

export interface TerminalOptions extends RenderOptions {
  /** Emit ANSI colours (pass `process.stdout.isTTY && !process.env.NO_COLOR`). */
  color: boolean;
  /**
   * The requests a property keeps in flight against a near target (suite/config.ts PIPELINE_DEPTH):
   * a run that kept another number says how many, and the round trip that chose it. Unset: never said.
   */
  usualPipelineDepth?: number;
  /** The reports folder as the user would type it: a story's script is named under it. */
  reportsDir?: string;
}

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray';

const SGR: Readonly<Record<Style, [number, number]>> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
};

const OUTCOME_STYLE: Readonly<Record<Outcome, Style>> = {
  pass: 'green',
  fail: 'red',
  warn: 'yellow',
  partial: 'blue',
  skip: 'gray',
  observe: 'cyan',
  error: 'magenta',
};

/** Details (sentence, Expected, Actual, …) are printed for these outcomes. */
const DETAILED: ReadonlySet<Outcome> = new Set<Outcome>(['fail', 'warn', 'error']);

/** Max characters of one detail value before it is cut (the HTML report has everything). */
const VALUE_MAX = 400;

export function renderTerminal(input: RunReport, options: TerminalOptions): string {
  const report = redactReport(input, options.secrets);
  const paint = (style: Style, text: string): string => {
    if (!options.color) return text;
    const [on, off] = SGR[style];
    return `\u001b[${on}m${text}\u001b[${off}m`;
  };
  /** Sanitised, each line after the first indented to line up under the first. */
  const value = (text: string, pad: string): string => {
    let s = sanitizeText(text);
    const chars = Array.from(s);
    if (chars.length > VALUE_MAX) s = chars.slice(0, VALUE_MAX - 1).join('') + '…';
    return s.split('\n').join('\n' + pad);
  };

  const out: string[] = [];
  out.push(paint('bold', `${value(report.spec.title, '')} ${value(report.spec.version, '')}`) + paint('dim', ` · ${value(report.tool.name, '')} ${value(report.tool.version, '')}`));
  out.push(
    paint(
      'dim',
      `Target ${value(report.target.baseUrl, '')} (${report.target.env}${report.target.embedded ? ', embedded' : ''}) · seed ${report.seed} · runs ${report.runs}`,
    ),
  );
  out.push('');

  const label = (name: string): string => paint('dim', name.padEnd(16));
  const failureLines = (failure: FailureEvidence, note: string | undefined, indent: string, pad: string): string[] => {
    const lines: string[] = [];
    if (failure.expected !== undefined) lines.push(indent + label('Expected:') + paint('green', value(failure.expected, pad)));
    if (failure.actual !== undefined) lines.push(indent + label('Actual:') + paint('red', value(failure.actual, pad)));
    if (note !== undefined) lines.push(indent + label('Note:') + value(note, pad));
    if (failure.counterexample !== undefined) lines.push(indent + label('Counterexample:') + value(failure.counterexample, pad));
    if (failure.story) for (const line of storyLines(failure.story)) lines.push(indent + value(line, pad));
    const replay = replayText(failure);
    if (replay) lines.push(indent + label('Replay:') + replay);
    if (failure.evidence) {
      const res = failure.evidence.response;
      const got = res ? `HTTP ${res.status}` : `no response: ${failure.evidence.transportError ?? 'transport failed'}`;
      lines.push(indent + label('Request:') + value(`${failure.evidence.request.method} ${failure.evidence.request.url} → ${got}`, pad));
      const script = failure.story?.script;
      if (script) {
        lines.push(indent + label('Reproduce:') + paint('cyan', value(`sh ${shellWord(options.reportsDir ? `${options.reportsDir}/${script}` : script)}`, pad)) + paint('dim', ' (every step of the story, in order)'));
        lines.push(indent + label('Last step:') + paint('cyan', value(failure.evidence.curl, pad)));
      } else lines.push(indent + label('Reproduce:') + paint('cyan', value(failure.evidence.curl, pad)));
    }
    return lines;
  };

  const detailLines = (check: CheckResult, indent: string): string[] => {
    const lines: string[] = [];
    const pad = indent + ' '.repeat(16);
    const failures = failuresOf(check);
    const operations = operationsOf(failures);
    if (operations.length > 1) lines.push(indent + label(`${problemLabel(check)}:`) + value(operations.join(', '), pad));
    for (const [i, failure] of failures.entries()) {
      if (failures.length > 1) lines.push(indent + paint('dim', `on ${value(failure.operation ?? `failure ${i + 1}`, pad)} (${i + 1} of ${failures.length})`));
      lines.push(...failureLines(failure, i === 0 ? check.note : undefined, indent, pad));
    }
    const more = moreFailuresText(check, ' (report.json lists those shown)');
    if (more) lines.push(indent + paint('dim', more));
    return lines;
  };

  let hidden = 0;
  for (const group of groupBySection(report)) {
    const shown = group.clauses.filter((clause) => !isDeselected(clause));
    hidden += group.clauses.length - shown.length;
    if (shown.length === 0) continue;
    const counts = totalOf(group.counts);
    out.push(paint('bold', value(group.label, '')) + paint('dim', ` (${counts} clause${counts === 1 ? '' : 's'})`));
    for (const clause of shown) {
      const style = OUTCOME_STYLE[clause.outcome];
      const head = `  ${paint(style, OUTCOME_MARK[clause.outcome])} ${paint('bold', value(clause.id, ''))} ${value(clause.title, '    ')} ${paint('dim', `[${clause.level}]`)}`;
      const checks = notableChecks(clause);
      if (clause.outcome === 'skip' || clause.outcome === 'observe') {
        const note = skipReason(clause);
        out.push(head + (note !== undefined ? paint('dim', ` — ${value(note, '      ')}`) : ''));
        continue;
      }
      const known = knownText(clause);
      out.push(head + (known ? paint('dim', ` — known, ${value(known, '      ')}`) : ''));
      if (clause.outcome === 'partial') {
        for (const line of shortfallLines(clause)) out.push('      ' + paint('blue', value(line, '        ')));
        const judged = judgedPerOperation(clause);
        if (judged) out.push('      ' + paint('dim', `judged: ${value(judged, '        ')}`));
        continue;
      }
      if (!DETAILED.has(clause.outcome)) continue;
      const indent = '      ';
      out.push(indent + paint('dim', `"${value(clause.sentence, indent + ' ')}"`));
      // The quote may be an RFC's MUST that this run grades lower: the basis says so beside it.
      if (clause.basis) out.push(indent + paint('dim', `Basis: ${value(clause.basis, indent + ' ')}`));
      for (const check of checks) out.push(...detailLines(check, indent));
    }
    out.push('');
  }

  if (hidden > 0) out.push(paint('dim', `${hidden} clause${hidden === 1 ? '' : 's'} deselected by --only/--skip`), '');
  if (report.engineErrors.length > 0) {
    out.push(paint('bold', paint('magenta', `Engine errors (${report.engineErrors.length})`)));
    for (const e of report.engineErrors) out.push(`  ${paint('magenta', OUTCOME_MARK.error)} ${value(e, '    ')}`);
    out.push('');
  }

  if (report.causes?.length) {
    out.push(paint('bold', 'Likely one cause'));
    for (const cause of report.causes) out.push(`  ${paint('red', OUTCOME_MARK.fail)} ${value(cause.summary, '    ')}` + paint('dim', ` — ${value(cause.clauses.join(', '), '    ')}`));
    out.push('');
  }
  const counts = countOutcomes(report.clauses);
  const ships = report.verdict === 'pass';
  out.push(
    paint('bold', paint(ships ? 'green' : 'red', `Verdict: ${verdictText(report).toUpperCase()}`)) +
      paint('dim', ` (--fail-on ${report.failOn}, exit code ${report.exitCode})`) +
      (report.target.embedded ? ' — the embedded reference server, not a deployment (no BASE_URL set)' : ''),
  );
  const warningsFail = report.failOn === 'should' && report.summary.warn > 0 ? ` (with --fail-on should, the warnings fail the run)` : '';
  out.push(`${totalOf(counts)} clauses: ${countsPhrase(counts)}${warningsFail}${report.engineErrors.length ? `; ${report.engineErrors.length} engine error${report.engineErrors.length === 1 ? '' : 's'}` : ''}`);
  const { depth, roundTripMs, schedule } = report.pipeline ?? { depth: 0 };
  const waited = roundTripMs !== undefined && options.usualPipelineDepth !== undefined && depth !== options.usualPipelineDepth ? ` · ${depth} request${depth === 1 ? '' : 's'} in flight (round trip ${Math.round(roundTripMs)} ms)` : '';
  const sideBySide = schedule === 'concurrent' ? ' · scenarios side by side' : '';
  out.push(`Seed ${report.seed} · runs ${report.runs} · ${formatDuration(report.durationMs)}${waited}${sideBySide}`);
  out.push(`Replay: ${paint('cyan', replayCommand(report))}`);
  out.push('');
  return redactText(out.join('\n'), options.secrets);
}
