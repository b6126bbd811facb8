/**
 * report.html: one self-contained page (inline CSS and a little inline JS, no external assets,
 * no network). Works with JS disabled: failing and warning clauses start open in <details>, the
 * others closed. A Content-Security-Policy allows only the page's own style and script (by hash)
 * and forbids every fetch.
 */
import { createHash } from 'node:crypto';
import { failuresOf, problemOperations } from './failures.ts';
import type { Capability, CheckResult, ClauseResult, FailureEvidence, Outcome, RunReport } from './model.ts';
import {
  OUTCOMES,
  OUTCOME_LABEL,
  OUTCOME_MARK,
  countOutcomes,
  formatDuration,
  groupBySection,
  isFailing,
  judgedText,
  knownReason,
  moreFailuresText,
  notableChecks,
  judgedPerOperation,
  shortfallLines,
  redactReport,
  redactMarkup,
  replayCommand,
  replayText,
  requestText,
  responseText,
  sanitizeText,
  totalOf,
  uncheckedMust,
  uncheckedMustText,
  partialMust,
  verdictText,
  zeroCounts,
  type OutcomeCounts,
  type RenderOptions,
  type SectionGroup,
} from './common.ts';

/** Sanitises and escapes text for HTML element content and quoted attribute values. */
function esc(s: string): string {
  return sanitizeText(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const CSS = `
:root {
  --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0;
  --pass: #1a7f37; --pass-bg: #dafbe1;
  --fail: #cf222e; --fail-bg: #ffebe9;
  --warn: #9a6700; --warn-bg: #fff8c5;
  --partial: #8250df; --partial-bg: #fbefff;
  --skip: #59636e; --skip-bg: #eff2f5;
  --observe: #0969da; --observe-bg: #ddf4ff;
  --error: #8250df; --error-bg: #fbefff;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { color-scheme: light; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif; color: var(--fg); background: var(--bg); }
main, header.top, nav.toc { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
h1, h2, h3, h4, h5 { line-height: 1.25; }
h2 { margin: 32px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); font-size: 1.3em; }
h5 { margin: 10px 0 4px; font-size: .78em; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
code, pre, .mono { font-family: var(--mono); font-size: .9em; }
pre { margin: 0; padding: 8px 10px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28em; overflow: auto; }
a { color: var(--observe); }
header.top { padding-top: 20px; }
.verdict { border-radius: 10px; padding: 16px 20px; border: 2px solid; }
.verdict.pass { background: var(--pass-bg); border-color: var(--pass); }
.verdict.fail { background: var(--fail-bg); border-color: var(--fail); }
.verdict h1 { margin: 0 0 4px; font-size: 1.7em; }
.verdict .word { text-transform: uppercase; letter-spacing: .02em; }
.verdict.pass .word { color: var(--pass); }
.verdict.fail .word { color: var(--fail); }
.verdict p { margin: 4px 0; }
.verdict p.unchecked { margin: 8px 0; padding: 6px 12px; border: 1px dashed var(--skip); border-radius: 6px; background: var(--skip-bg); }
dl.meta { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(400px, 100%), 1fr)); gap: 4px 24px; margin: 16px 0 8px; }
dl.meta div { display: flex; gap: 8px; min-width: 0; }
dl.meta dt { color: var(--muted); flex: 0 0 9.5em; }
dl.meta dt::after { content: ":"; }
dl.meta dd { margin: 0; overflow-wrap: anywhere; font-weight: 500; }
.chips { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; padding: 0; list-style: none; }
.chip { border-radius: 999px; padding: 2px 12px; font-weight: 600; border: 1px solid; }
.o-pass { color: var(--pass); background: var(--pass-bg); border-color: var(--pass); }
.o-fail { color: var(--fail); background: var(--fail-bg); border-color: var(--fail); }
.o-warn { color: var(--warn); background: var(--warn-bg); border-color: var(--warn); }
.o-partial { color: var(--partial); background: var(--partial-bg); border-color: var(--partial); }
.o-skip { color: var(--skip); background: var(--skip-bg); border-color: var(--skip); }
.o-observe { color: var(--observe); background: var(--observe-bg); border-color: var(--observe); }
.o-error { color: var(--error); background: var(--error-bg); border-color: var(--error); }
nav.toc { margin-top: 12px; font-size: .92em; }
nav.toc a { margin-right: 14px; white-space: nowrap; }
.tools { margin: 8px 0; }
.tools button, button.copy { font: inherit; font-size: .85em; padding: 2px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); cursor: pointer; }
.tools button:hover, button.copy:hover { border-color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { font-size: .85em; color: var(--muted); border-bottom: 2px solid var(--line); }
.matrix-wrap { overflow-x: auto; }
table.matrix td.n, table.matrix th.n { text-align: center; width: 7.5em; font-variant-numeric: tabular-nums; }
table.matrix td.n { font-weight: 600; }
table.matrix td.zero { color: #b0b8c1; font-weight: 400; }
table.matrix td.pass:not(.zero) { color: var(--pass); background: var(--pass-bg); }
table.matrix td.fail:not(.zero) { color: #fff; background: var(--fail); }
table.matrix td.warn:not(.zero) { color: var(--warn); background: var(--warn-bg); }
table.matrix td.partial:not(.zero) { color: var(--partial); background: var(--partial-bg); }
table.matrix td.skip:not(.zero) { color: var(--skip); background: var(--skip-bg); }
table.matrix td.observe:not(.zero) { color: var(--observe); background: var(--observe-bg); }
table.matrix td.error:not(.zero) { color: #fff; background: var(--error); }
table.matrix tfoot th, table.matrix tfoot td { border-top: 2px solid var(--line); font-weight: 700; }
.sec-counts { font-size: .8em; font-weight: 400; color: var(--muted); margin-left: 8px; }
ul.clauses { list-style: none; padding: 0; margin: 0; }
ul.clauses > li { margin: 6px 0; }
details.clause { border: 1px solid var(--line); border-left: 5px solid var(--line); border-radius: 6px; background: var(--bg); }
details.clause.pass { border-left-color: var(--pass); }
details.clause.fail { border-left-color: var(--fail); }
details.clause.warn { border-left-color: var(--warn); }
details.clause.partial { border-left-color: var(--partial); }
details.clause.skip { border-left-color: var(--skip); }
details.clause.observe { border-left-color: var(--observe); }
details.clause.error { border-left-color: var(--error); }
details.clause > summary { cursor: pointer; padding: 8px 12px; display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: baseline; }
details.clause > summary::marker { color: var(--muted); }
details.clause[open] > summary { border-bottom: 1px solid var(--line); background: var(--panel); }
.mark { font-weight: 700; width: 1.2em; text-align: center; }
.mark.pass { color: var(--pass); } .mark.fail { color: var(--fail); } .mark.warn { color: var(--warn); } .mark.partial { color: var(--partial); }
.mark.skip { color: var(--skip); } .mark.observe { color: var(--observe); } .mark.error { color: var(--error); }
.badge { font-size: .72em; font-weight: 700; letter-spacing: .04em; padding: 1px 7px; border-radius: 4px; border: 1px solid; text-transform: uppercase; }
.level { font-size: .72em; font-weight: 700; padding: 1px 6px; border-radius: 4px; background: var(--panel); border: 1px solid var(--line); color: var(--muted); }
.level.MUST { color: var(--fg); }
.cid { font-weight: 600; }
.ctitle { flex: 1 1 20em; }
.ops { font-size: .8em; color: var(--muted); }
.clause-body { padding: 4px 14px 14px; }
blockquote.sentence { margin: 10px 0; padding: 6px 12px; border-left: 4px solid var(--line); color: var(--fg); background: var(--panel); font-style: italic; }
.check { margin: 14px 0 0; padding-top: 8px; border-top: 1px dashed var(--line); }
.check:first-of-type { border-top: 0; }
.check h4 { margin: 0 0 4px; font-size: 1em; display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.check h4 .judged { font-weight: 400; font-size: .85em; color: var(--muted); }
.ea, .http { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.ea .expected pre { border-color: var(--pass); background: #f3fbf5; }
.ea .actual pre { border-color: var(--fail); background: #fff6f5; }
.ea .expected h5 { color: var(--pass); } .ea .actual h5 { color: var(--fail); }
.curl-head { display: flex; gap: 10px; align-items: baseline; }
.failure { margin: 12px 0 0; padding-left: 10px; border-left: 3px solid var(--fail-bg); }
h5.on { color: var(--fg); text-transform: none; letter-spacing: 0; font-size: .9em; }
.ops-line code.failed { color: var(--fail); font-weight: 700; }
.ops-line code.warned { color: var(--warn); font-weight: 700; }
p.more { color: var(--muted); font-style: italic; }
.badge.known { color: var(--skip); background: var(--skip-bg); border-color: var(--skip); }
details.clause.known { border-left-style: dashed; }
p.known-note { margin: 10px 0; padding: 6px 12px; border: 1px dashed var(--skip); border-radius: 6px; background: var(--skip-bg); }
ul.passing-checks { margin: 8px 0 0; padding-left: 20px; color: var(--muted); }
p.note { margin: 8px 0; }
table.caps th, table.caps td { overflow-wrap: anywhere; }
table.caps td.value { font-family: var(--mono); font-weight: 600; }
ul.engine-errors { padding-left: 0; list-style: none; }
ul.engine-errors li { margin: 6px 0; }
ul.engine-errors pre { border-color: var(--error); background: var(--error-bg); }
footer { max-width: 1200px; margin: 40px auto 24px; padding: 0 24px; color: var(--muted); font-size: .85em; }
.empty { color: var(--muted); font-style: italic; }
@media (max-width: 760px) { .ea, .http { grid-template-columns: 1fr; } main, header.top, nav.toc { padding: 0 12px; } }
@media (max-width: 600px) { table.matrix { font-size: .76em; } table.matrix th, table.matrix td { padding: 3px 2px; } table.matrix td.n, table.matrix th.n { width: auto; } }
@media print {
  body { font-size: 11pt; }
  nav.toc, .tools, button.copy { display: none !important; }
  details::details-content { content-visibility: visible; display: block; }
  details.clause { break-inside: avoid-page; }
  pre { max-height: none; overflow: visible; }
  .verdict, table.matrix td, .chip, .badge { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

const SCRIPT = `
(function () {
  'use strict';
  function label(button, text) {
    button.textContent = text;
    setTimeout(function () { button.textContent = 'Copy'; }, 2000);
  }
  function fallbackCopy(el) {
    try {
      var range = document.createRange();
      range.selectNodeContents(el);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      return document.execCommand('copy');
    } catch (e) { return false; }
  }
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function (event) {
      event.preventDefault();
      var el = document.getElementById(button.getAttribute('data-copy'));
      if (!el) return;
      var text = el.textContent || '';
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { label(button, 'Copied'); },
          function () { label(button, fallbackCopy(el) ? 'Copied' : 'Select and copy'); });
      } else {
        label(button, fallbackCopy(el) ? 'Copied' : 'Select and copy');
      }
    });
  });
  var tools = document.getElementById('tools');
  if (tools) tools.hidden = false;
  function setAll(selector, open) {
    document.querySelectorAll(selector).forEach(function (d) { d.open = open; });
  }
  var expand = document.getElementById('expand-problems');
  if (expand) expand.addEventListener('click', function () { setAll('details.clause.fail, details.clause.error, details.clause.warn', true); });
  var all = document.getElementById('expand-all');
  if (all) all.addEventListener('click', function () { setAll('details.clause', true); });
  var none = document.getElementById('collapse-all');
  if (none) none.addEventListener('click', function () { setAll('details.clause', false); });
  var reopened = [];
  window.addEventListener('beforeprint', function () {
    reopened = Array.prototype.slice.call(document.querySelectorAll('details:not([open])'));
    reopened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () {
    reopened.forEach(function (d) { d.open = false; });
    reopened = [];
  });
  function openFromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (el && el.tagName === 'DETAILS') el.open = true;
  }
  window.addEventListener('hashchange', openFromHash);
  openFromHash();
})();
`;

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

/** Unique, attribute-safe element ids. */
class Ids {
  private readonly used = new Set<string>();
  make(prefix: string, raw: string): string {
    const base = `${prefix}-${raw.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'x'}`;
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}-${n}`;
    this.used.add(id);
    return id;
  }
}

