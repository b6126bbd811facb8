import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderTerminal, writeReports } from '../../src/report/index.ts';
import { renderJson } from '../../src/report/json.ts';
import { keyForms, nearMissKeys, redactReport, redactText } from '../../src/secrets.ts';
import type { RunReport } from '../../src/report/model.ts';
import { clauseIn, makeReport } from './fixture.ts';
import { tempDir } from './helpers.ts';
import { shows } from '../support/secrets.ts';

const KEY = 'sk_live_51Hc9vQ2eZvKYlo2C0FAKEKEY';
const ODD = 'tok&<en>"42"\'x';

/** A report where a real key leaked everywhere it could. */
function leaky(): RunReport {
  const r = makeReport();
  r.target.baseUrl = `https://api.example.test/v1?api_key=${KEY}`;
  const fail = clauseIn(r, 'list.limit-max').checks[0]!;
  fail.evidence!.request.headers.Authorization = `Bearer ${KEY}`;
  fail.evidence!.request.headers[`X-${KEY}`] = ODD;
  fail.evidence!.response!.bodyExcerpt = `{"echo":"Bearer ${KEY}","odd":"${ODD}"} <script>${KEY}</script>`;
  fail.evidence!.curl = `curl -H 'Authorization: Bearer ${KEY}' https://api.example.test/v1/pets`;
  fail.actual = `the key ${KEY} was echoed back`;
  fail.counterexample = JSON.stringify({ key: KEY, odd: ODD });
  clauseIn(r, 'create.location').checks[0]!.expected = `no ${ODD} in a header`;
  r.engineErrors.push(`401 for key ${KEY}`);
  r.capabilities.push({ id: 'echo', title: 'Echoes the key', value: KEY, detail: ODD });
  return r;
}

const forms = (s: string): string[] => [
  s,
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
  JSON.stringify(s).slice(1, -1),
];

describe('secrets are redacted in every output', () => {
  it('writeReports replaces every occurrence with $API_KEY in all four files', async () => {
    const dir = tempDir('redact-');
    const paths = await writeReports(leaky(), dir, { secrets: [KEY, ODD, ''] });
    for (const [kind, path] of Object.entries(paths)) {
      const text = readFileSync(path, 'utf8');
      for (const secret of [KEY, ODD]) {
        for (const form of forms(secret)) expect(text.includes(form), `${kind} contains ${form}`).toBe(false);
      }
      expect(text, kind).toContain('$API_KEY');
    }
    const json = JSON.parse(readFileSync(paths.json, 'utf8')) as RunReport;
    expect(json.target.baseUrl).toBe('https://api.example.test/v1?api_key=$API_KEY');
    expect(clauseIn(json, 'list.limit-max').checks[0]!.evidence!.request.headers).toEqual({
      Accept: 'application/json',
      Authorization: 'Bearer $API_KEY',
      'X-$API_KEY': '$API_KEY',
    });
  });

  it('the terminal output too', () => {
    const out = renderTerminal(leaky(), { color: true, secrets: [KEY, ODD] });
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(ODD);
    expect(out).toContain('the key $API_KEY was echoed back');
  });

  it('without secrets nothing is changed (the test above is not vacuous)', () => {
    expect(renderJson(leaky())).toContain(KEY);
  });

  it('redactText keeps existing placeholders intact and ignores empty secrets', () => {
    expect(redactText('Bearer $API_KEY and API and KEY', ['API', 'KEY', ''])).toBe('Bearer $API_KEY and $API_KEY and $API_KEY');
    expect(redactText('abc', [''])).toBe('abc');
  });
});

/** A report where every wrong key the suite sends came back in every field a server can fill. */
function echoing(tokens: readonly string[]): RunReport {
  const r = makeReport();
  const echo = tokens.map((t) => `Bearer ${t}`).join(', ');
  const fail = clauseIn(r, 'list.limit-max').checks[0]!;
  fail.evidence!.request.headers['X-Echo'] = echo;
  fail.evidence!.response!.headers['www-authenticate'] = `Bearer error="invalid_token", error_description="${echo}"`;
  fail.evidence!.response!.bodyExcerpt = JSON.stringify({ code: 'unauthorized', message: `invalid key: ${echo}`, status: 401 });
  fail.evidence!.curl = `curl -H 'Authorization: Bearer ${tokens[0]}' https://api.example.test/v1/pets`;
  fail.actual = `200 for ${echo}`;
  fail.counterexample = JSON.stringify(tokens);
  r.engineErrors.push(`echoed ${echo}`);
  return r;
}

