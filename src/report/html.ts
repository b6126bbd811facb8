/**
 * report.html: one self-contained page (inline CSS and a little inline JS, no external assets,
 * no network). Works with JS disabled: failing and warning clauses start open in <details>, the
 * others closed. A Content-Security-Policy allows only the page's own style and script (by hash)
 * and forbids every fetch.
 */
import { createHash } from 'node:crypto';
import { OUTCOME_LABEL, OUTCOME_MARK, formatDuration, judgedText, replayCommand, uncheckedMustText, verdictText, type RenderOptions } from './format.ts';
import { OUTCOMES, countOutcomes, failsGate, groupBySection, isFailing, partialMust, totalOf, uncheckedMust, zeroCounts, type OutcomeCounts, type SectionGroup } from './grouping.ts';
import { sectionBlock } from './html/clause.ts';
import { Ids, esc, pre } from './html/markup.ts';
import { SCRIPT } from './html/script.ts';
import { CSS } from './html/style.ts';
import type { Capability, ClauseResult, Outcome, RunReport } from './model.ts';
import { redactMarkup, redactReport } from '../secrets.ts';

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${sha256(CSS)}'`,
  `script-src 'sha256-${sha256(SCRIPT)}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function metaItem(term: string, value: string, extraClass = ''): string {
  return `<div><dt>${esc(term)}</dt><dd${extraClass ? ` class="${extraClass}"` : ''}>${value}</dd></div>`;
}

function chips(counts: OutcomeCounts, engineErrors: number): string {
  const items = OUTCOMES.map(
    (o) => `<li class="chip o-${o}" data-outcome="${o}">${counts[o]} ${esc(OUTCOME_LABEL[o].toLowerCase())}</li>`,
  );
  if (engineErrors > 0) {
    items.push(`<li class="chip o-error"><a href="#engine-errors">${engineErrors} engine error${engineErrors === 1 ? '' : 's'}</a></li>`);
  }
  return `<ul class="chips" aria-label="Clause counts">${items.join('')}</ul>`;
}

/** Which failing clauses the baseline accepts, each linked to its details. */
function knownLine(report: RunReport, clauseIds: Map<ClauseResult, string>): string {
  const known = report.clauses.filter((c) => c.known && isFailing(c.outcome));
  if (known.length === 0) return '';
  const links = known.map((c) => `<a href="#${clauseIds.get(c) ?? ''}"><code>${esc(c.id)}</code></a>`);
  return `<p class="known-line">${known.length} failing clause${known.length === 1 ? '' : 's'} accepted by the baseline (known): ${links.join(', ')}</p>`;
}

/** The MUST clauses the run skipped, each linked to its reason: the verdict does not vouch for them. */
function uncheckedLine(report: RunReport, clauseIds: Map<ClauseResult, string>): string {
  const text = uncheckedMustText(report);
  if (!text) return '';
  const listed = [...uncheckedMust(report), ...partialMust(report)];
  const links = listed.map((c) => `<a href="#${clauseIds.get(c) ?? ''}"><code>${esc(c.id)}</code></a>`);
  return `<p class="unchecked" id="unchecked-must"><strong>${esc(text)}</strong> (each says why below): ${links.join(', ')}</p>`;
}

/** Why a build does not ship, at the top: the clauses that fail the gate (SHOULD warnings too under --fail-on should), each linked. */
function failingLine(report: RunReport, clauseIds: Map<ClauseResult, string>): string {
  if (report.verdict === 'pass') return '';
  const gating = report.clauses.filter((c) => failsGate(c.outcome, report.failOn));
  if (gating.length === 0) return '';
  const links = gating.map((c) => `<a href="#${clauseIds.get(c) ?? ''}"><code>${esc(c.id)}</code></a> (§${esc(c.section)} ${esc(c.level)})`);
  return `<p class="failing" id="failing-clauses"><strong>Failing the gate (${gating.length}):</strong> ${links.join(', ')}</p>`;
}

/** Failing clauses that likely share one cause, one line each, the clauses linked. */
function causesBlock(report: RunReport, clauseIds: Map<ClauseResult, string>): string {
  if (!report.causes?.length) return '';
  const link = (id: string) => {
    const clause = report.clauses.find((c) => c.id === id);
    return clause ? `<a href="#${clauseIds.get(clause) ?? ''}"><code>${esc(id)}</code></a>` : `<code>${esc(id)}</code>`;
  };
  const items = report.causes.map((cause) => `<li>${esc(cause.summary)}: ${cause.clauses.map(link).join(', ')}</li>`);
  return `<div class="causes" id="likely-causes"><strong>Likely one cause</strong><ul>${items.join('')}</ul></div>`;
}

function header(report: RunReport, counts: OutcomeCounts, clauseIds: Map<ClauseResult, string>): string {
  const ships = report.verdict === 'pass';
  const t = report.target;
  const meta = [
    metaItem('Target', `<code>${esc(t.baseUrl)}</code>`),
    metaItem('Messages target', t.messagesBaseUrl ? `<code>${esc(t.messagesBaseUrl)}</code>` : 'not configured (message checks skipped)'),
    metaItem('Environment', `${esc(t.env)}${t.embedded ? ' (embedded server)' : ''}`),
    metaItem('Spec', `${esc(report.spec.title)} <strong>${esc(report.spec.version)}</strong>`),
    metaItem('Tool', `${esc(report.tool.name)} ${esc(report.tool.version)}`),
    metaItem('Seed', `<code>${esc(String(report.seed))}</code>`),
    metaItem('Runs', esc(String(report.runs))),
    metaItem('Started', `<time datetime="${esc(report.startedAt)}">${esc(report.startedAt)}</time>`),
    metaItem('Duration', esc(formatDuration(report.durationMs))),
    metaItem('Judged at', `${esc(report.now)} ${report.nowGiven ? '(--now)' : '(the time of the run; settable with --now)'}`),
    metaItem('Fails on', esc(report.failOn === 'must' ? 'MUST violations' : 'MUST and SHOULD violations')),
    metaItem('Exit code', esc(String(report.exitCode))),
  ];
  return `<header class="top">