function badge(outcome: Outcome): string {
  return `<span class="badge o-${outcome}">${OUTCOME_LABEL[outcome]}</span>`;
}

function mark(outcome: Outcome): string {
  return `<span class="mark ${outcome}" aria-hidden="true">${OUTCOME_MARK[outcome]}</span>`;
}

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
<h1><span class="word">${esc(ships ? 'Ships' : 'Does not ship')}</span>: ${esc(report.spec.title)} ${esc(report.spec.version)}</h1>
<p>${esc(judgedText(report))}</p>
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

function pre(text: string, id?: string): string {
  return `<pre${id ? ` id="${id}"` : ''}>${esc(text)}</pre>`;
}

function failureParts(report: RunReport, check: CheckResult, failure: FailureEvidence, ids: Ids): string[] {
  const parts: string[] = [];
  if (failure.expected !== undefined || failure.actual !== undefined) {
    parts.push(`<div class="ea">
<div class="expected"><h5>Expected</h5>${pre(failure.expected ?? '(not stated)')}</div>
<div class="actual"><h5>Actual</h5>${pre(failure.actual ?? '(not recorded)')}</div>
</div>`);
  }
  if (failure.counterexample !== undefined) {
    parts.push(`<h5>Counterexample (shrunk)</h5>${pre(failure.counterexample)}`);
  }
  const replay = replayText(failure);
  if (replay) {
    parts.push(`<h5>Replay</h5><p class="replay">${esc(replay)} · run <code>${esc(replayCommand(report))}</code></p>`);
  }
  if (failure.evidence) {
    parts.push(`<div class="http">
<div><h5>Request</h5>${pre(requestText(failure.evidence))}</div>
<div><h5>Response${failure.evidence.response?.bodyTruncated ? ' (body truncated)' : ''}</h5>${pre(responseText(failure.evidence))}</div>
</div>`);
    const curlId = ids.make('curl', `${check.clause}-${check.check}${failure.operation ? `-${failure.operation}` : ''}`);
    parts.push(
      `<div class="curl"><div class="curl-head"><h5>Reproduce (reads the key from <code>$API_KEY</code>)</h5><button type="button" class="copy" data-copy="${curlId}" hidden>Copy</button></div>${pre(failure.evidence.curl, curlId)}</div>`,
    );
  }
  return parts;
}

