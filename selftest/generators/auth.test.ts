/**
 * generators/auth.ts: no bad Authorization is the valid one, no shown form holds the key, and each
 * shown form, expanded by a POSIX sh (dash here) with API_KEY set, is what was sent (that is what the curl line replays).
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badAuthorizations, FOREIGN_JWTS, validAuthorization, wrongBearer, type AuthVariant } from '../../generators/index.ts';
import { curlLine } from '../../src/http/curl.ts';
import { nearMissKeys } from '../../src/secrets.ts';
import { SEED } from './helpers.ts';

/** API keys as a service would issue them: 16 to 64 token characters. */
const apiKey = fc.stringMatching(/^[A-Za-z0-9._~+/-]{16,64}$/);

/** The bearer token of an Authorization value, when its scheme is Bearer in any case. */
function bearerToken(value: string): string | undefined {
  return /^bearer +(.*)$/i.exec(value)?.[1];
}

const END = '\u0001end\u0001';

/** For each request, the -H values a POSIX sh hands to curl, with API_KEY=key. One sh for them all. */
/** The header a variant's credentials go under. */
const headerOf = (v: AuthVariant) => v.authorization?.header ?? 'Authorization';

function expandedHeaders(key: string, variants: AuthVariant[]): string[][] {
  const lines = variants.map((v) =>
    curlLine({ method: 'GET', url: 'https://api.example.test/v1/pets', headers: { Accept: 'application/json', ...(v.authorization ? { [headerOf(v)]: v.authorization.shown } : {}) } }),
  );
  const script = lines.map((line) => `printf '%s\\0' ${line.slice('curl '.length)} '${END}'`).join('\n');
  const out = execFileSync('sh', ['-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', API_KEY: key },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 5_000,
  });
  const groups: string[][] = [[]];
  for (const arg of out.split('\0').slice(0, -1)) {
    if (arg === END) groups.push([]);
    else groups[groups.length - 1]!.push(arg);
  }
  groups.pop();
  expect(groups).toHaveLength(variants.length);
  return groups.map((argv) => argv.flatMap((arg, i) => (argv[i - 1] === '-H' && !/^accept:/i.test(arg) ? [arg] : [])));
}

