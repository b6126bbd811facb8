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

  it('counts the clauses checked apart from those --only/--skip deselected', () => {
    const catalogue = loadClauses();
    const onlyOrders = collect(catalogue, [], (clause) => clause.section === '4.4');
    const report = makeReport({ clauses: onlyOrders.clauses, summary: onlyOrders.summary });
    const checked = catalogue.filter((clause) => clause.section === '4.4').length;
    expect(headline(renderHtml(report))).toBe(
      `${checked} clauses checked against ${report.target.baseUrl}; ${catalogue.length - checked} deselected by --only/--skip`,
    );
    expect(headline(renderHtml(makeReport()))).toBe(`${makeReport().clauses.length} clauses checked against ${makeReport().target.baseUrl}`);
  });
});