function checkBlock(report: RunReport, check: CheckResult, ids: Ids): string {
  const parts: string[] = [];
  parts.push(
    `<h4>${mark(check.outcome)}<code>${esc(check.check)}</code> ${badge(check.outcome)} <span class="judged">judged ${check.judged} exchange${check.judged === 1 ? '' : 's'}</span></h4>`,
  );
  if (check.note !== undefined) parts.push(`<p class="note"><strong>Note:</strong> ${esc(check.note)}</p>`);
  const failures = failuresOf(check);
  if (failures.length === 1) parts.push(...failureParts(report, check, failures[0]!, ids));
  else {
    for (const [i, failure] of failures.entries()) {
      const on = failure.operation ?? `failure ${i + 1}`;
      parts.push(`<div class="failure" data-operation="${esc(on)}"><h5 class="on">On <code>${esc(on)}</code> (${i + 1} of ${failures.length})</h5>
${failureParts(report, check, failure, ids).join('\n')}
</div>`);
    }
  }
  const more = moreFailuresText(check, ', not listed here (report.json and junit.xml hold the same list)');
  if (more) parts.push(`<p class="more">${esc(more)}</p>`);
  return `<div class="check ${check.outcome}" data-check="${esc(check.check)}">${parts.join('\n')}</div>`;
}

