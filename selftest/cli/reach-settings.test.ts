import { describe, expect, it } from 'vitest';
import { main, type Io } from '../../src/cli.ts';
import { resolveSettings } from '../../src/config/settings.ts';
import { CERTS } from '../support/gateway.ts';

const cwd = '/nonexistent-dir-without-dotenv';
const TARGET = { BASE_URL: 'https://gw.example.com/animal-store', API_KEY: 'k-0123456789' };

function capture(): Io & { text: () => string } {
  let out = '';
  return { out: (t) => (out += t), err: (t) => (out += t), isTty: false, text: () => out };
}

describe('gateway headers: --header and EXTRA_HEADERS', () => {
  it('takes repeated --header flags, each with the variable a curl line reads', () => {
    const settings = resolveSettings(['--header', 'X-Gateway-Token: tok en:42', '--header', 'x-tenant-id:acme'], TARGET, cwd);
    expect(settings.network.headers).toEqual([
      { name: 'X-Gateway-Token', value: 'tok en:42', variable: 'HEADER_X_GATEWAY_TOKEN' },
      { name: 'x-tenant-id', value: 'acme', variable: 'HEADER_X_TENANT_ID' },
    ]);
    expect(settings.otherSecrets).toEqual(['tok en:42', 'acme']);
  });

  it('reads EXTRA_HEADERS one header per line, and --header wins over it', () => {
    const env = { ...TARGET, EXTRA_HEADERS: 'X-Gateway-Token: abc\r\nX-Tenant: acme\n' };
    expect(resolveSettings([], env, cwd).network.headers?.map((h) => `${h.name}=${h.value}`)).toEqual(['X-Gateway-Token=abc', 'X-Tenant=acme']);
    expect(resolveSettings(['--header', 'X-Other: 1'], env, cwd).network.headers?.map((h) => h.name)).toEqual(['X-Other']);
  });

  const refused: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [['--header', 'Authorization: Basic abc'], {}, /^--header: Authorization would replace a header the suite sends \(the key goes in Authorization \(API_KEY\)\)$/],
    [['--header', 'content-type: text/plain'], {}, /^--header: content-type would replace a header the suite sends/],
    [['--header', 'Host: other.example.com'], {}, /^--header: Host would replace a header the suite sends/],
    [[], { EXTRA_HEADERS: 'X-Ok: 1\nAUTHORIZATION: x' }, /^EXTRA_HEADERS \(environment\): AUTHORIZATION would replace/],
    [['--header', 'no colon here'], {}, /^--header: expected 'Name: value'/],
    [['--header', 'Bad Name: v'], {}, /^--header: expected 'Name: value'/],
    [['--header', 'X-A: 1', '--header', 'x-a: 2'], {}, /^--header: x-a is given twice$/],
  ];
  it.each(refused)('refuses %j', (argv, env, message) => {
    expect(() => resolveSettings(argv, { ...TARGET, ...env }, cwd)).toThrow(message);
  });

  it('ends a run that would replace Authorization with exit 2 and one line, the value not in it', async () => {
    const io = capture();
    const code = await main(['--header', 'Authorization: Bearer gateway-secret-value', '--dry-run'], io, { ...TARGET });
    expect(code).toBe(2);
    expect(io.text().trim().split('\n')).toHaveLength(1);
    expect(io.text()).not.toContain('gateway-secret-value');
  });
});

