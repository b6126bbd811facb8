import { describe, expect, it } from 'vitest';
import { renderTerminal } from '../../src/report/terminal.ts';
import { clauseIn, AUTH_HOLES, makeKnownFailureReport, makeMultiFailureReport, makeMultiWarningReport, makeReport, NO_CHALLENGE } from './fixture.ts';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

describe('renderTerminal', () => {
  const plain = renderTerminal(makeReport(), { color: false });

  it('groups by section with h2spec-style marks', () => {
    expect(plain).toContain('§4.1 List animals: GET /pets (3 clauses)');
    expect(plain).toContain('  ✔ list.200-pets A listing is an array of Pet [MUST]');
    expect(plain).toContain('  ✖ list.limit-max Never more than 100 animals, whatever limit says [MUST]');
    expect(plain).toContain('  ⚠ create.location A 201 names the created resource in Location [SHOULD]');
    expect(plain).toContain('  ○ messages.status-queued The initial status is queued [MUST] — messages base URL not reachable in this environment');
    expect(plain).toContain('  ℹ list.invalid-query-handling How out-of-range query values are handled (the responses list no status for them) [OBSERVE] — limit=0 is refused with 400; limit=101 is taken');
    expect(plain).toContain('  ‼ auth.required A missing or invalid key gives 401 [MUST]');
    expect(plain.indexOf('§2.1')).toBeLessThan(plain.indexOf('§4.1'));
    expect(plain.indexOf('§4.5')).toBeLessThan(plain.indexOf('§5 '));
  });

  it('prints the sentence, Expected, Actual, counterexample and curl for failures and warnings', () => {
    const lines = plain.split('\n');
    const at = lines.findIndex((l) => l.includes('✖ list.limit-max'));
    const block = lines.slice(at, at + 10).join('\n');
    expect(block).toContain('"`limit` query parameter | `GET /pets` | Default 20, minimum 1, maximum 100."');
    expect(block).toContain('Expected:       400 with an Error body (limit=101 is above the maximum 100)');
    expect(block).toContain('Actual:         200 with 101 animals, no Error body');
    expect(block).toContain('Counterexample: {"limit":101}');
    expect(block).toContain('Replay:         seed 1234567, path "14:2:0"');
    expect(block).toContain(`Reproduce:      curl -sS -X GET 'https://api.example.test/v1/pets?limit=101' -H "Authorization: Bearer $API_KEY"`);
    const warn = lines.findIndex((l) => l.includes('⚠ create.location'));
    expect(lines.slice(warn, warn + 5).join('\n')).toContain('Actual:         201 without a Location header');
  });

  it('prints the evidence of every operation a check failed on', () => {
    const r = makeMultiFailureReport();
    r.clauses.find((c) => c.id === 'auth.required')!.checks[0]!.moreFailures = 2;
    const out = renderTerminal(r, { color: false });
    const block = out.slice(out.indexOf('✖ auth.required'), out.indexOf('§7 '));
    expect(block).toContain('Failed on:      createPet, sendMessage');
    for (const hole of [AUTH_HOLES.createPet, AUTH_HOLES.sendMessage]) {
      expect(block).toContain(`on ${hole.operation}`);
      expect(block).toContain(`Actual:         ${hole.actual}`);
      expect(block).toContain(`Reproduce:      ${hole.evidence.curl}`);
    }
    expect(block.indexOf('on createPet')).toBeLessThan(block.indexOf('on sendMessage'));
    // The clause is named once, by its id: its check has no name of its own.
    expect(block.match(/auth\.required/g)).toHaveLength(1);
    expect(block).toContain('…and 2 more operations it failed on (report.json lists those shown)');
  });

  it('prints the evidence of every operation a check warned on', () => {
    const r = makeMultiWarningReport();
    r.clauses.find((c) => c.id === 'auth.www-authenticate')!.checks[0]!.moreWarnings = 1;
    const out = renderTerminal(r, { color: false });
    const block = out.slice(out.indexOf('⚠ auth.www-authenticate'), out.indexOf('§7 '));
    expect(block).toContain('Warned on:      listPets, sendMessage');
    // The quote is RFC 9110's MUST; the basis beside it says why this run only warns.
    expect(block).toMatch(/^ {6}"A server generating a 401 \(Unauthorized\) response MUST send[^\n]*"\n {6}Basis: RFC 9110 §15\.5\.2 \(a warning here, since the service spec does not restate it\)$/m);
    for (const missing of [NO_CHALLENGE.listPets, NO_CHALLENGE.sendMessage]) {
      expect(block).toContain(`on ${missing.operation}`);
      expect(block).toContain(`Actual:         ${missing.actual}`);
      expect(block).toContain(`Reproduce:      ${missing.evidence.curl}`);
    }
    expect(block).toContain('…and 1 more operation it warned on (report.json lists those shown)');
  });

  it('marks a failure the baseline accepts as known', () => {
    const out = renderTerminal(makeKnownFailureReport(), { color: false });
    expect(out).toContain('  ✖ list.limit-max Never more than 100 animals, whatever limit says [MUST] — known, accepted by the baseline: clamps (PETS-123) <b> (expires 2025-06-30)');
    expect(out).toContain('  ✖ create.invalid-400 An invalid NewPet is refused with 400 (its Error body judged by errors.shape) [MUST]\n');
  });

  it('says a run that could not judge (exit 3) or that the engine broke under (exit 4) does not ship, without calling it a failure', () => {
    const verdictLine = (exitCode: number) => renderTerminal(makeReport({ verdict: 'fail', exitCode, summary: { ...makeReport().summary, fail: 0 } }), { color: false }).split('\n').find((l) => l.startsWith('Verdict:'));
    expect(verdictLine(3)).toBe('Verdict: CANNOT VOUCH (--fail-on must, exit code 3)');
    expect(verdictLine(4)).toBe('Verdict: NO VERDICT: THE ENGINE BROKE (--fail-on must, exit code 4)');
    expect(verdictLine(1)).toBe('Verdict: DOES NOT SHIP (--fail-on must, exit code 1)');
  });

  it('ends with counts, verdict, seed and the replay command', () => {
    expect(plain).toContain('Verdict: DOES NOT SHIP (--fail-on must, exit code 1)');
    expect(plain).toContain('13 clauses: 6 passed, 2 failed, 1 warned, 2 skipped, 1 observed, 1 errored; 1 engine error');
    expect(plain).toContain('Seed 1234567 · runs 100 · 48.3 s');
    expect(plain.trimEnd().split('\n').at(-1)).toBe('Replay: npx animal-store-conformance --seed 1234567 --runs 100');
    expect(plain).toContain('Engine errors (1)');
  });

  it('says, beside counts that show no failure, that with --fail-on should the warnings fail the run', () => {
    const counts = (report: ReturnType<typeof makeReport>) => renderTerminal(report, { color: false }).split('\n').find((l) => /^\d+ clauses: /.test(l));
    const shouldGate = makeReport({ failOn: 'should', summary: { ...makeReport().summary, fail: 0, warn: 1 } });
    expect(counts(shouldGate)).toMatch(/1 warned.* \(with --fail-on should, the warnings fail the run\)/);
    expect(counts(makeReport({ summary: { ...makeReport().summary, warn: 1 } }))).not.toMatch(/--fail-on/);
    expect(counts(makeReport({ failOn: 'should', summary: { ...makeReport().summary, warn: 0 } }))).not.toMatch(/--fail-on/);
  });

  it('names the requests kept in flight only where they differ from the usual depth the caller gives', () => {
    const r = makeReport({ pipeline: { depth: 8, roundTripMs: 42.4 } });
    expect(renderTerminal(r, { color: false, usualPipelineDepth: 2 })).toContain('Seed 1234567 · runs 100 · 48.3 s · 8 requests in flight (round trip 42 ms)');
    expect(renderTerminal(r, { color: false, usualPipelineDepth: 8 })).not.toMatch(/in flight/);
    expect(renderTerminal(r, { color: false })).not.toMatch(/in flight/);
    const one = makeReport({ pipeline: { depth: 1, roundTripMs: 0.7 } });
    expect(renderTerminal(one, { color: false, usualPipelineDepth: 4 })).toContain('Seed 1234567 · runs 100 · 48.3 s · 1 request in flight (round trip 1 ms)');
  });

  it('says when the scenarios ran side by side', () => {
    const far = makeReport({ pipeline: { depth: 8, roundTripMs: 42.4, schedule: 'concurrent' } });
    expect(renderTerminal(far, { color: false, usualPipelineDepth: 4 })).toContain('8 requests in flight (round trip 42 ms) · scenarios side by side');
    const near = makeReport({ pipeline: { depth: 4, roundTripMs: 0.7, schedule: 'sequential' } });
    expect(renderTerminal(near, { color: false, usualPipelineDepth: 4 })).not.toMatch(/side by side/);
  });

  it('colours only when asked, and the coloured text is the plain text plus SGR codes', () => {
    expect(plain).not.toMatch(ANSI);
    const coloured = renderTerminal(makeReport(), { color: true });
    expect(coloured).toMatch(ANSI);
    expect(coloured).toContain('\u001b[31m✖\u001b[39m');
    expect(coloured.replace(ANSI, '')).toBe(plain);
  });

  it('a hostile server cannot drive the terminal', () => {
    const r = makeReport();
    clauseIn(r, 'list.limit-max').checks[0]!.actual = 'evil \u001b]0;pwned\u0007 \u001b[2J\u009b31m\rOVERWRITE';
    const out = renderTerminal(r, { color: false });
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('evil \\u001b]0;pwned\\u0007 \\u001b[2J\\u009b31m\\rOVERWRITE');
  });
});
