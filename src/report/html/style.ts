/**
 * report.html's stylesheet: inline in the page, allowed by its hash in the page's
 * Content-Security-Policy, so it must be one constant string.
 */
export const CSS = `
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
p.basis { margin: -4px 0 10px; padding: 0 16px; color: var(--muted); font-size: 0.92em; }
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
p.check-line { margin: 8px 0 0; color: var(--muted); }
p.note { margin: 8px 0; }
table.caps th[scope="row"] { width: 22%; min-width: 12em; overflow-wrap: break-word; }
table.caps td { overflow-wrap: anywhere; }
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
