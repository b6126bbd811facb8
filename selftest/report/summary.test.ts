import { describe, expect, it } from 'vitest';
import { renderSummary, SUMMARY_MAX_FAILURES } from '../../src/report/summary.ts';
import { clauseIn, AUTH_HOLES, makeKnownFailureReport, makeManyFailures, makeMultiFailureReport, makeMultiWarningReport, makeReport, NO_CHALLENGE } from './fixture.ts';
import { hasLoneSurrogate, poison } from './helpers.ts';

/** The text of every code span on a line, read back as CommonMark does (one space stripped each side when both are there). */
function codeSpans(line: string): string[] {
  return [...line.matchAll(/(`+)(.+?)(?<!`)\1(?!`)/g)].map(([, , raw]) => {
    const text = raw!.replace(/\\\|/g, '|');
    return /^ .* $/.test(text) && /[^ ]/.test(text) ? text.slice(1, -1) : text;
  });
}

describe('renderSummary', () => {
  const md = renderSummary(makeReport());

  it('starts with the verdict line', () => {
    expect(md.split('\n')[0]).toBe('## ❌ Animal Store Service Specification 1.0.0: **does not ship**');
    expect(renderSummary(makeReport({ verdict: 'pass', exitCode: 0 })).split('\n')[0]).toContain('✅');
  });

  it('says what the verdicts rest on besides first answers: 503s and lost connections sent again, a target serving one connection at a time', () => {
    expect(md).not.toContain('**Sent again:**');
    const traffic = { requests: 900, rateLimited: 0, unavailable: 0, retryAfter: 0, overloaded: 170, resent: 1, servedConnections: 1 };
    const line = renderSummary(makeReport({ traffic })).split('\n').find((text) => text.startsWith('> **Sent again:**'));
    expect(line).toBe(
      '> **Sent again:** 170 requests answered 503 without Retry-After, as a gateway limiting load answers, were sent again with fewer in flight or after a wait, and judged on what came then; 1 request was sent once more after a connection lost under it (a close the request may have crossed) or a 408; the target seemed to serve one connection at a time, and the run held to that.',
    );
  });

  it('has a counts table by section with a total row', () => {
    expect(md).toContain('| Section | Pass | Fail | Warn | Partial | Skip | Observe | Error |');
    expect(md).toContain('| §4.1 List animals: GET /pets | 2 | 0 | 0 | 0 | 0 | 1 | 0 |');
    expect(md).toContain('| §8 Limits | 1 | **1** | 0 | 0 | 0 | 0 | 0 |');
    expect(md).toContain('| §5 Authentication | 0 | 0 | 0 | 0 | 0 | 0 | **1** |');
    expect(md).toContain('| **Total** | **6** | **2** | **1** | **0** | **2** | **1** | **1** |');
  });

  it('lists each failure on one line with clause id (its only name), section, expected and actual', () => {
    const lines = md.split('\n');
    const limit = lines.find((l) => l.includes('list.limit-max'));
    expect(limit).toBe(
      '- **`list.limit-max`** (§8, MUST): expected `400 with an Error body (limit=101 is above the maximum 100)` · actual `200 with 101 animals, no Error body` (seed 1234567, path "14:2:0")',
    );
    expect(lines.find((l) => l.includes('create.invalid-400'))).toContain('actual `201 Created, animal stored with categoryId null`');
    expect(lines.find((l) => l.includes('auth.required'))).toContain('engine error');
    expect(md).toContain('### Failures (3)');
    expect(md).toContain('### Warnings (1)');
    expect(md).toContain('Replay: `npx animal-store-conformance --seed 1234567 --runs 100`');
  });

  it('keeps the whitespace of a value exact in its code span (a trimmed name stays visible)', () => {
    const r = makeReport();
    Object.assign(clauseIn(r, 'list.limit-max').checks[0]!, { expected: 'name = "  padded name  "', actual: '  leading and trailing  ' });
    const line = renderSummary(r).split('\n').find((l) => l.includes('list.limit-max'))!;
    expect(codeSpans(line)).toContain('name = "  padded name  "');
    expect(codeSpans(line)).toContain('  leading and trailing  ');
  });

  it('gives every operation a check failed on its own line', () => {
    const r = makeMultiFailureReport();
    const lines = renderSummary(r).split('\n');
    const auth = lines.filter((l) => l.startsWith('- **`auth.required`**'));
    expect(auth).toEqual([
      `- **\`auth.required\`** (§5, MUST) on \`createPet\`: expected \`${AUTH_HOLES.createPet.expected}\` · actual \`${AUTH_HOLES.createPet.actual}\` (seed 1234567, path "0:0")`,
      `- **\`auth.required\`** (§5, MUST) on \`sendMessage\`: expected \`${AUTH_HOLES.sendMessage.expected}\` · actual \`${AUTH_HOLES.sendMessage.actual}\` (seed 1234567, path "0:1")`,
    ]);
    // One clause failed on two operations: the heading counts both, and the clauses apart.
    expect(lines).toContain('### Failures (4, on 3 clauses)');
    r.clauses.find((c) => c.id === 'auth.required')!.checks[0]!.moreFailures = 2;
    expect(renderSummary(r)).toContain('- **`auth.required`**: _…and 2 more operations it failed on; report.html and junit.xml list those shown_');
  });

  it('gives every operation a check warned on its own line, as it does a failure', () => {
    const r = makeMultiWarningReport();
    const md = renderSummary(r);
    const warnings = md.slice(md.indexOf('### Warnings'), md.indexOf('### Engine errors'));
    expect(warnings.split('\n').filter((l) => l.startsWith('- **`auth.www-authenticate`**'))).toEqual([
      `- **\`auth.www-authenticate\`** (§5, SHOULD) on \`listPets\`: expected \`${NO_CHALLENGE.listPets.expected}\` · actual \`${NO_CHALLENGE.listPets.actual}\``,
      `- **\`auth.www-authenticate\`** (§5, SHOULD) on \`sendMessage\`: expected \`${NO_CHALLENGE.sendMessage.expected}\` · actual \`${NO_CHALLENGE.sendMessage.actual}\``,
    ]);
    expect(md).toContain('### Warnings (3)');
    r.clauses.find((c) => c.id === 'auth.www-authenticate')!.checks[0]!.moreWarnings = 2;
    expect(renderSummary(r)).toContain('- **`auth.www-authenticate`**: _…and 2 more operations it warned on; report.html and junit.xml list those shown_');
  });

  it('says how many MUST clauses were not checked, and that a SHIPS verdict does not vouch for them, and lists them with the reason', () => {
    const ships = renderSummary(makeReport({ verdict: 'pass', exitCode: 0 }));
    const lines = ships.split('\n');
    expect(lines.slice(0, 8)).toContain('> **Note:** 1 MUST clause was not checked in this run: the SHIPS verdict does not vouch for it (see "MUST clauses not checked" below).');
    const section = ships.slice(ships.indexOf('### MUST clauses not checked (1)'));
    expect(section).toContain('- **`messages.status-queued`** (§4.5) The initial status is queued: messages base URL not reachable in this environment');
    expect(section).not.toContain('orders.access'); // an OBSERVE clause
    expect(md).toContain('> **Note:** 1 MUST clause was not checked in this run (see "MUST clauses not checked" below).');
    const all = makeReport({ verdict: 'pass', exitCode: 0 });
    all.clauses = all.clauses.filter((c) => c.id !== 'messages.status-queued');
    expect(renderSummary(all)).not.toMatch(/not checked/);
  });

  it('lists failures the baseline accepts apart, with the reason and expiry', () => {
    const md = renderSummary(makeKnownFailureReport());
    const failures = md.slice(md.indexOf('### Failures'), md.indexOf('### Known failures'));
    expect(md).toContain('### Failures (2)');
    expect(failures).not.toContain('list.limit-max');
    const known = md.slice(md.indexOf('### Known failures (accepted by the baseline) (1)'), md.indexOf('### Warnings'));
    // One line for the clause: its failure, then the entry's reason and expiry.
    expect(known.split('\n').filter((l) => l.includes('list.limit-max'))).toEqual([
      '- **`list.limit-max`** (§8, MUST): expected `400 with an Error body (limit=101 is above the maximum 100)` · actual `200 with 101 animals, no Error body` (seed 1234567, path "14:2:0") — accepted by the baseline: clamps (PETS-123) &lt;b&gt; (expires 2025-06-30)',
    ]);
    const twice = makeMultiFailureReport();
    twice.clauses.find((c) => c.id === 'auth.required')!.known = { reason: 'ticket 9' };
    const accepted = renderSummary(twice);
    const lines = accepted.slice(accepted.indexOf('### Known failures')).split('\n').filter((l) => l.includes('auth.required'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^- \*\*`auth\.required`\*\* \(§5, MUST\) on `createPet`: .* · 1 more in report\.html — accepted by the baseline: ticket 9$/);
    expect(md).toMatch(/\*\*13 clauses:\*\* [^\n]*2 fail[^\n]*· 1 failure accepted by the baseline/);
    const allKnown = makeKnownFailureReport();
    allKnown.clauses = allKnown.clauses.filter((c) => c.id !== 'create.invalid-400' && c.id !== 'auth.required');
    const shipped = renderSummary({ ...allKnown, verdict: 'pass', exitCode: 0 });
    expect(shipped).not.toContain('### Failures');
    expect(shipped).toContain('### Known failures (accepted by the baseline) (1)');
  });

  it('is cut politely after ~30 failures', () => {
    const many = renderSummary(makeManyFailures(45));
    const items = many.split('\n').filter((l) => l.startsWith('- **`'));
    expect(items.length).toBe(SUMMARY_MAX_FAILURES);
    expect(many).toContain('### Failures (45)');
    expect(many).toContain('…and 15 more failures not shown here; the HTML report and junit.xml list them all.');
    expect(many.length).toBeLessThan(12_000);
  });

  it('cannot be broken by hostile text (code spans are fenced, no raw HTML, one line per item)', () => {
    const r = makeReport();
    clauseIn(r, 'list.limit-max').checks[0]!.actual = 'got `<script>` | and ``` fences\nand a second line';
    const out = renderSummary(r);
    const line = out.split('\n').find((l) => l.includes('list.limit-max'))!;
    expect(line).toContain('actual ````got `<script>` \\| and ``` fences\\nand a second line````');
    const poisoned = renderSummary(poison(makeReport(), 5));
    expect(hasLoneSurrogate(poisoned)).toBe(false);
    expect(poisoned).not.toContain('\u0000');
  });
});
