/**
 * JUnit XML (Jenkins / Ant structure, validated against selftest/report/junit.xsd):
 * one <testsuite> per spec section, one <testcase> per clause, named by its id (its check bears the
 * same name). A failure an unexpired --baseline entry accepts is a <skipped> with the reason, its
 * details in <system-out>; a MUST clause the target kept the suite from judging (exit 3) an <error>.
 *
 * Only <testsuites> carries a time, the run's: a check is judged across the exchanges of several
 * scenarios, and a section gathers checks of many, so neither has a duration of its own. `time` is
 * optional on <testcase> and <testsuite> (there and in the Jenkins xunit-plugin's junit-10.xsd), and
 * a reader that sums durations gets nothing rather than a made-up 0.000.
 */
import type { CheckResult, ClauseResult, RunReport } from './model.ts';
import { redactMarkup, redactReport } from '../secrets.ts';
import { checkDetailText } from './detail.ts';
import { judgedPerOperation, knownText, replayCommand, shortfallLines, verdictText, type RenderOptions } from './format.ts';
import { groupBySection } from './grouping.ts';
import { oneLine, sanitizeText } from './sanitize.ts';
import { failuresOf, moreFailuresOf, operationsOf } from './failures.ts';

/** Sanitises (no characters illegal in XML 1.0 remain) and escapes text content. */
function xmlText(s: string): string {
  return sanitizeText(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value; tab, LF and CR are kept as character references. */
function xmlAttr(s: string): string {
  return sanitizeText(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}

function attrs(list: [string, string | number | undefined][]): string {
  return list
    .filter((a): a is [string, string | number] => a[1] !== undefined)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
}

/** The clause, the operations the check failed on, and the first failure's Expected and Actual. */
function failureMessage(clause: ClauseResult, check: CheckResult): string {
  const failures = failuresOf(check);
  const first = failures[0]!;
  const operations = operationsOf(failures);
  const more = moreFailuresOf(check);
  const count = operations.length + more;
  let head = `${clause.id}: ${clause.level} violated`;
  if (operations.length > 0 && count > 1) head += ` on ${count} operations (${operations.join(', ')}${more ? ', …' : ''}); first, on ${operations[0]}:`;
  else if (operations.length === 1) head += ` on ${operations[0]};`;
  else head += ';';
  const parts: string[] = [];
  if (first.expected !== undefined) parts.push(`expected ${first.expected}`);
  if (first.actual !== undefined) parts.push(`actual ${first.actual}`);
  if (check.note !== undefined && parts.length === 0) parts.push(check.note);
  return oneLine(parts.length ? `${head} ${parts.join('; ')}` : head.slice(0, -1), 500);
}

/**
 * Why a MUST clause went unjudged, in whole or in part, for a cause on the target's side (what makes
 * a run exit 3: src/cli/exit-code.ts), or undefined.
 */
function unjudgedMust(clause: ClauseResult, check: CheckResult): string | undefined {
  if (clause.level !== 'MUST') return undefined;
  if (clause.outcome === 'skip' && check.outcome === 'skip' && check.blockedBy) return check.note ?? `skipped (${check.blockedBy})`;
  const blocked = clause.outcome === 'partial' && (check.outcome === 'pass' || check.outcome === 'partial') ? (clause.shortfalls ?? []).filter((s) => s.blockedBy) : [];
  if (blocked.length === 0) return undefined;
  const judged = judgedPerOperation(clause);
  return `judged only in part: ${shortfallLines(clause).join('; ')}${judged ? ` (judged: ${judged})` : ''}`;
}

interface Case {
  name: string;
  classname: string;
  body: string;
  failure: boolean;
  error: boolean;
  skipped: boolean;
}

function caseFor(report: RunReport, clause: ClauseResult, check: CheckResult | undefined): Case {
  const classname = `service-spec.${clause.section}`;
  // A clause nobody judged still gets a testcase, so nothing disappears from the report.
  const subject: CheckResult = check ?? {
    check: clause.id,
    clause: clause.id,
    outcome: clause.outcome,
    judged: 0,
  };
  const detail = checkDetailText(report, clause, subject);
  let body = '';
  let failure = false;
  let error = false;
  let skipped = false;
  const known = knownText(clause);
  if (subject.outcome === 'fail' && known) {
    // A red testcase on a green gate would mislead CI widgets: skipped, with why, and the details kept.
    body =
      `<skipped${attrs([['message', oneLine(known, 500)]])}/>\n      ` +
      `<system-out>${xmlText(`KNOWN FAILURE (${known}): ${clause.id}\n${detail}`)}</system-out>`;
    return { name: clause.id, classname, body, failure, error, skipped: true };
  }
  const unjudged = unjudgedMust(clause, subject);
  if (unjudged) {
    // The target kept the suite from judging a MUST clause (exit 3): red in a CI widget, as the gate is, not a quiet skip.
    return { name: clause.id, classname, body: `<error${attrs([['message', oneLine(`CANNOT VOUCH: ${unjudged}`, 500)], ['type', 'Unjudged']])}>${xmlText(detail)}</error>`, failure, error: true, skipped };
  }
  if (clause.outcome === 'partial' && (subject.outcome === 'pass' || subject.outcome === 'partial')) {
    // Nothing failed, but the evidence fell short: not a pass a CI widget may count as one.
    const judged = judgedPerOperation(clause);
    const message = `PARTIAL: ${shortfallLines(clause).join('; ')}${judged ? ` (judged: ${judged})` : ''}`;
    return { name: clause.id, classname, body: `<skipped${attrs([['message', oneLine(message, 500)]])}/>`, failure, error, skipped: true };
  }
  switch (subject.outcome) {
    case 'fail':
      failure = true;
      body =
        `<failure${attrs([['message', failureMessage(clause, subject)], ['type', clause.level]])}>` +
        xmlText(detail) +
        '</failure>';
      break;
    case 'error':
      error = true;
      body =
        `<error${attrs([['message', oneLine(subject.note ?? subject.actual ?? 'the check could not be completed', 500)], ['type', 'EngineError']])}>` +
        xmlText(detail) +
        '</error>';
      break;
    case 'skip':
      skipped = true;
      body = `<skipped${attrs([['message', oneLine(subject.note ?? 'skipped', 500)]])}/>`;
      break;
    case 'warn':
      if (report.failOn === 'should') {
        // The gate fails on it (--fail-on should): a CI widget must show it red, not green.
        failure = true;
        body = `<failure${attrs([['message', failureMessage(clause, subject)], ['type', clause.level]])}>${xmlText(detail)}</failure>`;
      } else body = `<system-out>${xmlText(`WARNING: ${clause.id} (${clause.level}) not met\n${detail}`)}</system-out>`;
      break;
    case 'observe':
      body = `<system-out>${xmlText(`OBSERVED: ${clause.id}\n${detail}`)}</system-out>`;
      break;
    case 'pass':
    case 'partial':
      break;
  }
  return { name: clause.id, classname, body, failure, error, skipped };
}

function testcaseXml(c: Case): string {
  const open = `    <testcase${attrs([['name', c.name], ['classname', c.classname]])}`;
  return c.body ? `${open}>\n      ${c.body}\n    </testcase>` : `${open}/>`;
}

function propertiesXml(report: RunReport): string {
  const props: [string, string][] = [
    ['tool', `${report.tool.name} ${report.tool.version}`],
    ['spec', `${report.spec.title} ${report.spec.version}`],
    ['target.baseUrl', report.target.baseUrl],
    ['target.messagesBaseUrl', report.target.messagesBaseUrl],
    ['target.env', report.target.env],
    ['target.embedded', String(report.target.embedded)],
    ['seed', String(report.seed)],
    ['runs', String(report.runs)],
    ['now', report.now],
    ['failOn', report.failOn],
    ['verdict', report.verdict],
    ['outcome', `${verdictText(report).toUpperCase()} (exit ${report.exitCode})`],
    ['replay', replayCommand(report)],
  ];
  const inner = props.map(([name, value]) => `      <property${attrs([['name', name], ['value', value]])}/>`).join('\n');
  return `    <properties>\n${inner}\n    </properties>`;
}

function suiteXml(report: RunReport, name: string, cases: Case[], id: number, pkg: string): string {
  const head =
    `  <testsuite${attrs([
      ['name', name],
      ['tests', cases.length],
      ['failures', cases.filter((c) => c.failure).length],
      ['errors', cases.filter((c) => c.error).length],
      ['skipped', cases.filter((c) => c.skipped).length],
      ['timestamp', report.startedAt],
      ['id', id],
      ['package', pkg],
    ])}>`;
  // The run's properties once, on the first suite (they are the same for every suite).
  const props = id === 0 ? [propertiesXml(report)] : [];
  return [head, ...props, ...cases.map(testcaseXml), '  </testsuite>'].join('\n');
}

/** The run as JUnit XML. Pure; the result is a complete UTF-8 XML document. */
export function renderJunit(input: RunReport, options: RenderOptions = {}): string {
  const report = redactReport(input, options.secrets);
  const suites: string[] = [];
  let all: Case[] = [];
  let id = 0;
  for (const group of groupBySection(report)) {
    const cases: Case[] = [];
    for (const clause of group.clauses) {
      if (clause.checks.length === 0) cases.push(caseFor(report, clause, undefined));
      for (const check of clause.checks) cases.push(caseFor(report, clause, check));
    }
    suites.push(suiteXml(report, group.label, cases, id++, 'service-spec'));
    all = all.concat(cases);
  }
  if (report.engineErrors.length > 0) {
    const cases: Case[] = report.engineErrors.map((message, i) => ({
      name: `engine error ${i + 1}`,
      classname: 'animal-store-conformance.engine',
      body:
        `<error${attrs([['message', oneLine(message, 500)], ['type', 'EngineError']])}>` +
        xmlText(sanitizeText(message)) +
        '</error>',
      failure: false,
      error: true,
      skipped: false,
    }));
    suites.push(suiteXml(report, 'Engine errors', cases, id++, 'animal-store-conformance'));
    all = all.concat(cases);
  }
  const root =
    `<testsuites${attrs([
      ['name', `${report.spec.title} ${report.spec.version} conformance (${report.tool.name} ${report.tool.version})`],
      ['tests', all.length],
      ['failures', all.filter((c) => c.failure).length],
      ['errors', all.filter((c) => c.error).length],
      ['time', (Math.max(0, report.durationMs) / 1000).toFixed(3)],
    ])}>`;
  const xml = ['<?xml version="1.0" encoding="UTF-8"?>', root, ...suites, '</testsuites>', ''].join('\n');
  return redactMarkup(xml, options.secrets);
}
