import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import type { GatewayHeader, NetworkOptions, ProxySettings, TlsSettings } from '../http/network-options.ts';

/** What the network settings are read from: each value with the name errors give it. */
export interface NetworkInput {
  proxy?: { value: string; setting: string };
  headers?: { values: string[]; setting: string };
  caFile?: { value: string; setting: string };
  clientCert?: { value: string; setting: string };
  clientKey?: { value: string; setting: string };
  /** Reads a variable from the environment, else .env; empty counts as unset. */
  variable: (name: string) => string | undefined;
  /** NODE_EXTRA_CA_CERTS as Node itself reads it: from the process environment only. */
  extraCaCerts?: string;
}

/** Headers the suite sets itself, or that undici or the proxy manage: a gateway header may not replace them. */
const RESERVED: Record<string, string> = {
  authorization: 'the key goes in Authorization (API_KEY)',
  'content-type': 'the checks set Content-Type themselves',
  host: 'Host is taken from the base URL',
  'content-length': 'the client sets the length',
  'transfer-encoding': 'the client sets the framing',
  connection: 'the client manages connections',
  accept: 'the checks set Accept themselves',
  'accept-encoding': 'the checks ask for identity',
  'proxy-authorization': 'put the proxy credentials in the proxy URL',
};

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The environment variable a curl line reads a gateway header from: X-Tenant-Id → HEADER_X_TENANT_ID. */
export function headerVariable(name: string): string {
  return `HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

function gatewayHeaders(values: string[], setting: string): GatewayHeader[] {
  const headers: GatewayHeader[] = [];
  for (const item of values) {
    const colon = item.indexOf(':');
    const name = colon === -1 ? item.trim() : item.slice(0, colon).trim();
    if (colon === -1 || !TOKEN.test(name)) throw new UsageError(`${setting}: expected 'Name: value', got a line without a header name and colon`);
    const value = item.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`${setting}: the value of ${name} holds a line break`);
    const reserved = RESERVED[name.toLowerCase()];
    if (reserved) throw new UsageError(`${setting}: ${name} would replace a header the suite sends (${reserved})`);
    const variable = headerVariable(name);
    if (headers.some((other) => other.name.toLowerCase() === name.toLowerCase() || other.variable === variable)) throw new UsageError(`${setting}: ${name} is given twice`);
    headers.push({ name, value, variable });
  }
  return headers;
}

/** curl's rule: a proxy without a scheme is http://. */
function proxyUrl(text: string, setting: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim()) ? text.trim() : `http://${text.trim()}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // The text may hold credentials: it is not repeated.
    throw new UsageError(`${setting}: not a URL (expected e.g. http://proxy.example.com:3128)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${setting}: only http:// and https:// proxies are supported, got ${url.protocol}`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) throw new UsageError(`${setting}: a proxy URL takes no path, query or fragment`);
  return url.href.replace(/\/$/, '');
}

/**
 * HTTPS_PROXY for https:// targets, HTTP_PROXY for http:// ones (and for https:// when HTTPS_PROXY
 * is unset), NO_PROXY for the exceptions; the lower-case name first, as undici's EnvHttpProxyAgent
 * reads them. --proxy replaces both proxies; NO_PROXY still applies, as with curl's --proxy.
 */
function proxySettings(input: NetworkInput): ProxySettings | undefined {
  const read = (name: string) => {
    for (const variable of [name.toLowerCase(), name]) {
      const value = input.variable(variable);
      if (value !== undefined) return { value, setting: variable };
    }
    return undefined;
  };
  const http = input.proxy ?? read('HTTP_PROXY');
  const https = input.proxy ?? read('HTTPS_PROXY') ?? http;
  const noProxy = read('NO_PROXY')?.value;
  if (!http && !https) return undefined;
  const settings: ProxySettings = {};
  if (http) settings.http = proxyUrl(http.value, http.setting);
  if (https) settings.https = proxyUrl(https.value, https.setting);
  if (noProxy) settings.noProxy = noProxy;
  return settings;
}

function readPem(setting: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function certificate(setting: string, path: string): { pem: string; cert: X509Certificate } {
  const pem = readPem(setting, path);
  try {
    return { pem, cert: new X509Certificate(pem) };
  } catch {
    throw new UsageError(`${setting}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
}

function tlsSettings(input: NetworkInput): TlsSettings | undefined {
  const tls: TlsSettings = {};
  if (input.caFile) {
    const ca = [certificate(input.caFile.setting, input.caFile.value).pem];
    // A `ca` replaces Node's store, NODE_EXTRA_CA_CERTS included: those are given again.
    if (input.extraCaCerts) {
      try {
        ca.unshift(readFileSync(input.extraCaCerts, 'utf8'));
      } catch {
        // Node itself warns at start-up about a file it cannot read.
      }
    }
    tls.ca = ca;
  }
  const { clientCert, clientKey } = input;
  if (clientCert && !clientKey) throw new UsageError(`${clientCert.setting} needs --client-key (CLIENT_KEY) too`);
  if (clientKey && !clientCert) throw new UsageError(`${clientKey.setting} needs --client-cert (CLIENT_CERT) too`);
  if (clientCert && clientKey) {
    const { pem, cert } = certificate(clientCert.setting, clientCert.value);
    const keyPem = readPem(clientKey.setting, clientKey.value);
    let key;
    try {
      key = createPrivateKey(keyPem);
    } catch (error) {
      const encrypted = /passphrase|encrypted/i.test((error as Error).message) || keyPem.includes('ENCRYPTED');
      throw new UsageError(`${clientKey.setting}: ${clientKey.value} ${encrypted ? 'is encrypted; give the key without a passphrase' : 'holds no PEM private key'}`);
    }
    if (!cert.checkPrivateKey(key)) throw new UsageError(`${clientKey.setting}: ${clientKey.value} is not the key of ${clientCert.value}`);
    tls.cert = pem;
    tls.key = keyPem;
  }
  return tls.ca || tls.cert ? tls : undefined;
}

export function resolveNetwork(input: NetworkInput): NetworkOptions {
  const network: NetworkOptions = {};
  const proxy = proxySettings(input);
  if (proxy) network.proxy = proxy;
  const tls = tlsSettings(input);
  if (tls) network.tls = tls;
  const headers = input.headers ? gatewayHeaders(input.headers.values, input.headers.setting) : [];
  if (headers.length) network.headers = headers;
  return network;
}
