import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.ts';
import { AUTH_HOLES, HOSTILE_MARKERS, makeKnownFailureReport, makeMultiFailureReport, makeMultiWarningReport, makeReport, NO_CHALLENGE } from './fixture.ts';
import { hasLoneSurrogate, poison } from './helpers.ts';

describe('renderHtml (static checks; the browser test is html.browser.test.ts)', () => {
  const html = renderHtml(makeReport());

  it('is self-contained: no external resource of any kind', () => {
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/<[^>]*\ssrc\s*=/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).not.toMatch(/<[^>]*\shref="(?!#)/i);
    expect(html).not.toMatch(/<iframe|<object|<embed|<img/i);
    expect([...html.matchAll(/<script>/g)].length).toBe(1);
  });

  it('forbids the network with a CSP that allows only its own style and script by hash', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(csp).toBeDefined();
    expect(csp).toContain("default-src 'none'");
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64');
    expect(csp).toContain(`style-src 'sha256-${hash(style)}'`);
    expect(csp).toContain(`script-src 'sha256-${hash(script)}'`);
  });

  it('escapes hostile server bodies', () => {
    expect(html).not.toContain(HOSTILE_MARKERS.script);
    expect(html).not.toContain(HOSTILE_MARKERS.img);
    expect(html).toContain('&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt;');
    expect(html).toContain('Rex&lt;/pre&gt;&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('\u0000');
    expect(html).not.toContain('\u001b');
    expect(hasLoneSurrogate(html)).toBe(false);
  });

  it('escapes hostile strings in every field', () => {
    const out = renderHtml(poison(makeReport(), 11));
    // The only tags are ours: every "<" starts a known element or closing tag.
    const tags = new Set([...out.matchAll(/<\/?([a-zA-Z0-9!]+)/g)].map((m) => m[1]!.toLowerCase()));
    const allowed = new Set(['!doctype', 'html', 'head', 'meta', 'title', 'style', 'body', 'header', 'div', 'h1', 'h2', 'h4', 'h5', 'p', 'ul', 'li', 'code', 'dl', 'dt', 'dd', 'strong', 'time', 'nav', 'a', 'main', 'section', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'span', 'details', 'summary', 'blockquote', 'pre', 'button', 'br', 'footer', 'script']);
    expect([...tags].filter((t) => !allowed.has(t))).toEqual([]);
    expect(hasLoneSurrogate(out)).toBe(false);
  });

  it('starts failing, erroring and warning clauses open, the others closed', () => {
    const tags = [...html.matchAll(/<details class="clause [^"]*"[^>]*>/g)].map((m) => m[0]);
    const opened = tags.filter((t) => / open(?=[ >])/.test(t)).map((t) => /data-clause="([^"]*)"/.exec(t)?.[1]);
    expect(opened).toEqual(['create.invalid-400', 'create.location', 'auth.required', 'list.limit-max']);
    expect(tags.length).toBe(makeReport().clauses.length);
  });

  it('shows the evidence of every operation a check failed on, and which operations failed', () => {
    const r = makeMultiFailureReport();
    r.clauses.find((c) => c.id === 'auth.required')!.checks[0]!.moreFailures = 2;
    const out = renderHtml(r);
    const start = out.indexOf('data-clause="auth.required"');
    const clause = out.slice(start, out.indexOf('</details>', start));
    expect(clause).toContain('Operations: <code>listPets</code>, <code class="failed">createPet</code>, <code>getPet</code>, <code>listStoreOrders</code>, <code class="failed">sendMessage</code> · failed on 2: <code>createPet</code>, <code>sendMessage</code>');
    for (const hole of [AUTH_HOLES.createPet, AUTH_HOLES.sendMessage]) {
      const at = clause.indexOf(`data-operation="${hole.operation}"`);
      expect(at, hole.operation).toBeGreaterThan(0);
      const block = clause.slice(at);
      expect(block).toContain(hole.actual.replace(/"/g, '&quot;'));
      expect(block).toContain(hole.evidence.request.url);
      expect(block).toContain(hole.counterexample.replace(/"/g, '&quot;'));
    }
    expect([...clause.matchAll(/<pre id="curl-/g)].length).toBe(2);
    expect(clause).toContain('…and 2 more operations it failed on, not listed here');
    // Named once, by its id (the data-clause attribute and the summary): the check shows no name of its own.
    expect(clause.match(/auth\.required/g)).toHaveLength(2);
    expect(clause).toContain('<h4><span class="mark fail" aria-hidden="true">✖</span><span class="badge o-fail">Fail</span> <span class="judged">judged 40 exchanges</span></h4>');
    expect(out).not.toContain('data-check');
    const tags = new Set([...renderHtml(poison(makeMultiFailureReport(), 3)).matchAll(/<\/?([a-zA-Z0-9!]+)/g)].map((m) => m[1]!.toLowerCase()));
    expect(tags.has('img')).toBe(false);
  });

  it('shows the evidence of every operation a check warned on, and which operations warned', () => {
    const r = makeMultiWarningReport();
    r.clauses.find((c) => c.id === 'auth.www-authenticate')!.checks[0]!.moreWarnings = 2;
    const out = renderHtml(r);
    const start = out.indexOf('data-clause="auth.www-authenticate"');
    const clause = out.slice(start, out.indexOf('</details>', start));
    expect(out.slice(start - 200, start)).toMatch(/<details class="clause warn" id="[^"]*" $/);
    expect(clause).toContain('Operations: <code class="warned">listPets</code>, <code>createPet</code>, <code>getPet</code>, <code>listStoreOrders</code>, <code class="warned">sendMessage</code> · warned on 2: <code>listPets</code>, <code>sendMessage</code>');
    for (const missing of [NO_CHALLENGE.listPets, NO_CHALLENGE.sendMessage]) {
      const at = clause.indexOf(`data-operation="${missing.operation}"`);
      expect(at, missing.operation).toBeGreaterThan(0);
      const block = clause.slice(at);
      expect(block).toContain(missing.actual);
      expect(block).toContain(missing.evidence.request.url);
    }
    expect([...clause.matchAll(/<pre id="curl-/g)].length).toBe(2);
    expect(clause).toContain('…and 2 more operations it warned on, not listed here');
  });

  it('marks a failure the baseline accepts as known, with the reason', () => {
    const out = renderHtml(makeKnownFailureReport());
    const start = out.indexOf('<li><details class="clause fail known"');
    expect(start).toBeGreaterThan(0);
    const clause = out.slice(start, out.indexOf('</details>', start));
    expect(clause).toContain('data-clause="list.limit-max"');
    expect(clause).toContain('<span class="badge known">Known</span>');
    expect(clause).toContain('<p class="known-note"><strong>Accepted by the baseline:</strong> clamps (PETS-123) &lt;b&gt; (expires 2025-06-30)</p>');
    expect(out).toContain('1 failing clause accepted by the baseline (known): <a href="#clause-list-limit-max"><code>list.limit-max</code></a>');
    expect([...out.matchAll(/class="clause fail known"/g)].length).toBe(1);
  });

  it('has the verdict, the metadata, the matrix, capabilities and engine errors', () => {
    expect(html).toContain('<span class="word">Does not ship</span>');
    for (const s of ['https://api.example.test/v1', '1.0.0', '1234567', '48.3 s', '2025-06-01T09:30:00.000Z', 'Conformance matrix by spec section', 'Capability profile', 'Engine errors (1)']) {
      expect(html).toContain(s);
    }
    expect(renderHtml(makeReport({ verdict: 'pass', exitCode: 0 }))).toContain('<span class="word">Ships</span>');
    // A passing clause tells how much its check judged, under no name of its own.
    expect(html).toContain('<p class="check-line"><span class="mark pass" aria-hidden="true">✔</span> pass, judged 142 exchanges</p>');
  });
});