/** `Operations: a, b, c`, the failed (or warned) ones marked, and which failed (or warned). */
function operationsLine(clause: ClauseResult): string {
  const failed = problemOperations(clause.checks, 'failures');
  const warned = problemOperations(clause.checks, 'warnings').filter((o) => !failed.includes(o));
  const mark = (o: string) => (failed.includes(o) ? ' class="failed"' : warned.includes(o) ? ' class="warned"' : '');
  const listed = clause.operations.map((o) => `<code${mark(o)}>${esc(o)}</code>`);
  const tail = (verb: string, ops: string[]) => (ops.length > 0 ? ` · ${verb} ${ops.length}: ${ops.map((o) => `<code>${esc(o)}</code>`).join(', ')}` : '');
  return `<p class="ops-line">Operations: ${listed.join(', ')}${tail('failed on', failed)}${tail('warned on', warned)}</p>`;
}

function clauseItem(report: RunReport, clause: ClauseResult, id: string, ids: Ids): string {
  const notable = notableChecks(clause);
  const others = clause.checks.filter((c) => !notable.includes(c));
  const body: string[] = [];
  const known = clause.known !== undefined;
  if (clause.known) body.push(`<p class="known-note"><strong>Accepted by the baseline:</strong> ${esc(knownReason(clause.known))}</p>`);
  body.push(`<blockquote class="sentence">${esc(clause.sentence)}</blockquote>`);
  if (clause.operations.length > 0) body.push(operationsLine(clause));
  const shortfalls = shortfallLines(clause);
  if (shortfalls.length) body.push(`<h5>Not judged in full</h5><ul class="shortfalls">${shortfalls.map((line) => `<li>${esc(line)}</li>`).join('')}</ul>`);
  const judged = judgedPerOperation(clause);
  if (judged) body.push(`<p class="judged-line">Exchanges judged: ${esc(judged)}</p>`);
  for (const check of notable) body.push(checkBlock(report, check, ids));
  if (others.length > 0) {
    const items = others.map(
      (c) =>
        `<li>${mark(c.outcome)} <code>${esc(c.check)}</code> ${esc(OUTCOME_LABEL[c.outcome].toLowerCase())}, judged ${c.judged} exchange${c.judged === 1 ? '' : 's'}${c.note ? ` — ${esc(c.note)}` : ''}</li>`,
    );
    body.push(`<h5>Other checks</h5><ul class="passing-checks">${items.join('')}</ul>`);
  }
  if (clause.checks.length === 0) body.push(`<p class="empty">No check judged this clause.</p>`);
  const open = clause.outcome === 'fail' || clause.outcome === 'error' || clause.outcome === 'warn' || clause.outcome === 'partial' ? ' open' : '';
  // An OBSERVE clause observed would read "OBSERVE OBSERVE": the outcome badge says it once.
  const level = clause.level === 'OBSERVE' && clause.outcome === 'observe' ? '' : `<span class="level ${clause.level}">${clause.level}</span>`;
  return `<li><details class="clause ${clause.outcome}${known ? ' known' : ''}" id="${id}" data-clause="${esc(clause.id)}" data-outcome="${clause.outcome}"${open}>
<summary>${mark(clause.outcome)}${badge(clause.outcome)}${known ? '<span class="badge known">Known</span>' : ''}${level}<code class="cid">${esc(clause.id)}</code><span class="ctitle">${esc(clause.title)}</span>${clause.operations.length ? `<span class="ops">${esc(clause.operations.join(', '))}</span>` : ''}</summary>
<div class="clause-body">
${body.join('\n')}
</div>
</details></li>`;
}

function sectionBlock(report: RunReport, g: SectionGroup, sectionId: string, clauseIds: Map<ClauseResult, string>, ids: Ids): string {
  const counts = OUTCOMES.filter((o) => g.counts[o] > 0)
    .map((o) => `${g.counts[o]} ${OUTCOME_LABEL[o].toLowerCase()}`)
    .join(' · ');
  return `<section class="spec-section" id="${sectionId}" data-section="${esc(g.section)}">
<h2>${esc(g.label)}<span class="sec-counts">${esc(counts)}</span></h2>
<ul class="clauses">
${g.clauses.map((c) => clauseItem(report, c, clauseIds.get(c) ?? '', ids)).join('\n')}
</ul>
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