describe('the wrong keys derived from the key (case swapped, last character cut, one character replaced, a number written otherwise) are redacted in every output', () => {
  const keys = [
    ['a long key', KEY],
    ['a short key', 'Qz7w'],
    ['a long key without letters', '0123456789-42'],
    ['a short key without letters', '4711'],
    ['a long key of digits', '4815162342'],
  ] as const;
  for (const [what, key] of keys) {
    it(`${what}: no form in the four files or the terminal, which would show each without redaction`, async () => {
      const { caseSwapped, truncated, lastReplaced, firstReplaced, middleReplaced, zeroPrefixed, decimalSuffixed, plusPrefixed } = nearMissKeys(key);
      const sent = [key, ...[caseSwapped, truncated, lastReplaced, firstReplaced, middleReplaced, zeroPrefixed, decimalSuffixed, plusPrefixed].filter((form) => form !== undefined)];
      expect(sent).toHaveLength((/[a-z]/.test(key) && /[A-Z]/.test(key) ? 6 : 5) + (/^\d+$/.test(key) ? 3 : 0));
      const outputs = async (report: RunReport, secrets: string[]) => {
        const paths = await writeReports(report, tempDir('near-'), { secrets });
        return { ...Object.fromEntries(Object.entries(paths).map(([kind, path]) => [kind, readFileSync(path, 'utf8')])), terminal: renderTerminal(report, { color: false, secrets }) };
      };
      // One form a report: summary.md cuts what it quotes at 120 characters, so each is shown whole.
      for (const form of sent) {
        const report = echoing([form]);
        for (const [kind, text] of Object.entries(await outputs(report, []))) expect(shows(text, form), `${kind} shows ${form} unredacted`).toBe(true);
        for (const [kind, text] of Object.entries(await outputs(report, keyForms(key)))) expect(shows(text, form), `${kind} shows ${form}`).toBe(false);
      }
    });
  }
});

describe('writeReports', () => {
  it('creates the directory and returns the four paths', async () => {
    const dir = `${tempDir('write-')}/nested/out`;
    const paths = await writeReports(makeReport(), dir);
    expect(Object.keys(paths).sort()).toEqual(['html', 'json', 'junit', 'summary']);
    expect(paths.junit.endsWith('/nested/out/junit.xml')).toBe(true);
    expect(paths.json.endsWith('/report.json')).toBe(true);
    expect(paths.html.endsWith('/report.html')).toBe(true);
    expect(paths.summary.endsWith('/summary.md')).toBe(true);
    expect(readFileSync(paths.html, 'utf8').startsWith('<!DOCTYPE html>')).toBe(true);
  });
});

