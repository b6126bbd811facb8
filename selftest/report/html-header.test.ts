import { describe, expect, it } from 'vitest';
import { loadClauses } from '../../src/contract/clauses.ts';
import { renderHtml } from '../../src/report/html.ts';
import { collect } from '../../src/run/collect.ts';
import { makeReport } from './fixture.ts';

const field = (html: string, term: string) => new RegExp(`<dt>${term}</dt><dd[^>]*>(.*?)</dd>`).exec(html)?.[1];
const headline = (html: string) => /<div class="verdict[^>]*>\s*<h1>.*?<\/h1>\s*<p>(.*?)<\/p>/s.exec(html)?.[1];

describe('report.html header', () => {
  it('says the messages target is not configured when no message host was set', () => {
    expect(field(renderHtml(makeReport()), 'Messages target')).toMatch(/^<code>https:\/\//);
    const without = makeReport();
    without.target.messagesBaseUrl = '';
    expect(field(renderHtml(without), 'Messages target')).toBe('not configured (message checks skipped)');
  });

  it('says at the top, beside the verdict, that an embedded-server run checked no deployment', () => {
    const embedded = makeReport();
    embedded.target.embedded = true;
    expect(renderHtml(embedded)).toMatch(/<div class="verdict[^>]*>[\s\S]*<p class="embedded"><strong>The embedded reference server, not a deployment:<\/strong>[\s\S]*<\/div>\s*<dl class="meta">/);
    expect(renderHtml(makeReport())).not.toContain('class="embedded"');
  });

  it('counts the clauses judged (passed, failed or warned), not those skipped, apart from those --only/--skip deselected', () => {
    const catalogue = loadClauses();
    const onlyOrders = collect(catalogue, [], { isSelected: (clause) => clause.section === '4.4', leftOut: new Map(), enumValues: () => [] });
    const report = makeReport({ clauses: onlyOrders.clauses, summary: onlyOrders.summary });
    const selected = catalogue.filter((clause) => clause.section === '4.4').length;
    expect(headline(renderHtml(report))).toBe(
      `0 of ${selected} clauses judged against ${report.target.baseUrl} (${selected} skipped); ${catalogue.length - selected} deselected by --only/--skip`,
    );
    // The fixture: 6 pass, 2 fail, 1 warn, 1 observe, 2 skip, 1 error.
    expect(headline(renderHtml(makeReport()))).toBe(`9 of 13 clauses judged against ${makeReport().target.baseUrl} (1 observed, 2 skipped, 1 errored)`);
  });

  it('says how many MUST clauses were not checked, and that a SHIPS verdict does not vouch for them, each linked', () => {
    const ships = makeReport({ verdict: 'pass', exitCode: 0 });
    const html = renderHtml(ships);
    const verdict = html.slice(html.indexOf('<div class="verdict'), html.indexOf('</div>', html.indexOf('<div class="verdict')));
    expect(verdict).toContain('<span class="word">Ships</span>');
    // The fixture skips one MUST clause (messages.status-queued) and one OBSERVE clause.
    expect(verdict).toContain(
      '<p class="unchecked" id="unchecked-must"><strong>1 MUST clause was not checked in this run: the SHIPS verdict does not vouch for it</strong> (each says why below): <a href="#clause-messages-status-queued"><code>messages.status-queued</code></a></p>',
    );
    const more = makeReport({ verdict: 'pass', exitCode: 0 });
    more.clauses.find((c) => c.id === 'list.limit-default')!.outcome = 'skip';
    expect(renderHtml(more)).toContain('<strong>2 MUST clauses were not checked in this run: the SHIPS verdict does not vouch for them</strong>');
    expect(renderHtml(makeReport())).toContain('<strong>1 MUST clause was not checked in this run</strong>');
    const all = makeReport({ verdict: 'pass', exitCode: 0 });
    all.clauses = all.clauses.filter((c) => !(c.level === 'MUST' && c.outcome === 'skip'));
    expect(renderHtml(all)).not.toContain('class="unchecked"');
  });

  it('names, at the top of a build that does not ship, the clauses that fail the gate, each linked; warnings among them under --fail-on should', () => {
    const failing = (report: ReturnType<typeof makeReport>) => /<p class="failing" id="failing-clauses">(.*?)<\/p>/.exec(renderHtml(report))?.[1];
    // The fixture: 2 fail and 1 error (gating), 1 warn.
    const must = failing(makeReport())!;
    expect(must).toMatch(/^<strong>Failing the gate \(3\):<\/strong> /);
    expect(must).toContain('<a href="#clause-list-limit-max"><code>list.limit-max</code></a> (§8 MUST)');
    expect(must).not.toContain('create.location');
    expect(failing(makeReport({ failOn: 'should' }))).toMatch(/^<strong>Failing the gate \(4\):<\/strong> .*create\.location/);
    expect(failing(makeReport({ verdict: 'pass', exitCode: 0 }))).toBeUndefined();
  });
});