<div class="verdict ${ships ? 'pass' : 'fail'}" id="verdict" data-verdict="${report.verdict}">
<h1><span class="word">${esc(verdictText(report).replace(/^./, (c) => c.toUpperCase()))}</span>: ${esc(report.spec.title)} ${esc(report.spec.version)}</h1>
<p>${esc(judgedText(report))}</p>
${t.embedded ? '<p class="embedded"><strong>The embedded reference server, not a deployment:</strong> no BASE_URL (or --base-url) was set, so this checked the suite\'s own server.</p>\n' : ''}${failingLine(report, clauseIds)}
${uncheckedLine(report, clauseIds)}
${causesBlock(report, clauseIds)}
${chips(counts, report.engineErrors.length)}
${knownLine(report, clauseIds)}
<p>Replay this run: <code>${esc(replayCommand(report))}</code></p>
</div>
<dl class="meta">${meta.join('\n')}</dl>
</header>`;
}

function toc(groups: SectionGroup[], report: RunReport, ids: Map<string, string>): string {
  const links = [`<a href="#matrix">Matrix</a>`];
  for (const g of groups) links.push(`<a href="#${ids.get(g.section) ?? ''}">§${esc(g.section)}</a>`);
  links.push(`<a href="#capabilities">Capabilities</a>`);
  if (report.engineErrors.length > 0) links.push(`<a href="#engine-errors">Engine errors</a>`);
  return `<nav class="toc" aria-label="Contents">${links.join(' ')}</nav>`;
}

function matrix(groups: SectionGroup[], ids: Map<string, string>): string {
  const head = `<tr><th scope="col">Spec section</th>${OUTCOMES.map((o) => `<th scope="col" class="n">${OUTCOME_MARK[o]} ${OUTCOME_LABEL[o]}</th>`).join('')}<th scope="col" class="n">Total</th></tr>`;
  const cell = (o: Outcome, n: number): string =>
    `<td class="n ${o}${n === 0 ? ' zero' : ''}" data-outcome="${o}">${n}</td>`;
  const rows = groups.map((g) => {
    const cells = OUTCOMES.map((o) => cell(o, g.counts[o])).join('');
    return `<tr data-section="${esc(g.section)}"><th scope="row"><a href="#${ids.get(g.section) ?? ''}">${esc(g.label)}</a></th>${cells}<td class="n total">${totalOf(g.counts)}</td></tr>`;
  });
  const total = zeroCounts();
  for (const g of groups) for (const o of OUTCOMES) total[o] += g.counts[o];
  const foot = `<tr data-section="total"><th scope="row">Total</th>${OUTCOMES.map((o) => cell(o, total[o])).join('')}<td class="n total">${totalOf(total)}</td></tr>`;
  return `<section id="matrix" aria-labelledby="matrix-h">