describe('badAuthorizations', () => {
  it('none is exactly Bearer <key> (nor bearer <key> in another case); no shown form holds the key (200 keys)', () => {
    fc.assert(
      fc.property(apiKey, (key) => {
        const variants = badAuthorizations(key);
        for (const { id, authorization } of variants) {
          if (!authorization) continue;
          expect(authorization.value, id).not.toBe(`Bearer ${key}`);
          expect(bearerToken(authorization.value)?.trim(), id).not.toBe(key);
          expect(authorization.shown, id).not.toContain(key);
          for (const near of Object.values(nearMissKeys(key))) expect(authorization.shown, id).not.toContain(near);
        }
        expect(new Set(variants.map((v) => v.id)).size).toBe(variants.length);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('includes no Authorization at all, and a key without its scheme', () => {
    const variants = badAuthorizations('k'.repeat(32));
    expect(variants.some((v) => v.authorization === null)).toBe(true);
    expect(variants.some((v) => v.authorization?.value === 'k'.repeat(32) && !v.authorization.header)).toBe(true);
  });

  it('sends the key in X-API-Key, Api-Key, X-Auth-Token, X-Access-Token and an api_key cookie with no Authorization, shown as $API_KEY, and no key from 127.0.0.1 as the forwarding headers say', () => {
    const variants = badAuthorizations('sk_Live-42aB');
    expect(variants.filter((v) => v.authorization?.header !== undefined).map((v) => v.authorization)).toEqual([
      ...['X-API-Key', 'Api-Key', 'X-Auth-Token', 'X-Access-Token'].map((header) => ({ value: 'sk_Live-42aB', shown: '$API_KEY', header })),
      { value: 'api_key=sk_Live-42aB', shown: 'api_key=$API_KEY', header: 'Cookie' },
      ...['X-Forwarded-For', 'X-Real-IP'].map((header) => ({ value: '127.0.0.1', shown: '127.0.0.1', header })),
      { value: 'for=127.0.0.1', shown: 'for=127.0.0.1', header: 'Forwarded' },
    ]);
  });

  it('sends the key with its first character percent-encoded only where that is an ASCII letter or digit, and the key followed by ==', () => {
    expect(badAuthorizations('sk_Live-42aB').map((v) => v.authorization?.value)).toEqual(expect.arrayContaining(['Bearer %73k_Live-42aB', 'Bearer sk_Live-42aB==']));
    expect(badAuthorizations('_k_Live-42aB').some((v) => v.authorization?.value.startsWith('Bearer %'))).toBe(false);
  });

  it('sends the raw key under the Basic and the Token scheme, for a server that compares what follows any scheme', () => {
    const key = 'sk_Live-42aB';
    const variants = badAuthorizations(key);
    for (const scheme of ['Basic', 'Token']) {
      expect(variants.find((v) => v.authorization?.value === `${scheme} ${key}`)?.authorization?.shown).toBe(`${scheme} $API_KEY`);
    }
  });

  it('sends the key as a Basic password and the key followed by another word, for a server that reuses a Basic check or compares the second word', () => {
    const key = 'sk_Live-42aB';
    const values = badAuthorizations(key).map((v) => v.authorization?.value);
    expect(values).toContain(`Basic ${Buffer.from(`user:${key}`).toString('base64')}`);
    expect(values).toContain(`Bearer ${key} x`);
  });

  it('sends the key with its letters in the other case and the key without its last character', () => {
    const values = badAuthorizations('sk_Live-42aB').map((v) => v.authorization?.value);
    expect(values).toContain('Bearer SK_lIVE-42Ab');
    expect(values).toContain('Bearer sk_Live-42a');
  });

  it('sends the key with its last, first and a middle character replaced, each as long as the key (x, or y for an x)', () => {
    const values = badAuthorizations('sk_Live-42aB').map((v) => v.authorization?.value);
    for (const value of ['Bearer sk_Live-42ax', 'Bearer xk_Live-42aB', 'Bearer sk_Livx-42aB']) expect(values).toContain(value);
    expect(badAuthorizations('xax').map((v) => v.authorization?.value)).toEqual(expect.arrayContaining(['Bearer xay', 'Bearer yax', 'Bearer xxx']));
  });

  it('sends a key of digits also as the same number written otherwise: after a 0, followed by .0, after a +', () => {
    const values = (key: string) => badAuthorizations(key).map((v) => v.authorization?.value);
    expect(values('4815162342')).toEqual(expect.arrayContaining(['Bearer 04815162342', 'Bearer 4815162342.0', 'Bearer +4815162342']));
    expect(values('4815162342x').filter((value) => value?.endsWith('.0'))).toEqual([]);
  });

  it('sends a JWT of {} and {} with an empty signature, and an HS256 JWT that verifies under another secret than any key', () => {
    const values = badAuthorizations('sk_Live-42aB').map((v) => v.authorization?.value);
    expect(values).toEqual(expect.arrayContaining(['Bearer e30.e30.', `Bearer ${FOREIGN_JWTS.wronglySigned}`]));
    const [header, payload, signature] = FOREIGN_JWTS.wronglySigned.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual({ sub: 'animal-store-conformance' });
    expect(signature).toBe(createHmac('sha256', 'not-the-api-key').update(`${header}.${payload}`).digest('base64url'));
  });

  it('sends the key without its first character, after another character, glued to the scheme and quoted, and the words undefined and null', () => {
    const values = badAuthorizations('sk_Live-42aB').map((v) => v.authorization?.value);
    for (const value of ['Bearer k_Live-42aB', 'Bearer xsk_Live-42aB', 'Bearersk_Live-42aB', 'Bearer "sk_Live-42aB"', 'Bearer undefined', 'Bearer null']) expect(values).toContain(value);
  });

  it('sends a case-swapped key only for a key of both cases, and no empty cut key', () => {
    const jwts = Object.values(FOREIGN_JWTS).map((jwt) => `Bearer ${jwt}`);
    const fixed = (key: string) => [`Bearer ${key}x`, `Bearer ${key} x`, `Bearer x${key}`, `Bearer "${key}"`, 'Bearer undefined', 'Bearer null', ...jwts];
    const count = (key: string) => badAuthorizations(key).filter((v) => v.authorization?.value.startsWith('Bearer ') && !fixed(key).includes(v.authorization.value)).length;
    // Besides the cut, case-swapped and one-character-replaced keys (none replaced of a key under 3 characters): the first character percent-encoded (an ASCII letter or digit) and the key followed by ==.
    expect(count('0123-4567_89')).toBe(7);
    expect(count('deadbeef0042')).toBe(7);
    expect(count('DEADBEEF0042')).toBe(7);
    expect(count('sk_Live-42aB')).toBe(8);
    expect(count('K')).toBe(2);
    expect(count('abcd1234'), 'a key of exactly 8 characters is not cut: 7 would be redacted only as a token').toBe(5);
    expect(count('abcd12345')).toBe(7);
    expect(count('7'), 'a key of digits: also 07, 7.0 and +7').toBe(5);
    for (const key of ['0123-4567_89', 'deadbeef0042', 'K', '7']) {
      const values = badAuthorizations(key).map((v) => v.authorization?.value);
      const sent = badAuthorizations(key).map((v) => `${headerOf(v)}: ${v.authorization?.value}`);
      expect(new Set(sent).size, key).toBe(sent.length);
      expect(values, key).not.toContain('Bearer ');
    }
  });

  it('shows each variant in a form that a POSIX sh expands to what was sent (keys of 16 to 56 characters)', () => {
    const keys = fc.sample(fc.stringMatching(/^[A-Za-z0-9._~+/-]{16,56}$/), { seed: SEED, numRuns: 8 });
    for (const key of keys) {
      const variants = badAuthorizations(key).filter((v) => v.authorization !== null);
      const headers = expandedHeaders(key, variants);
      variants.forEach((v, i) => expect(headers[i], v.id).toEqual([v.authorization!.value === '' ? `${headerOf(v)};` : `${headerOf(v)}: ${v.authorization!.value}`]));
    }
  });

  it('shows the Basic variants in a form a POSIX sh expands to what was sent, for a 64-character key', () => {
    const key = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4Y5z6A7b8C9d0E1f2';
    expect(key).toHaveLength(64);
    const basic = badAuthorizations(key).filter((v) => v.id === 'Basic scheme' || v.id === 'Basic scheme with the key as the password');
    expect(basic).toHaveLength(2);
    expect(expandedHeaders(key, basic)).toEqual(basic.map((v) => [`Authorization: ${v.authorization!.value}`]));
  });
});

describe('wrongBearer', () => {
  it('never yields the key, even for keys a random token can hit (200 draws)', () => {
    const shortKey = fc.oneof(fc.constantFrom('a', 'A', '0', 'ab', '-', 'a='), fc.stringMatching(/^[A-Za-z0-9]{1,2}$/));
    fc.assert(
      fc.property(
        shortKey.chain((key) => fc.tuple(fc.constant(key), wrongBearer(key))),
        ([key, variant]) => {
          expect(variant.authorization).not.toBeNull();
          const { value, shown } = variant.authorization!;
          expect(value).not.toBe(`Bearer ${key}`);
          expect(bearerToken(value)).not.toBe(key);
          expect(shown).toBe(value);
        },
      ),
      { numRuns: 200, seed: SEED },
    );
  });

  it('never yields a realistic key (200 draws)', () => {
    fc.assert(
      fc.property(apiKey.chain((key) => fc.tuple(fc.constant(key), wrongBearer(key))), ([key, variant]) => {
        expect(variant.authorization!.value).not.toBe(`Bearer ${key}`);
        expect(variant.authorization!.shown).not.toContain(key);
      }),
      { numRuns: 200, seed: SEED },
    );
  });
});

describe('validAuthorization', () => {
  it('sends Bearer <key> and shows Bearer $API_KEY', () => {
    const key = 'k'.repeat(40);
    expect(validAuthorization(key).authorization).toEqual({ value: `Bearer ${key}`, shown: 'Bearer $API_KEY' });
  });
});
