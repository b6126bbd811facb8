/**
 * Staging as it stands (issue 19): the CLI, as a user runs it, against the reference server behind
 * real loopback components: an HTTPS gateway with a private CA, a path prefix and a header of its
 * own (and, for mutual TLS, a client certificate), reached through a forward proxy with credentials.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { keyForms } from '../../src/secrets.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { CERTS, startGateway, type Gateway } from '../support/gateway.ts';
import { BIN, runCli, type CliResult } from '../support/run-cli.ts';
import { shows } from '../support/secrets.ts';

const KEY = 'reach-test-key-7c41d09e';
const TOKEN = 'gateway-token-5be2a9f0';
const PROXY_USER = 'ci-robot';
const PROXY_PASSWORD = 'proxy-pw-3d8e61';
const SECRETS = [...keyForms(KEY), TOKEN, PROXY_USER, PROXY_PASSWORD, Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')];

/** Every output of a run: stdout, stderr and every file it wrote. */
function outputs(result: CliResult): [string, string][] {
  return [['stdout', result.stdout], ['stderr', result.stderr], ...Object.entries(result.files)];
}

function expectNoSecret(result: CliResult): void {
  for (const [where, text] of outputs(result)) for (const secret of SECRETS) expect(shows(text, secret), `${secret} in ${where}`).toBe(false);
}