<h2 id="matrix-h">Conformance matrix by spec section</h2>
<div class="matrix-wrap"><table class="matrix">
<thead>${head}</thead>
<tbody>
${rows.join('\n')}
</tbody>
<tfoot>${foot}</tfoot>
</table></div>
</section>`;
}

function capabilities(caps: Capability[]): string {
  // A Detail column only when some capability has one: an empty column says nothing.
  const detailed = caps.some((c) => c.detail);
  const body =
    caps.length === 0
      ? `<p class="empty">No capabilities were profiled.</p>`
      : `<table class="caps"><thead><tr><th scope="col">Capability</th><th scope="col">Seen</th>${detailed ? '<th scope="col">Detail</th>' : ''}</tr></thead><tbody>
${caps.map((c) => `<tr data-capability="${esc(c.id)}"><th scope="row">${esc(c.title)}<br><code class="ops">${esc(c.id)}</code></th><td class="value">${esc(c.value)}</td>${detailed ? `<td>${esc(c.detail ?? '')}</td>` : ''}</tr>`).join('\n')}
</tbody></table>`;
  return `<section id="capabilities" aria-labelledby="caps-h">
<h2 id="caps-h">Capability profile</h2>
${body}
</section>`;
}

function engineErrors(errors: string[]): string {
  if (errors.length === 0) return '';
  return `<section id="engine-errors" aria-labelledby="engine-h">
<h2 id="engine-h">Engine errors (${errors.length})</h2>
<p>Problems of the test engine or the transport. They are not conformance verdicts, but the clauses they touched were not judged.</p>
<ul class="engine-errors">${errors.map((e) => `<li>${pre(e)}</li>`).join('\n')}</ul>
</section>`;
}

/** The run as one self-contained HTML page. Pure. */
export function renderHtml(input: RunReport, options: RenderOptions = {}): string {
  const report = redactReport(input, options.secrets);
  const groups = groupBySection(report);
  const counts = countOutcomes(report.clauses);
  const ids = new Ids();
  const sectionIds = new Map<string, string>();
  for (const g of groups) sectionIds.set(g.section, ids.make('sec', g.section));
  const clauseIds = new Map(groups.flatMap((g) => g.clauses.map((c): [ClauseResult, string] => [c, ids.make('clause', c.id)])));
  const title = `${report.spec.title} ${report.spec.version} conformance: ${verdictText(report)} (${report.target.baseUrl})`;
  const problems = counts.fail + counts.error + counts.warn;
  const tools = `<div class="tools" id="tools" hidden><button type="button" id="expand-problems">Expand failures and warnings${problems ? ` (${problems})` : ''}</button> <button type="button" id="expand-all">Expand all</button> <button type="button" id="collapse-all">Collapse all</button></div>`;
  const body = [
    header(report, counts, clauseIds),
    toc(groups, report, sectionIds),
    '<main>',
    matrix(groups, sectionIds),
    tools,
    ...groups.map((g) => sectionBlock(report, g, sectionIds.get(g.section) ?? '', clauseIds, ids)),
    capabilities(report.capabilities),
    engineErrors(report.engineErrors),
    '</main>',
    `<footer>Generated by ${esc(report.tool.name)} ${esc(report.tool.version)} · ${esc(report.startedAt)} · this file is self-contained and loads nothing from the network.</footer>`,
  ].join('\n');
  // Only the dynamic parts are redacted as text; the style and script must stay byte-exact
  // for their CSP hashes.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${esc(redactMarkup(`${report.tool.name} ${report.tool.version}`, options.secrets))}">
<title>${redactMarkup(esc(title), options.secrets)}</title>
<style>${CSS}</style>
</head>
<body>
${redactMarkup(body, options.secrets)}
<script>${SCRIPT}</script>
</body>
</html>
`;
}
