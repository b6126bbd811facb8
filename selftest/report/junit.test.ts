import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.ts';
import { clauseIn, AUTH_HOLES, HOSTILE_BODY, makeKnownFailureReport, makeMultiFailureReport, makeMultiWarningReport, makeReport, NO_CHALLENGE } from './fixture.ts';
import { hasXmlIllegal, poison, xmllint } from './helpers.ts';

function failureText(xml: string, testcase: string): string {
  const start = xml.indexOf(`<testcase name="${testcase}"`);
  expect(start, `testcase ${testcase}`).toBeGreaterThanOrEqual(0);
  const end = xml.indexOf('</testcase>', start);
  return xml.slice(start, end);
}

/** Decodes the five predefined entities and numeric references (enough to read our output back). */
function unescapeXml(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('renderJunit', () => {
  const report = makeReport();
  const xml = renderJunit(report);

  it('validates against the Jenkins/Ant JUnit XSD with xmllint', async () => {
    const res = await xmllint(xml);
    expect(res.output).toContain('validates');
    expect(res.ok).toBe(true);
  });

  it('the XSD really checks structure (a misplaced <failure> is rejected)', async () => {
    const broken = xml.replace('<testsuite ', '<failure message="x"/><testsuite ');
    expect((await xmllint(broken)).ok).toBe(false);
    const badCount = xml.replace(/tests="14"/, 'tests="fourteen"');
    expect((await xmllint(badCount)).ok).toBe(false);
  });

  it('has one testsuite per section and one testcase per clause, named by its id', () => {
    const suites = [...xml.matchAll(/<testsuite name="([^"]*)"/g)].map((m) => unescapeXml(m[1]!));
    expect(suites).toEqual([
      '§2.1 Animal (Pet) as returned',
      '§4.1 List animals: GET /pets',
      '§4.2 Add an animal: POST /pets',
      '§4.3 Get an animal: GET /pets/{petId} (deprecated)',
      '§4.4 Store orders: GET /store/orders',
      '§4.5 Quickstart message operation',
      '§5 Authentication',
      '§7 Errors',
      '§8 Limits',
      'Engine errors',
    ]);
    const checks = report.clauses.reduce((n, c) => n + c.checks.length, 0);
    expect([...xml.matchAll(/<testcase /g)].length).toBe(checks + report.engineErrors.length);
    const names = [...xml.matchAll(/<testcase name="([^"]*)" classname="service-spec\./g)].map((m) => m[1]);
    expect(names).toEqual(report.clauses.map((c) => c.id));
    expect(xml).toContain('<testcase name="list.limit-max" classname="service-spec.8">');
    expect(xml).toMatch(/<testsuites [^>]*tests="14" failures="2" errors="2" time="48\.250"/);
    expect(xml).toMatch(/<testsuite name="§8 Limits" tests="2" failures="1" errors="0" skipped="0"/);
  });

  it('gives the run its time and no testcase or section a made-up one (checks span scenarios)', async () => {
    expect(xml).toMatch(/^<testsuites [^>]*time="48\.250">$/m);
    expect(xml.match(/<testcase [^>]*>/g)?.filter((tag) => / time=/.test(tag))).toEqual([]);
    expect(xml.match(/<testsuite [^>]*>/g)?.filter((tag) => / time=/.test(tag))).toEqual([]);
    expect((await xmllint(xml)).ok).toBe(true);
  });

  it('keeps every detail of a failure: clause, sentence, Expected, Actual, counterexample, replay, request, response, curl', () => {
    const text = unescapeXml(failureText(xml, 'list.limit-max'));
    expect(text).toContain('<failure message="list.limit-max: MUST violated; expected 400 with an Error body');
    expect(text).toContain('type="MUST"');
    expect(text).toContain('Clause:   list.limit-max (§8 Limits, MUST) Never more than 100 animals, whatever limit says');
    expect(text).toContain('Sentence: "`limit` query parameter | `GET /pets` | Default 20, minimum 1, maximum 100."');
    expect(text).toContain('Outcome:  fail, judged 37 exchanges');
    expect(text).not.toContain('Check:');
    expect(text).toContain('Expected: 400 with an Error body (limit=101 is above the maximum 100)');
    expect(text).toContain('Actual:   200 with 101 animals, no Error body');
    expect(text).toContain('Counterexample: {"limit":101}');
    expect(text).toContain('Replay:   seed 1234567, path "14:2:0"');
    expect(text).toContain('npx animal-store-conformance --seed 1234567 --runs 100');
    expect(text).toContain('GET https://api.example.test/v1/pets?limit=101');
    expect(text).toContain('Authorization: Bearer $API_KEY');
    expect(text).toContain('HTTP 200');
    expect(text).toContain(`"name":"<script>alert('owned')</script>"`);
    expect(text).toContain('… (body truncated)');
    expect(text).toContain(`curl -sS -X GET 'https://api.example.test/v1/pets?limit=101' -H "Authorization: Bearer $API_KEY"`);
  });

  it('keeps the evidence of every operation a check failed on, and names them in the message', async () => {
    const out = renderJunit(makeMultiFailureReport());
    expect((await xmllint(out)).ok).toBe(true);
    const text = unescapeXml(failureText(out, 'auth.required'));
    expect(text).toContain(`<failure message="auth.required: MUST violated on 2 operations (createPet, sendMessage); first, on createPet: expected ${AUTH_HOLES.createPet.expected}; actual ${AUTH_HOLES.createPet.actual}"`);
    expect(text).toContain('Failed on: createPet, sendMessage');
    for (const hole of [AUTH_HOLES.createPet, AUTH_HOLES.sendMessage]) {
      expect(text).toContain(`Actual:   ${hole.actual}`);
      expect(text).toContain(`Counterexample: ${hole.counterexample}`);
      expect(text).toContain(`Replay:   seed 1234567, path "${hole.path}"`);
      expect(text).toContain(`${hole.evidence.request.method} ${hole.evidence.request.url}`);
      expect(text).toContain(hole.evidence.curl);
    }
    expect(text.indexOf('On createPet')).toBeLessThan(text.indexOf('On sendMessage'));
    const r = makeMultiFailureReport();
    r.clauses.find((c) => c.id === 'auth.required')!.checks[0]!.moreFailures = 4;
    expect(unescapeXml(failureText(renderJunit(r), 'auth.required'))).toContain('…and 4 more operations it failed on, not listed');
  });

  it('keeps the evidence of every operation a check warned on in its system-out, not as a failure', async () => {
    const r = makeMultiWarningReport();
    r.clauses.find((c) => c.id === 'auth.www-authenticate')!.checks[0]!.moreWarnings = 3;
    const out = renderJunit(r);
    expect((await xmllint(out)).ok).toBe(true);
    const text = unescapeXml(failureText(out, 'auth.www-authenticate'));
    expect(text).not.toContain('<failure');
    expect(text).toContain('<system-out>WARNING: auth.www-authenticate (SHOULD) not met');
    expect(text).toContain('Warned on: listPets, sendMessage');
    for (const missing of [NO_CHALLENGE.listPets, NO_CHALLENGE.sendMessage]) {
      expect(text).toContain(`Actual:   ${missing.actual}`);
      expect(text).toContain(`${missing.evidence.request.method} ${missing.evidence.request.url}`);
      expect(text).toContain(missing.evidence.curl);
    }
    expect(text.indexOf('On listPets')).toBeLessThan(text.indexOf('On sendMessage'));
    expect(text).toContain('…and 3 more operations it warned on, not listed');
  });

  it('skips a failure the baseline accepts, with the reason, and keeps its details in system-out', async () => {
    const out = renderJunit(makeKnownFailureReport());
    expect((await xmllint(out)).ok).toBe(true);
    const text = failureText(out, 'list.limit-max');
    expect(text).not.toContain('<failure');
    expect(unescapeXml(text)).toContain('<skipped message="accepted by the baseline: clamps (PETS-123) <b> (expires 2025-06-30)"/>');
    expect(unescapeXml(text)).toContain('<system-out>KNOWN FAILURE (accepted by the baseline: clamps (PETS-123) <b> (expires 2025-06-30)): list.limit-max');
    expect(unescapeXml(text)).toContain('Actual:   200 with 101 animals, no Error body');
    expect(out).toMatch(/<testsuites [^>]*tests="14" failures="1" errors="2"/);
    expect(out).toMatch(/<testsuite name="§8 Limits" tests="2" failures="0" errors="0" skipped="1"/);
  });

  it('maps error, skip, warn and observe', () => {
    const err = failureText(xml, 'auth.required');
    expect(err).toContain('<error message="the connection was reset');
    expect(err).toContain('ECONNRESET');
    expect(failureText(xml, 'messages.status-queued')).toContain(
      '<skipped message="messages base URL not reachable in this environment"/>',
    );
    const warn = failureText(xml, 'create.location');
    expect(warn).toContain('<system-out>WARNING: create.location');
    expect(warn).toContain('Expected: a Location header naming the created animal');
    expect(warn).not.toContain('<failure');
    const obs = failureText(xml, 'list.invalid-query-handling');
    expect(obs).toContain('<system-out>OBSERVED: list.invalid-query-handling');
    expect(obs).toContain('limit=0 gives 400; limit=101 gives 200');
    expect(xml).toContain('<testcase name="engine error 1" classname="animal-store-conformance.engine"');
  });

  it('escapes markup and strips characters illegal in XML 1.0 from hostile bodies', () => {
    expect(HOSTILE_BODY).toContain('\u0000');
    expect(hasXmlIllegal(xml)).toBe(false);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('<img');
    expect(xml).not.toContain(']]>');
    expect(xml).toContain('\\u0000 nul');
    expect(xml).toContain('\\u001b[31mred');
    expect(xml).toContain('🐶🐈');
    expect(xml).toContain('\uFFFD lone high \uFFFD lone low');
  });

  it('stays valid when every text field is hostile (fast-check sample)', async () => {
    for (const seed of [1, 2, 3]) {
      const hostile = renderJunit(poison(seed === 3 ? makeMultiFailureReport() : makeReport(), seed));
      expect(hasXmlIllegal(hostile)).toBe(false);
      const res = await xmllint(hostile);
      expect(res.output, `seed ${seed}`).toContain('validates');
    }
  });

  it('keeps the whitespace of a value exact in a failure message (a trimmed name stays visible)', async () => {
    const r = makeReport();
    Object.assign(clauseIn(r, 'list.limit-max').checks[0]!, { expected: 'name = "  padded name  "', actual: 'name = "padded name"\n\tsecond line' });
    const out = renderJunit(r);
    const message = /<failure message="([^"]*)"/.exec(failureText(out, 'list.limit-max'))?.[1];
    expect(unescapeXml(message ?? '')).toBe('list.limit-max: MUST violated; expected name = "  padded name  "; actual name = "padded name"\\n\tsecond line');
    expect((await xmllint(out)).ok).toBe(true);
  });

  it('writes a MUST clause the target kept from being judged (exit 3) as an <error>, not a quiet <skipped>, and says CANNOT VOUCH', async () => {
    const r = makeReport({ exitCode: 3, verdict: 'fail' });
    const skipped = clauseIn(r, 'messages.status-queued');
    skipped.level = 'MUST';
    skipped.checks[0] = { ...skipped.checks[0]!, outcome: 'skip', note: 'the target answered 429 to every request of the operation', blockedBy: 'rate-limit' };
    const out = renderJunit(r);
    expect(failureText(out, 'messages.status-queued')).toContain('<error message="CANNOT VOUCH: the target answered 429 to every request of the operation" type="Unjudged">');
    expect(out).toContain('<property name="outcome" value="CANNOT VOUCH (exit 3)"/>');
    const errors = (xml: string) => Number(/<testsuites [^>]*errors="(\d+)"/.exec(xml)?.[1]);
    expect(errors(out)).toBe(errors(renderJunit(makeReport())) + 1);
    expect((await xmllint(out)).ok).toBe(true);
    // Skipped for the user's choice (no blockedBy), or a SHOULD, it stays a skip.
    skipped.checks[0] = { ...skipped.checks[0]!, blockedBy: undefined, note: 'messages base URL not set' };
    expect(failureText(renderJunit(r), 'messages.status-queued')).toContain('<skipped message="messages base URL not set"/>');
  });

  it('gives a clause without checks its own testcase', async () => {
    const r = makeReport();
    r.clauses[0] = { ...r.clauses[0]!, outcome: 'skip', checks: [] };
    const out = renderJunit(r);
    expect(out).toContain('<testcase name="create.echo" classname="service-spec.2.1">');
    expect((await xmllint(out)).ok).toBe(true);
  });
});
