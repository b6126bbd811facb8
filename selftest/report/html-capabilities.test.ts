import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.ts';
import { makeReport } from './fixture.ts';

const table = (html: string) => /<table class="caps">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
const columns = (html: string) => [...table(html).matchAll(/<th scope="col">(.*?)<\/th>/g)].map((m) => m[1]);

describe('report.html capability profile', () => {
  it('has a Detail column only when some capability has a detail, and shows it', () => {
    const withDetail = renderHtml(makeReport());
    expect(columns(withDetail)).toEqual(['Capability', 'Seen', 'Detail']);
    expect(table(withDetail)).toContain('<td>returns 200 and more than 100 items</td>');

    const bare = makeReport();
    bare.capabilities = bare.capabilities.map(({ id, title, value }) => ({ id, title, value }));
    expect(columns(renderHtml(bare))).toEqual(['Capability', 'Seen']);
    expect(table(renderHtml(bare))).not.toMatch(/<td><\/td>/);
  });
});