describe('proxy settings', () => {
  it('reads the lower-case variable first, HTTP_PROXY for https:// without HTTPS_PROXY, and NO_PROXY', () => {
    expect(resolveSettings([], { ...TARGET, https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' }, cwd).network.proxy).toEqual({ https: 'http://lower:1' });
    expect(resolveSettings([], { ...TARGET, HTTP_PROXY: 'proxy.test:3128', NO_PROXY: '.internal' }, cwd).network.proxy).toEqual({
      http: 'http://proxy.test:3128',
      https: 'http://proxy.test:3128',
      noProxy: '.internal',
    });
  });

  it('lets --proxy replace both variables, NO_PROXY still applying', () => {
    const settings = resolveSettings(['--proxy', 'http://u:p%40ss@flag.test:8080'], { ...TARGET, HTTPS_PROXY: 'http://env:1', no_proxy: 'x.test' }, cwd);
    expect(settings.network.proxy).toEqual({ http: 'http://u:p%40ss@flag.test:8080', https: 'http://u:p%40ss@flag.test:8080', noProxy: 'x.test' });
    expect(settings.otherSecrets).toEqual(expect.arrayContaining(['u', 'p@ss', 'p%40ss']));
  });

  it('refuses a proxy it cannot use without repeating its credentials', () => {
    expect(() => resolveSettings(['--proxy', 'socks5://u:hunter22@p.test:1080'], TARGET, cwd)).toThrow(/^--proxy: only http:\/\/ and https:\/\/ proxies are supported, got socks5:$/);
    expect(() => resolveSettings([], { ...TARGET, HTTPS_PROXY: 'http://u:hunter22@p.test:1080/path' }, cwd)).toThrow(/^HTTPS_PROXY: a proxy URL takes no path/);
    expect(() => resolveSettings(['--proxy', 'http://u:hunter22@[bad'], TARGET, cwd)).toThrow(/^--proxy: not a URL/);
  });
});

describe('TLS settings', () => {
  it('reads --ca-file and a matching client certificate and key', () => {
    const settings = resolveSettings(['--ca-file', CERTS.ca, '--client-cert', CERTS.clientCert, '--client-key', CERTS.clientKey], TARGET, cwd);
    expect(settings.network.tls?.ca?.[0]).toContain('-----BEGIN CERTIFICATE-----');
    expect(settings.network.tls?.cert).toContain('-----BEGIN CERTIFICATE-----');
    expect(settings.network.tls?.key).toContain('PRIVATE KEY-----');
  });

  it('keeps NODE_EXTRA_CA_CERTS when --ca-file is given', () => {
    const settings = resolveSettings(['--ca-file', CERTS.ca], { ...TARGET, NODE_EXTRA_CA_CERTS: CERTS.clientCert }, cwd);
    expect(settings.network.tls?.ca).toHaveLength(2);
  });

  const refused: [string[], RegExp][] = [
    [['--ca-file', '/nonexistent/ca.pem'], /^--ca-file: cannot read \/nonexistent\/ca\.pem \(ENOENT\)$/],
    [['--ca-file', CERTS.clientKey], /^--ca-file: .* holds no PEM certificate/],
    [['--client-cert', CERTS.clientCert], /^--client-cert needs --client-key/],
    [['--client-key', CERTS.clientKey], /^--client-key needs --client-cert/],
    [['--client-cert', CERTS.clientCert, '--client-key', CERTS.ca], /^--client-key: .* holds no PEM private key$/],
    [['--client-cert', CERTS.clientCert, '--client-key', CERTS.clientKey.replace('client-key', 'server-key')], /^--client-key: .* is not the key of /],
  ];
  it.each(refused)('refuses %j', (argv, message) => {
    expect(() => resolveSettings(argv, TARGET, cwd)).toThrow(message);
  });
});

describe('--env labels the target given', () => {
  it('checks BASE_URL as staging when STAGING_BASE_URL is unset, and says so', () => {
    const settings = resolveSettings(['--env', 'staging'], TARGET, cwd);
    expect(settings.baseUrl).toBe('https://gw.example.com/animal-store');
    expect(settings.targetNote).toBe('BASE_URL (environment) is checked as staging (--env; no STAGING_BASE_URL is set)');
  });

  it('keeps STAGING_BASE_URL when both are set', () => {
    const settings = resolveSettings(['--env', 'staging'], { ...TARGET, STAGING_BASE_URL: 'https://staging.example.com' }, cwd);
    expect(settings.baseUrl).toBe('https://staging.example.com');
    expect(settings.targetNote).toBeUndefined();
  });

  it('keeps a path prefix and an IPv6 literal in both base URLs', () => {
    const settings = resolveSettings([], { API_KEY: 'k', BASE_URL: 'http://[::1]:8080/animal-store/', MESSAGES_BASE_URL: 'https://[2001:db8::1]/api/quickstart' }, cwd);
    expect(settings.baseUrl).toBe('http://[::1]:8080/animal-store');
    expect(settings.messagesBaseUrl).toBe('https://[2001:db8::1]/api/quickstart');
  });
});