describe('a short secret (fewer than 8 characters)', () => {
  it('is replaced where it stands as a token, never inside a longer word or number', () => {
    expect(redactText('abcdef abc "abc" Bearer abc x-abc abc_1 ?k=abc. 1abc', ['abc'])).toBe('abcdef $API_KEY "$API_KEY" Bearer $API_KEY x-abc abc_1 ?k=$API_KEY. 1abc');
    expect(redactText('id 91234567 and 1234567', ['1234567'])).toBe('id 91234567 and $API_KEY');
    expect(redactText('ключи ключ', ['ключ'])).toBe('ключи $API_KEY');
  });

  it('is replaced after an escape that ends in a letter or digit: %20, \\u0027, \\n', () => {
    expect(redactText('Bearer%20abc k=x%3Dabc \\u0027abc\\u0027 "line\\nabc"', ['abc'])).toBe('Bearer%20$API_KEY k=x%3D$API_KEY \\u0027$API_KEY\\u0027 "line\\n$API_KEY"');
  });

  it('needs a boundary only where its own edge is a letter or digit', () => {
    expect(redactText('x+ab ab!x +abc+', ['+ab', 'ab!'])).toBe('x$API_KEY $API_KEYx +abc+');
  });

  it('with the key forms the suite sends: the glued, case-swapped, cut and one-character-replaced probes and the Basic credentials are replaced too', () => {
    const forms = keyForms('aBc');
    // The Basic credentials end in ==, so their percent-encoded echoes are named too.
    // base64 of "aBc:" and of "user:aBc", the key as the user name and as the password.
    expect(forms).toEqual(['aBc', 'YUJjOg==', 'YUJjOg%3D%3D', 'YUJjOg%3d%3d', 'dXNlcjphQmM=', 'dXNlcjphQmM%3D', 'dXNlcjphQmM%3d', 'QmVhcmVyIGFCYw', '42656172657220614263', 'aBcx', 'xaBc', 'BeareraBc', 'AbC', 'aB', 'Bc', 'aBx', 'xBc', 'axc']);
    expect(redactText(`invalid token aBcx; xaBc; BeareraBc; Basic ${forms[1]}; Basic ${forms[4]}; AbC; "aB"; Bc; aBx; xBc; axc`, forms)).toBe(
      'invalid token $API_KEY; $API_KEY; $API_KEY; Basic $API_KEY; Basic $API_KEY; $API_KEY; "$API_KEY"; $API_KEY; $API_KEY; $API_KEY; $API_KEY',
    );
    expect(keyForms('abc'), 'a key of one case gets no case-swapped probe').toEqual(['abc', 'YWJjOg==', 'YWJjOg%3D%3D', 'YWJjOg%3d%3d', 'dXNlcjphYmM=', 'dXNlcjphYmM%3D', 'dXNlcjphYmM%3d', 'QmVhcmVyIGFiYw', '42656172657220616263', 'abcx', 'xabc', 'Bearerabc', 'ab', 'bc', 'abx', 'xbc', 'axc']);
    const encoded = [KEY, `Bearer ${KEY}`].flatMap((text) => [Buffer.from(text).toString('base64').replace(/=+$/, ''), Buffer.from(text).toString('base64url'), Buffer.from(text).toString('hex')]);
    const sent = [KEY, Buffer.from(`${KEY}:`).toString('base64'), Buffer.from(`user:${KEY}`).toString('base64'), ...new Set(encoded), 'SK_LIVE_51hC9Vq2EzVkyLO2c0fakekey', KEY.slice(0, -1), KEY.slice(1), 'sk_live_51Hc9vQ2eZvKYlo2C0FAKEKEx', 'xk_live_51Hc9vQ2eZvKYlo2C0FAKEKEY', 'sk_live_51Hc9vQ2xZvKYlo2C0FAKEKEY'];
    expect(keyForms(KEY).filter((form) => !form.includes('%'))).toEqual(sent);
  });

  it('replaces a long key reflected in another case, base64, base64url or hex (of the key or of its Authorization value), or as HTML character references (helper-47)', () => {
    const key = 'sekret-KEY-4242';
    const forms = keyForms(key);
    const reflected = [
      key.toUpperCase(),
      key.toLowerCase(),
      `x-${key.toLowerCase()}: 1`,
      Buffer.from(key).toString('base64'),
      Buffer.from(key).toString('hex'),
      Buffer.from(key).toString('hex').toUpperCase(),
      Buffer.from(`Bearer ${key}`).toString('base64'),
      Buffer.from(`Bearer ${key}`).toString('base64url'),
      [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
      [...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
    ];
    const out = redactText(reflected.join(' | '), forms);
    for (const form of reflected) expect(out, form).not.toContain(form);
    expect(out).toBe('$API_KEY | $API_KEY | x-$API_KEY: 1 | $API_KEY | $API_KEY | $API_KEY | $API_KEY== | $API_KEY | $API_KEY | $API_KEY');
    expect(redactText('a key of 7 letters, abcdefg and ABCDEFG', keyForms('abcdefg')), 'a short key stays matched in its own case only').toBe('a key of 7 letters, $API_KEY and ABCDEFG');
  });

  it('leaves the text of a report whole while an echoed key is still replaced', () => {
    const r = makeReport();
    clauseIn(r, 'list.limit-max').checks[0]!.actual = 'the key e was echoed back';
    const title = r.clauses[0]!.title;
    expect(title).toMatch(/\w*e\w/);
    const out = renderTerminal(r, { color: false, secrets: ['e'] });
    expect(out).toContain('the key $API_KEY was echoed back');
    expect(out).toContain(title);
  });

  it('keeps the HTML and JUnit markup whole (tag and attribute names are no data)', async () => {
    const r = makeReport();
    clauseIn(r, 'list.limit-max').checks[0]!.actual = 'the key a was echoed back; class div';
    const secrets = ['a', 'class', 'div'];
    const dir = tempDir('short-');
    const paths = await writeReports(r, dir, { secrets });
    const html = readFileSync(paths.html, 'utf8');
    expect(html).toContain('<a ');
    expect(html).toContain('class="');
    expect(html).toContain('<div');
    expect(html).toContain('the key $API_KEY was echoed back; $API_KEY $API_KEY');
    const junit = readFileSync(paths.junit, 'utf8');
    expect(junit).toContain('<testsuites');
    expect(junit).toContain('the key $API_KEY was echoed back');
  });

  it('a long secret is still replaced inside other text and markup', () => {
    expect(redactText(`x${KEY}y`, [KEY])).toBe('x$API_KEYy');
  });
});

describe('redaction with a secret that also occurs in the model field names', () => {
  it('keeps the report whole: only data is redacted, never the field names', async () => {
    const dir = tempDir('report-selftest-');
    const paths = await writeReports(makeReport(), dir, { secrets: ['k'] });
    const json = JSON.parse(readFileSync(paths.json, 'utf8')) as RunReport;
    expect(json.clauses.every((clause) => Array.isArray(clause.checks))).toBe(true);
    expect(readFileSync(paths.junit, 'utf8')).toContain('<testsuites');
  });
});

describe('an echoed key in the forms a server may write it back (audit 8 M1)', () => {
  const key = 'sk-Test/Key+12345678';
  const forms = keyForms(key);

  it('JSON with an escaped solidus (PHP\'s json_encode)', () => {
    expect(redactText('{"echo":"Bearer sk-Test\\/Key+12345678"}', forms)).toBe('{"echo":"Bearer $API_KEY"}');
  });

  it('percent-encoded, in either case of hex digit', () => {
    expect(redactText('token=Bearer%20sk-Test%2FKey%2B12345678', forms)).toBe('token=Bearer%20$API_KEY');
    expect(redactText('token=sk-Test%2fKey%2b12345678&x=1', forms)).toBe('token=$API_KEY&x=1');
  });

  it('any of its characters JSON-escaped or percent-encoded, as they come, where encodeURIComponent leaves them alone (helper-38a)', () => {
    expect(redactText('{"echo":"sk\\u002dTest\\u002FKey\\u002b12345678"}', forms)).toBe('{"echo":"$API_KEY"}');
    expect(redactText('t2=sk%2DTest%2fKey+12345678', forms)).toBe('t2=$API_KEY');
    expect(redactText('mixed \\u0073k-%54est/Key+12345678 and ʼ\\u00e9ʼ', forms)).toBe('mixed $API_KEY and ʼ\\u00e9ʼ');
    expect(redactText('{"echo":"\\u00e9t\\u00e9-cl\\u00e9-123"}', keyForms('été-clé-123'))).toBe('{"echo":"$API_KEY"}');
    expect(redactText('k=%C3%A9t%C3%A9-cl%c3%a9-123', keyForms('été-clé-123'))).toBe('k=$API_KEY');
  });

  it('cut off inside the key, where an excerpt known to be cut ends or a text is marked cut with …', () => {
    expect(redactText('{"echo":"Bearer sk-Test/K', forms, { cutAtEnd: true })).toBe('{"echo":"Bearer $API_KEY');
    expect(redactText('401 {"echo":"Bearer sk-Test/Key+1…', forms)).toBe('401 {"echo":"Bearer $API_KEY…');
    expect(redactText('401 {"echo":"Bearer sk-Te…', forms)).toBe('401 {"echo":"Bearer $API_KEY…');
  });

  it('leaves a start of the key alone where the text goes on after it or simply ends, and starts shorter than 4 characters', () => {
    expect(redactText('sk-Test is the prefix of our test keys', forms)).toBe('sk-Test is the prefix of our test keys');
    // A key that begins with a word must not take that word out of clause ids and titles.
    expect(redactText('create.ignores-client-id', keyForms('client-id-replay-key-5521'))).toBe('create.ignores-client-id');
    expect(redactText('ends in sk-…', forms)).toBe('ends in sk-…');
  });

  it('the same in every artifact: a report whose excerpt ends inside the echoed key', () => {
    const r = makeReport();
    clauseIn(r, 'list.limit-max').checks[0]!.actual = '404 {"echo":"Bearer sk-Test\\/Key+12345678","more":"…"} and Bearer sk-Test%2FKey%2B12345678';
    clauseIn(r, 'list.limit-max').checks[0]!.evidence = {
      request: { method: 'GET', url: 'https://api.example.test/v1/pets/1', headers: {} },
      curl: 'curl',
      response: { status: 404, headers: {}, bodyExcerpt: '{"echo":"Bearer sk-Test/Ke', bodyTruncated: true },
    };
    const redacted = redactReport(r, forms);
    const outputs = [JSON.stringify(redacted), renderTerminal(redacted, { color: false, secrets: forms })];
    for (const out of outputs) {
      for (const leak of ['sk-Test\\/Key', 'sk-Test%2FKey', 'sk-Test/Ke']) expect(out).not.toContain(leak);
    }
  });
});
