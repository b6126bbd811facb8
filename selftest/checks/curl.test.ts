/**
 * curlLine: a copy-paste reproduction that never holds the key. The quoting is verified by letting
 * bash expand the line with `printf` in place of curl: no network, one short bash per case.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badAuthorizations, validAuthorization } from '../../generators/auth.ts';
import { curlLine } from '../../src/http/curl.ts';
import { nearMissKeys } from '../../src/secrets.ts';
import type { SentRequest } from '../../src/http/exchange.ts';

const KEY = 'sk_live_9f3Kq2ZxP7mW4tR8yB1nV6cH0dJ5gL';

/** The argv bash would hand to curl for `line`, with API_KEY set to `key`. */
function argvOf(line: string, key = KEY): string[] {
  expect(line.startsWith('curl ')).toBe(true);
  const script = `printf '%s\\0' ${line.slice('curl '.length)}`;
  const out = execFileSync('bash', ['-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', API_KEY: key },
    encoding: 'utf8',
    // stdin from /dev/null: with a socket or pipe on stdin bash may source ~/.bashrc even for -c.
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 5_000,
  });
  const args = out.split('\0');
  expect(args.pop()).toBe('');
  return args;
}

/** The value following each `flag` in argv. */
function after(argv: string[], flag: string): string[] {
  return argv.flatMap((arg, i) => (arg === flag && i + 1 < argv.length ? [argv[i + 1]!] : []));
}

/** A request as the client records it: the Authorization as shown, never its value. */
function recorded(fields: Partial<SentRequest> = {}): SentRequest {
  return {
    method: 'POST',
    url: 'https://api.example.test/v1/pets?limit=5&status=sold',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: validAuthorization(KEY).authorization!.shown },
    body: '{"name":"Rex","categoryId":9223372036854775807}',
    ...fields,
  };
}

