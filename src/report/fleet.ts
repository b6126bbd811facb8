/**
 * Several deployments checked by one `merge`: a target × clause matrix (summary.md, report.html),
 * every target's JUnit suites in one junit.xml, and fleet.json; each target's own reports are
 * written beside them by writeReports.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { OUTCOME_LABEL, OUTCOME_MARK, verdictText } from './format.ts';
import { esc } from './html/markup.ts';
import { renderJunit } from './junit.ts';
import type { Outcome, RunReport } from './model.ts';

export interface FleetEntry {
  /** How the matrix names the target: its environment and base URL. */
  label: string;
  /** Its own reports' folder, relative to the fleet's. */
  dir: string;
  report: RunReport;
}

/** The worst of the targets' exit codes, in the order a run ranks them: 4, then 1, then 3. */
export function fleetExitCode(entries: readonly FleetEntry[]): number {
  const codes = entries.map((e) => e.report.exitCode);
  return [4, 1, 3, 2].find((code) => codes.includes(code)) ?? 0;
}

function ships(entry: FleetEntry): boolean {
  return entry.report.exitCode === 0;
}

/** `2 of 3 deployments ship: …; do not ship: …`: the one line every fleet artifact leads with. */
export function fleetVerdict(entries: readonly FleetEntry[]): string {
  const good = entries.filter(ships).map((e) => e.label);
  const bad = entries.filter((e) => !ships(e)).map((e) => `${e.label} (exit ${e.report.exitCode})`);
  return `${good.length} of ${entries.length} deployments ship${good.length ? `: ${good.join(', ')}` : ''}${bad.length ? `; do not ship: ${bad.join(', ')}` : ''}`;
}

/** Clause rows in catalogue order, each with its outcome per target (undefined: the target's report has no such clause). */
function rows(entries: readonly FleetEntry[]): { id: string; section: string; level: string; title: string; outcomes: (Outcome | undefined)[] }[] {
  const first = entries[0]?.report.clauses ?? [];
  return first.map((clause) => ({
    id: clause.id,
    section: clause.section,
    level: clause.level,
    title: clause.title,
    outcomes: entries.map((e) => e.report.clauses.find((c) => c.id === clause.id)?.outcome),
  }));
}

const cell = (outcome: Outcome | undefined) => (outcome ? `${OUTCOME_MARK[outcome]} ${OUTCOME_LABEL[outcome]}` : '–');
const md = (text: string) => text.replace(/[|\\`*_[\]<>]/g, (c) => `\\${c}`);

export function renderFleetSummary(entries: readonly FleetEntry[]): string {
  const out = [`# Conformance of ${entries.length} deployments`, '', `**${md(fleetVerdict(entries))}**`, ''];
  out.push('| Deployment | Verdict | Exit | Pass | Fail | Warn | Partial | Skip | Reports |', '|---|---|---|---|---|---|---|---|---|');
  for (const { label, dir, report } of entries) {
    const s = report.summary;
    out.push(`| ${md(label)} | ${verdictText(report)} | ${report.exitCode} | ${s.pass} | ${s.fail} | ${s.warn} | ${s.partial} | ${s.skip} | ${md(dir)}/summary.md |`);
  }
  out.push('', '## Clauses × deployments', '', `| Clause | Level | ${entries.map((e, i) => `T${i + 1}`).join(' | ')} |`, `|---|---|${entries.map(() => '---').join('|')}|`);
  for (const row of rows(entries)) out.push(`| §${row.section} ${md(row.id)} | ${row.level} | ${row.outcomes.map(cell).join(' | ')} |`);
  out.push('', ...entries.map((e, i) => `T${i + 1}: ${md(e.label)}`), '');
  return out.join('\n');
}

export function renderFleetHtml(entries: readonly FleetEntry[]): string {
  const head = entries.map((e, i) => `<th title="${esc(e.label)}"><a href="${esc(e.dir)}/report.html">T${i + 1}</a></th>`).join('');
  const body = rows(entries)
    .map((row) => `<tr><th scope="row">§${esc(row.section)} <code>${esc(row.id)}</code> ${esc(row.title)}</th><td>${row.level}</td>${row.outcomes.map((o) => `<td class="${o ?? 'none'}">${esc(cell(o))}</td>`).join('')}</tr>`)
    .join('\n');
  const targets = entries.map((e, i) => `<li>T${i + 1}: <a href="${esc(e.dir)}/report.html">${esc(e.label)}</a>: ${verdictText(e.report)}${ships(e) ? '' : ` (exit ${e.report.exitCode})`}</li>`).join('\n');
  const style = 'body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}.fail,.error{background:#fdd}.warn,.partial{background:#ffd}.pass{background:#dfd}';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(fleetVerdict(entries))}</title>
<style>${style}</style>
</head>
<body>
<h1>Conformance of ${entries.length} deployments</h1>
<p><strong>${esc(fleetVerdict(entries))}</strong></p>
<ul>
${targets}
</ul>
<table>
<thead><tr><th>Clause</th><th>Level</th>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table>
</body>
</html>
`;
}

/** Every target's suites in one document, each suite named by its target too. */
export function renderFleetJunit(entries: readonly FleetEntry[]): string {
  let id = 0;
  let tests = 0;
  let failures = 0;
  let errors = 0;
  const suites = entries.map(({ label, report }) => {
    const xml = renderJunit(report);
    const root = /<testsuites[^>]*>/.exec(xml)![0];
    const count = (name: string) => Number(new RegExp(` ${name}="(\\d+)"`).exec(root)?.[1] ?? 0);
    tests += count('tests');
    failures += count('failures');
    errors += count('errors');
    const inner = xml.slice(xml.indexOf(root) + root.length, xml.lastIndexOf('</testsuites>'));
    return inner
      .replace(/<testsuite name="([^"]*)"/g, (_, name: string) => `<testsuite name="${esc(label)} · ${name}"`)
      .replace(/ id="\d+"/g, () => ` id="${id++}"`)
      .trim();
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="conformance of ${entries.length} deployments" tests="${tests}" failures="${failures}" errors="${errors}">`, ...suites.map((s) => `  ${s}`), '</testsuites>', ''].join('\n');
}

export function fleetJson(entries: readonly FleetEntry[]): string {
  const first = entries[0]!.report;
  const document = {
    tool: first.tool,
    spec: first.spec,
    verdict: fleetVerdict(entries),
    exitCode: fleetExitCode(entries),
    targets: entries.map((e) => ({ label: e.label, target: e.report.target, reports: e.dir, verdict: e.report.verdict, exitCode: e.report.exitCode, summary: e.report.summary })),
    matrix: Object.fromEntries(rows(entries).map((row) => [row.id, Object.fromEntries(entries.map((e, i) => [e.label, row.outcomes[i] ?? null]))])),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Writes fleet.json, summary.md, report.html and junit.xml into dir. */
export async function writeFleet(entries: readonly FleetEntry[], dir: string): Promise<string[]> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const files: [string, string][] = [
    ['fleet.json', fleetJson(entries)],
    ['summary.md', renderFleetSummary(entries)],
    ['report.html', renderFleetHtml(entries)],
    ['junit.xml', renderFleetJunit(entries)],
  ];
  await Promise.all(files.map(([name, text]) => writeFile(join(root, name), text, 'utf8')));
  return files.map(([name]) => join(root, name));
}