describe('a staging target behind a proxy, a gateway and a private CA', () => {
  let reference: RunningReference;
  let faulty: RunningReference;
  let gateway: Gateway;
  let faultyGateway: Gateway;
  let proxy: ForwardProxy;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    faulty = await startReference({ apiKey: KEY, deviations: ['fault-orders-missing'] });
    const required = { name: 'X-Gateway-Token', value: TOKEN };
    gateway = await startGateway({ routes: { '/animal-store': reference.baseUrl, '/quickstart': reference.messagesBaseUrl }, requiredHeader: required });
    faultyGateway = await startGateway({ routes: { '/animal-store': faulty.baseUrl }, requiredHeader: required, echoHeader: 'X-Debug-Token' });
    proxy = await startForwardProxy({ user: PROXY_USER, password: PROXY_PASSWORD });
  });
  afterAll(async () => {
    await Promise.all([proxy.close(), gateway.close(), faultyGateway.close(), reference.close(), faulty.close()]);
  });

  const env = (target: Gateway, extra: Record<string, string> = {}) => ({
    API_KEY: KEY,
    BASE_URL: `${target.origin}/animal-store`,
    HTTPS_PROXY: proxy.urlWithCredentials,
    EXTRA_HEADERS: `X-Gateway-Token: ${TOKEN}`,
    ...extra,
  });

  it('runs the whole suite through the proxy, with the gateway header on every request, and lists what it created', async () => {
    const before = proxy.requests.length;
    const seen = gateway.seen.length;
    const result = await runCli(['--env', 'staging', '--ca-file', CERTS.ca, '--runs', '3', '--seed', '19'], env(gateway, { MESSAGES_BASE_URL: `${gateway.origin}/quickstart` }));
    expect(result.code, result.stderr + result.stdout.slice(-2000)).toBe(0);
    expect(result.stdout).toContain('BASE_URL (environment) is checked as staging');
    expect(result.stdout).toContain(`${gateway.origin}/animal-store [staging]`);
    expect(result.report?.target).toMatchObject({ baseUrl: `${gateway.origin}/animal-store`, messagesBaseUrl: `${gateway.origin}/quickstart`, env: 'staging' });
    // Every connection went through the proxy as a tunnel to the gateway, with the proxy's credentials.
    const tunnels = proxy.requests.slice(before);
    expect(tunnels.length).toBeGreaterThan(0);
    for (const tunnel of tunnels) expect(tunnel).toEqual({ method: 'CONNECT', target: new URL(gateway.origin).host, authorization: `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}` });
    const requests = gateway.seen.slice(seen);
    expect(requests.length).toBeGreaterThan(300);
    for (const request of requests) {
      expect(request.headers['x-gateway-token']).toBe(TOKEN);
      // Under either base URL, in any spelling the alias probes send (/quickstart/MESSAGES, //messages, /animal-store/messages ...).
      expect(request.path).toMatch(/^\/(animal-store\/(v1\/|messages|v1\/messages)|quickstart\/)/);
    }
    // The trail: every animal and message created, with its id, for clean-up.
    const created = JSON.parse(result.files['created.json'] ?? '{}') as { seed: number; animals: { id: string; name: string }[]; messages: { id: string }[] };
    expect(created.seed).toBe(19);
    const posted = (path: string) => requests.filter((r) => r.method === 'POST' && r.path === path).length;
    expect(created.animals.length).toBeGreaterThan(0);
    expect(created.animals.length).toBeLessThanOrEqual(posted('/animal-store/v1/pets'));
    expect(created.messages.length).toBeGreaterThan(0);
    for (const animal of created.animals) expect(animal.id).toMatch(/^\d+$/);
    expect(new Set(created.animals.map((a) => a.id)).size).toBe(created.animals.length);
    expect(result.stdout).toContain(`Created on the target: ${created.animals.length} animals and ${created.messages.length} messages`);
    expect(result.files['summary.md']).toContain(`Created on the target: ${created.animals.length} animals`);
    expect(result.files['.created.jsonl']).toBeUndefined();
    expectNoSecret(result);
  });

  it('shows the gateway header as a variable in curl lines and redacts its value where the gateway echoes it', async () => {
    const result = await runCli(['--env', 'staging', '--ca-file', CERTS.ca, '--runs', '2', '--seed', '3', '--only', '4.4'], env(faultyGateway));
    expect(result.code).toBe(1);
    const failure = JSON.stringify(result.report?.clauses.find((c) => c.id === 'orders.exists'));
    expect(failure).toContain(`curl -sS -i -X GET '${faultyGateway.origin}/animal-store/v1/store/orders'`);
    expect(failure).toContain(`-H \\"X-Gateway-Token: $HEADER_X_GATEWAY_TOKEN\\"`);
    expect(result.stdout).toContain('Note: the curl lines read the gateway header from $HEADER_X_GATEWAY_TOKEN');
    expect(faultyGateway.seen.length).toBeGreaterThan(0);
    expectNoSecret(result);
  });

  it('stops before any test, exit 3, on a certificate it cannot verify: one line naming the host and the reason', async () => {
    const seen = gateway.seen.length;
    const result = await runCli(['--env', 'staging', '--runs', '2'], env(gateway));
    expect(result.code).toBe(3);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${new URL(gateway.origin).host}: TLS failed, its certificate is not signed by a CA the suite trusts: give that CA with --ca-file`);
    expect(result.files).toEqual({});
    expect(gateway.seen.length).toBe(seen);
    expectNoSecret(result);
  });

  it('says an https:// URL reached a server speaking plain http, in one line, exit 3', async () => {
    const result = await runCli(['--base-url', reference.baseUrl.replace(/^http:/, 'https:'), '--runs', '2', '--only', '4.4'], { API_KEY: KEY });
    expect(result.code).toBe(3);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('TLS failed, it answered in plain text, not TLS: it may speak plain http (try an http:// URL)');
  });

  it('trusts a CA given by NODE_EXTRA_CA_CERTS, as Node does, with no --ca-file', async () => {
    const result = await runCli(['--env', 'staging', '--runs', '2', '--only', '4.4'], env(gateway, { NODE_EXTRA_CA_CERTS: CERTS.ca }));
    expect(result.code, result.stderr).toBe(0);
    expectNoSecret(result);
  });

  it('stops, exit 3, when the proxy refuses the credentials, without printing them', async () => {
    const wrong = proxy.urlWithCredentials.replace(PROXY_PASSWORD, `${PROXY_PASSWORD}-wrong`);
    const result = await runCli(['--env', 'staging', '--ca-file', CERTS.ca, '--proxy', wrong], env(gateway));
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/the proxy http:\/\/127\.0\.0\.1:\d+ \(with credentials\) refused it with 407: check the credentials in the proxy URL/);
    expect(result.stderr).not.toContain(`${PROXY_PASSWORD}-wrong`);
    expectNoSecret(result);
  });

  it('goes straight to a host NO_PROXY names', async () => {
    const before = proxy.requests.length;
    const result = await runCli(['--env', 'staging', '--ca-file', CERTS.ca, '--runs', '2', '--only', '4.4'], env(gateway, { NO_PROXY: 'localhost,127.0.0.1' }));
    expect(result.code).toBe(0);
    expect(proxy.requests.length).toBe(before);
    expect(result.stdout).not.toContain(' · via ');
  });
});

describe('mutual TLS', () => {
  let reference: RunningReference;
  let gateway: Gateway;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    gateway = await startGateway({ routes: { '/animal-store': reference.baseUrl }, clientCertificate: true });
  });
  afterAll(async () => {
    await Promise.all([gateway.close(), reference.close()]);
  });
  it('says, before any test, that the server wants a client certificate, and runs with one', async () => {
    const base = { API_KEY: KEY, BASE_URL: `${gateway.origin}/animal-store` };
    const without = await runCli(['--env', 'staging', '--ca-file', CERTS.ca, '--runs', '2', '--only', '4.4'], base);
    expect(without.code).toBe(3);
    expect(without.stderr.trim().split('\n')).toHaveLength(1);
    expect(without.stderr).toContain(`${new URL(gateway.origin).host}: TLS failed, it asks for a client certificate: give --client-cert and --client-key`);
    const seen = gateway.seen.length;
    const withCert = await runCli(['--env', 'staging', '--ca-file', CERTS.ca, '--client-cert', CERTS.clientCert, '--client-key', CERTS.clientKey, '--runs', '2', '--only', '4.4'], base);
    expect(withCert.code, withCert.stderr).toBe(0);
    const requests = gateway.seen.slice(seen);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.clientCertificate)).toBe(true);
    expectNoSecret(without);
    expectNoSecret(withCert);
  });
});

/** Containers may run without IPv6 on loopback: there the IPv6 run is skipped (the settings tests still parse [::1]). */
const ipv6 = await new Promise<boolean>((resolve) => {
  const probe = createServer().once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

describe.skipIf(!ipv6)('an http:// target on an IPv6 literal under a path prefix, through HTTP_PROXY', () => {
  let reference: RunningReference;
  let gateway: Gateway;
  let proxy: ForwardProxy;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    gateway = await startGateway({ routes: { '/animal-store': reference.baseUrl, '/quickstart': reference.messagesBaseUrl }, tls: false, host: '::1' });
    proxy = await startForwardProxy();
  });
  afterAll(async () => {
    await Promise.all([proxy.close(), gateway.close(), reference.close()]);
  });

  it('sends absolute-form requests to the proxy with the full URL, and shows it in the report', async () => {
    const result = await runCli(['--runs', '2', '--seed', '4', '--only', '4.1', '--only', '4.5'], {
      API_KEY: KEY,
      BASE_URL: `${gateway.origin}/animal-store`,
      MESSAGES_BASE_URL: `${gateway.origin}/quickstart`,
      HTTP_PROXY: proxy.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(gateway.origin).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect(result.report?.target.baseUrl).toBe(`${gateway.origin}/animal-store`);
    const targets = proxy.requests.map((r) => `${r.method} ${r.target}`);
    expect(targets).toContain(`GET ${gateway.origin}/animal-store/v1/pets?limit=1`);
    expect(targets.some((t) => t.startsWith(`POST ${gateway.origin}/quickstart/messages`))).toBe(true);
    expect(proxy.requests.every((r) => r.target.startsWith(`${gateway.origin}/`))).toBe(true);
    expectNoSecret(result);
  });
});

describe('npx animal-store-conformance reference', () => {
  it('starts the reference server from the package, on the ports given', async () => {
    const child = spawn(process.execPath, [BIN, 'reference', '--port', '0', '--messages-port', '0', '--api-key', 'dev-key-for-test', '--deviation', 'fault-orders-missing'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no base URL printed: ${out}`)), 30_000);
        child.stdout.on('data', () => {
          const found = /\bbaseUrl:\s+(\S+)/.exec(out)?.[1];
          if (found && /messagesBaseUrl:/.test(out)) {
            clearTimeout(timer);
            resolve(found);
          }
        });
      });
      expect(out).toContain('deviations: fault-orders-missing');
      const answer = await fetch(`${baseUrl}/v1/store/orders`, { headers: { Authorization: 'Bearer dev-key-for-test' } });
      await answer.arrayBuffer();
      expect(answer.status).toBe(404);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    }
  });

  it('prints its own help', async () => {
    const child = spawn(process.execPath, [BIN, 'reference', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: npx animal-store-conformance reference \[options\]/);
  });
});
