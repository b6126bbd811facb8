/**
 * report.html's clause blocks, by section: the sentence, the operations, and the evidence of the
 * clause's check (named by the clause's id, so it shows no name of its own).
 */
import { failuresOf, problemOperations } from '../failures.ts';
import { OUTCOME_LABEL, judgedPerOperation, judgedPhrase, knownReason, moreFailuresText, replayCommand, replayText, shortfallLines } from '../format.ts';
import { OUTCOMES, notableChecks, type SectionGroup } from '../grouping.ts';
import type { CheckResult, ClauseResult, FailureEvidence, RunReport } from '../model.ts';
import { requestText, responseText, storyLines } from '../detail.ts';
import { badge, esc, mark, pre, type Ids } from './markup.ts';

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
  if (failure.story) {
    const [title, ...steps] = storyLines(failure.story);
    parts.push(`<h5>${esc(title!)}</h5>${pre(steps.join('\n'))}`);
    const scriptId = ids.make('story', check.clause);
    parts.push(
      `<div class="curl"><div class="curl-head"><h5>Replay the story (reads the key from <code>$API_KEY</code>; the ids are those this run was given${failure.story.script ? `; as a script: <code>${esc(failure.story.script)}</code> beside this report` : ''})</h5><button type="button" class="copy" data-copy="${scriptId}" hidden>Copy</button></div>${pre(failure.story.curl.join('\n'), scriptId)}</div>`,
    );
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
    const curlId = ids.make('curl', `${check.clause}${failure.operation ? `-${failure.operation}` : ''}`);
    parts.push(
      `<div class="curl"><div class="curl-head"><h5>${failure.story ? 'The last step alone' : 'Reproduce'} (reads the key from <code>$API_KEY</code>)</h5><button type="button" class="copy" data-copy="${curlId}" hidden>Copy</button></div>${pre(failure.evidence.curl, curlId)}</div>`,
    );
  }
  return parts;
}

function checkBlock(report: RunReport, check: CheckResult, ids: Ids): string {
  const parts: string[] = [];
  parts.push(
    `<h4>${mark(check.outcome)}${badge(check.outcome)} <span class="judged">${judgedPhrase(check.judged)}</span></h4>`,
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
  return `<div class="check ${check.outcome}">${parts.join('\n')}</div>`;
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
  if (clause.basis) body.push(`<p class="basis">Basis: ${esc(clause.basis)}</p>`);
  if (clause.operations.length > 0) body.push(operationsLine(clause));
  const shortfalls = shortfallLines(clause);
  if (shortfalls.length) body.push(`<h5>Not judged in full</h5><ul class="shortfalls">${shortfalls.map((line) => `<li>${esc(line)}</li>`).join('')}</ul>`);
  const judged = judgedPerOperation(clause);
  if (judged) body.push(`<p class="judged-line">Exchanges judged: ${esc(judged)}</p>`);
  for (const check of notable) body.push(checkBlock(report, check, ids));
  for (const c of others) {
    body.push(`<p class="check-line">${mark(c.outcome)} ${esc(OUTCOME_LABEL[c.outcome].toLowerCase())}, ${judgedPhrase(c.judged)}${c.note ? ` — ${esc(c.note)}` : ''}</p>`);
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

export function sectionBlock(report: RunReport, g: SectionGroup, sectionId: string, clauseIds: Map<ClauseResult, string>, ids: Ids): string {
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
