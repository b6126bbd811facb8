import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.ts';
import { UsageError } from '../../src/errors.ts';
import { main, type Io } from '../../src/cli.ts';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fromPackage } from '../../src/paths.ts';
import { tempDir } from '../support/temp-dir.ts';

function capture(): Io & { text: () => string } {
  let out = '';
  return { out: (t) => (out += t), err: (t) => (out += t), isTty: false, text: () => out };
}

const cwd = '/nonexistent-dir-without-dotenv';

describe('settings: one line naming the setting, exit 2', () => {
  const bad: [string, string[], NodeJS.ProcessEnv, RegExp][] = [
    ['a malformed URL', ['--base-url', 'not a url'], { API_KEY: 'k' }, /--base-url: "not a url" is not a URL/],
    ['/v1 in the base URL', ['--base-url', 'https://api.example.com/v1'], { API_KEY: 'k' }, /leave \/v1 off/],
    ['a remote target without a key', ['--base-url', 'https://api.example.com'], {}, /API_KEY: a target is configured but no key/],
    ['plain http to a remote host', ['--base-url', 'http://api.example.com'], { API_KEY: 'k' }, /refusing to send the API key over plain http/],
    ['an unknown flag', ['--frobnicate'], {}, /Unknown option '--frobnicate'/],
    ['a flag where a value belongs', ['--env', '--dry-run'], {}, /^--env needs a value; see --help$/],
    ['a bad --runs', ['--runs', 'many'], {}, /--runs: expected a whole number/],
    ['a negative --runs, as two arguments', ['--runs', '-5'], {}, /^--runs: expected 1 to 100000, got -5$/],
    ["an empty --runs (--runs '')", ['--runs', ''], {}, /^--runs: expected a whole number, got nothing$/],
    ['a bad --env', ['--env', 'prod'], {}, /--env: expected production or staging/],
    ['staging without its URL', ['--env', 'staging'], {}, /STAGING_BASE_URL/],
    ['production without its URL (an empty BASE_URL secret must not check the embedded server)', ['--env', 'production'], { BASE_URL: '' }, /^--env is production: set BASE_URL/],
    ['STAGING_BASE_URL without --env staging (it would check the embedded server)', [], { STAGING_BASE_URL: 'https://staging.example.com', API_KEY: 'k' }, /^STAGING_BASE_URL \(environment\) is set but the environment is not staging: add --env staging/],
    ['a key with no target (a CI variable unset or misspelt: the embedded server would pass in its place)', [], { API_KEY: 'k', BASE_UR: 'https://api.example.com' }, /^API_KEY is set but no target is: set BASE_URL/],
    ['a bad --now', ['--now', 'yesterday'], {}, /--now: "yesterday" is not an ISO 8601 date/],
    ['a bad --fail-on', ['--fail-on', 'may'], {}, /--fail-on: expected must or should/],
    ['a word in --category-ids', ['--category-ids', '1,cats'], {}, /^--category-ids: expected integers separated by commas \(e\.g\. 1,2,5\), got "1,cats"$/],
    ['an empty item in --category-ids', ['--category-ids', '1,,2'], {}, /--category-ids: expected integers separated by commas/],
    ['a fraction in CATEGORY_IDS', [], { CATEGORY_IDS: '1.5' }, /^CATEGORY_IDS \(environment\): expected integers separated by commas \(e\.g\. 1,2,5\), got "1\.5"$/],
    ['a categoryId beyond int64', ['--category-ids', '9223372036854775808'], {}, /--category-ids: 9223372036854775808 is not an int64/],
  ];
  it.each(bad)('rejects %s', (_name, argv, env, message) => {
    expect(() => resolveSettings(argv, env, cwd)).toThrow(message);
  });

  const fromEnvironment: [string, NodeJS.ProcessEnv, string][] = [
    ['RUNS=abc', { RUNS: 'abc' }, 'RUNS (environment): expected a whole number, got "abc"'],
    ['TIMEOUT_MS=-1', { TIMEOUT_MS: '-1' }, 'TIMEOUT_MS (environment): expected 1 to 600000, got -1'],
    ['MAX_RPS=200000', { MAX_RPS: '200000' }, 'MAX_RPS (environment): expected 0 to 100000, got 200000'],
    ['CONFORMANCE_ENV=prod', { CONFORMANCE_ENV: 'prod' }, 'CONFORMANCE_ENV (environment): expected production or staging, got "prod"'],
    ['CONFORMANCE_ENV=staging alone', { CONFORMANCE_ENV: 'staging' }, 'CONFORMANCE_ENV (environment) is staging: set STAGING_BASE_URL (or --staging-base-url, or BASE_URL)'],
    ['BASE_URL=not a url', { BASE_URL: 'not a url', API_KEY: 'k' }, 'BASE_URL (environment): "not a url" is not a URL (expected e.g. https://api.example.com)'],
    ['NOW=yesterday', { NOW: 'yesterday' }, 'NOW (environment): "yesterday" is not an ISO 8601 date'],
    ['FAIL_ON=may', { FAIL_ON: 'may' }, 'FAIL_ON (environment): expected must or should, got "may"'],
  ];
  it.each(fromEnvironment)('names the variable, not the flag, for %s set in the environment', (_name, env, message) => {
    expect(() => resolveSettings([], env, cwd)).toThrow(new UsageError(message));
  });

  it('names the key file: an empty one, and one whose key differs from API_KEY', async () => {
    const dir = tempDir('asc-key-file-');
    const empty = join(dir, 'empty');
    const other = join(dir, 'other');
    await writeFile(empty, '\n');
    await writeFile(other, 'key-from-file\n');
    expect(() => resolveSettings(['--api-key-file', empty], {}, cwd)).toThrow(new UsageError(`--api-key-file (${empty}): the file is empty`));
    expect(() => resolveSettings(['--api-key-file', other], { API_KEY: 'key-from-env' }, cwd)).toThrow(new UsageError(`API_KEY and --api-key-file (${other}) give two different keys: keep one`));
    const target = ['--base-url', 'https://api.example.com'];
    const same = resolveSettings(['--api-key-file', other, ...target], { API_KEY: 'key-from-file' }, cwd);
    expect([same.apiKey, same.keySource]).toEqual(['key-from-file', `--api-key-file (${other})`]);
    expect(resolveSettings(target, { API_KEY: 'k' }, cwd).keySource).toBe('API_KEY');
    expect(() => resolveSettings(['--api-key-file', other], {}, cwd)).toThrow(`--api-key-file (${other}) is set but no target is`);
  });

  it('names the .env file for a value read from it, and the flag when a flag gave it', async () => {
    const dir = tempDir('asc-dotenv-source-');
    await writeFile(join(dir, '.env'), 'RUNS=abc\n');
    expect(() => resolveSettings([], {}, dir)).toThrow(new UsageError('RUNS (.env): expected a whole number, got "abc"'));
    expect(() => resolveSettings([], { RUNS: '-2' }, dir)).toThrow(new UsageError('RUNS (environment): expected 1 to 100000, got -2'));
    expect(() => resolveSettings(['--seed', 'x'], { SEED: '1' }, dir)).toThrow(new UsageError('--seed: expected a whole number, got "x"'));
    expect(resolveSettings(['--runs', '5'], { RUNS: 'abc' }, dir).runs).toBe(5);
    // An empty variable is unset, as a CI template's blank is.
    expect(resolveSettings([], { RUNS: '' }, cwd).runs).toBe(25);
  });

  it('exits 2 with one line on stderr for a usage error, never echoing the key', async () => {
    const io = capture();
    const code = await main(['--base-url', 'https://api.example.com/v1'], io, { API_KEY: 'x' });
    expect(code).toBe(2);
    expect(io.text().trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 with one line for a malformed --category-ids, as for any other setting', async () => {
    const io = capture();
    expect(await main(['--category-ids', '1;2'], io, {})).toBe(2);
    expect(io.text().trim().split('\n')).toEqual(['animal-store-conformance: --category-ids: expected integers separated by commas (e.g. 1,2,5), got "1;2"']);
  });

  it('reads --category-ids, CATEGORY_IDS and .env alike: int64 decimals, each once, flags first; unset is empty', async () => {
    expect(resolveSettings(['--category-ids', ' 1, 2,5 ,2,-0,9223372036854775807'], {}, cwd).categoryIds).toEqual(['1', '2', '5', '0', '9223372036854775807']);
    expect(resolveSettings([], { CATEGORY_IDS: '-9223372036854775808' }, cwd).categoryIds).toEqual(['-9223372036854775808']);
    expect(resolveSettings(['--category-ids', '3'], { CATEGORY_IDS: '4' }, cwd).categoryIds).toEqual(['3']);
    expect(resolveSettings([], { CATEGORY_IDS: '' }, cwd).categoryIds).toEqual([]);
    const dir = tempDir('asc-category-ids-');
    await writeFile(join(dir, '.env'), 'CATEGORY_IDS=12,13\n');
    expect(resolveSettings([], {}, dir).categoryIds).toEqual(['12', '13']);
  });

  it('lets flags win over the environment, and the environment over nothing', () => {
    const settings = resolveSettings(['--runs', '7', '--base-url', 'http://127.0.0.1:9'], { RUNS: '3', BASE_URL: 'http://127.0.0.1:8', API_KEY: 'k' }, cwd);
    expect(settings.runs).toBe(7);
    expect(settings.baseUrl).toBe('http://127.0.0.1:9');
    expect(resolveSettings([], { RUNS: '3' }, cwd).runs).toBe(3);
  });

  it('treats an empty value (NAME= in .env, as .env.example ships) as unset', () => {
    const settings = resolveSettings([], { CONFORMANCE_ENV: '', FAIL_ON: '', RUNS: ' ', BASE_URL: '' }, cwd);
    expect(settings.env).toBeUndefined();
    expect(settings.failOn).toBe('must');
    expect(settings.baseUrl).toBeUndefined();
  });

  it('refuses an --only or --skip that names nothing, before any request', async () => {
    const io = capture();
    expect(await main(['--only', 'nosuch', '--skip', '4.9'], io, {})).toBe(2);
    expect(io.text()).toMatch(/"nosuch", "4\.9" names no section, operation or clause/);
  });

  it('needs no settings at all: no base URL means the embedded reference server', () => {
    const settings = resolveSettings([], {}, cwd);
    expect(settings.baseUrl).toBeUndefined();
    expect(settings.command).toBe('run');
  });
});

describe('--help', () => {
  async function help(): Promise<string> {
    const io = capture();
    expect(await main(['--help'], io, {})).toBe(0);
    return io.text();
  }

  it('lists every setting .env.example documents, API_KEY included', async () => {
    const text = await help();
    const variables = [...readFileSync(fromPackage('.env.example'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect(variables).toContain('API_KEY');
    // Each as a setting of its own: beside its flag (`--runs VALUE [RUNS]`), or on a line of its own.
    expect(variables.filter((name) => !new RegExp(`\\[${name}\\]|^ {2}${name} `, 'm').test(text))).toEqual([]);
  });

  it('gives exit code 3 both causes the README gives: an unreachable target, and a MUST clause the target left unjudged (429s, or no categoryId taken)', async () => {
    const three = /^ {2}3 {2}(.*(?:\n {5}.*)*)/m.exec(await help())?.[1] ?? '';
    for (const cause of [/unreachable/, /429/, /categoryId/, /--category-ids/]) expect(three).toMatch(cause);
  });
});