describe('curlLine', () => {
  it('never holds the key nor a wrong key derived from it, for the valid and every bad Authorization', () => {
    const forms = [KEY, ...Object.values(nearMissKeys(KEY))];
    expect(forms).toHaveLength(7);
    for (const variant of [validAuthorization(KEY), ...badAuthorizations(KEY)]) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (variant.authorization) headers.Authorization = variant.authorization.shown;
      const line = curlLine(recorded({ headers }));
      for (const form of forms) expect(line, variant.id).not.toContain(form);
    }
  });

  it('keeps $API_KEY expandable: inside double quotes, not single', () => {
    const line = curlLine(recorded());
    expect(line).toContain('-H "Authorization: Bearer $API_KEY"');
    expect(line).not.toContain("'Authorization: Bearer $API_KEY'");
    const argv = argvOf(line);
    expect(after(argv, '-H')).toContain(`Authorization: Bearer ${KEY}`);
  });

  it("reads a gateway header's value from its variable, and takes any other $ literally", () => {
    const line = curlLine(recorded({ headers: { 'X-Gateway-Token': '$HEADER_X_GATEWAY_TOKEN', 'X-Note': '$HEADER_X_NOTE and more' } }));
    expect(line).toContain('-H "X-Gateway-Token: $HEADER_X_GATEWAY_TOKEN"');
    const argv = execFileSync('bash', ['-c', `printf '%s\\0' ${line.slice('curl '.length)}`], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HEADER_X_GATEWAY_TOKEN: 'tok-123', HEADER_X_NOTE: 'expanded' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 5_000,
    }).split('\0');
    // Nor an Accept (curl's own */*) where the request had none.
    expect(after(argv, '-H')).toEqual(['X-Gateway-Token: tok-123', 'X-Note: $HEADER_X_NOTE and more', 'Accept:', 'Content-Type:']);
  });

  it('gives curl the method, URL, headers and body exactly', () => {
    const request = recorded();
    const argv = argvOf(curlLine(request));
    expect(argv.slice(0, 3)).toEqual(['-sS', '-i', '-X']);
    expect(after(argv, '-X')).toEqual(['POST']);
    expect(argv).toContain(request.url);
    expect(after(argv, '-H')).toEqual(['Accept: application/json', 'Content-Type: application/json', `Authorization: Bearer ${KEY}`]);
    expect(after(argv, '--data-binary')).toEqual([request.body]);
  });

  it('round-trips a body with single quotes, $, backquotes and newlines through bash', () => {
    const body = `{"name":"it's Rex's $HOME \`id\` $(whoami) \\"quoted\\" \n 'done'","categoryId":1}`;
    const argv = argvOf(curlLine(recorded({ body })));
    expect(after(argv, '--data-binary')).toEqual([body]);
  });

  it('leaves $API_KEY literal where it was not a header: in the body and the URL', () => {
    const body = '{"name":"$API_KEY"}';
    const url = 'https://api.example.test/v1/pets?q=$API_KEY';
    const argv = argvOf(curlLine(recorded({ body, url })));
    expect(after(argv, '--data-binary')).toEqual([body]);
    expect(argv).toContain(url);
  });

  it('sends HEAD with -I, which reads no body (-X HEAD would wait for the one Content-Length announces)', () => {
    const request = recorded({ method: 'HEAD', body: undefined, url: 'https://api.example.test/v1//pets' });
    const argv = argvOf(curlLine(request));
    expect(argv.slice(0, 3)).toEqual(['-sS', '-I', request.url]);
    expect(argv).not.toContain('-X');
  });

  it('keeps curl from adding a Content-Type the suite did not send, and sends the Content-Length: 0 of a POST without a body', () => {
    const accept = { Accept: 'application/json' };
    expect(after(argvOf(curlLine(recorded({ headers: accept }))), '-H')).toEqual(['Accept: application/json', 'Content-Type:']);
    expect(after(argvOf(curlLine(recorded({ headers: accept, body: undefined }))), '-H')).toEqual(['Accept: application/json', 'Content-Length: 0']);
    expect(after(argvOf(curlLine(recorded({ headers: accept, body: undefined, method: 'GET' }))), '-H')).toEqual(['Accept: application/json']);
    // No Accept sent: `Accept:` keeps curl from adding its */*.
    expect(after(argvOf(curlLine(recorded({ headers: {}, body: undefined, method: 'GET' }))), '-H')).toEqual(['Accept:']);
  });

  it('sends no --data-binary without a body', () => {
    const line = curlLine(recorded({ method: 'GET', body: undefined }));
    expect(line).not.toContain('--data-binary');
    expect(argvOf(line)).not.toContain('--data-binary');
  });

  it('round-trips any body and header value (property, 40 runs)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 60 }).filter((s) => !s.includes('\0'));
    fc.assert(
      fc.property(text, text, (body, value) => {
        const argv = argvOf(curlLine(recorded({ body, headers: { Accept: 'application/json', 'X-Note': value } })));
        expect(after(argv, '--data-binary')).toEqual([body]);
        // A value naming $API_KEY is meant to expand; any other goes through verbatim.
        // No Content-Type was sent: `Content-Type:` keeps curl from adding its form-urlencoded one.
        if (!/\$\{?API_KEY/.test(value) && !/^\$HEADER_[A-Z0-9_]+$/.test(value)) expect(after(argv, '-H')).toEqual(['Accept: application/json', value === '' ? 'X-Note;' : `X-Note: ${value}`, 'Content-Type:']);
      }),
      { numRuns: 40, seed: 20261122 },
    );
  });

  // curl drops a -H header whose value is empty ("Authorization: "), so the
  // reproduction of the 'empty' Authorization variant sends no Authorization at all (the 'absent' case).
  // curl's documented form for an empty header is `-H 'Authorization;'`.
  it('reproduces an empty header in a form curl sends (name; rather than name: )', () => {
    const argv = argvOf(curlLine(recorded({ headers: { Accept: 'application/json', Authorization: '', 'Content-Type': 'application/json' } })));
    for (const header of after(argv, '-H')) expect(/^[^:;]+:\s*$/.test(header), header).toBe(false);
  });
});
