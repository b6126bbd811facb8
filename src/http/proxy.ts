import { BlockList, isIP } from 'node:net';
import type { ProxySettings } from './network-options.ts';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

interface NoProxyRule {
  host: string;
  port: number;
}

const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** `NO_PROXY` split on commas and white space; an IPv6 entry may be bare (`::1`) or bracketed with a port (`[::1]:8080`). */
function noProxyRules(value: string): { rules: NoProxyRule[]; ranges: BlockList; all: boolean } {
  const rules: NoProxyRule[] = [];
  const ranges = new BlockList();
  let all = false;
  for (const entry of value.split(/[,\s]+/).filter(Boolean)) {
    if (entry === '*') {
      all = true;
      continue;
    }
    const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
    const family = cidr ? isIP(unbracket(cidr[1]!)) : 0;
    if (cidr && family) {
      ranges.addSubnet(unbracket(cidr[1]!), Number(cidr[2]), family === 6 ? 'ipv6' : 'ipv4');
      continue;
    }
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const withPort = /^([^:]+):(\d+)$/.exec(entry);
    const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : withPort ? [withPort[1]!, withPort[2]] : [entry, undefined];
    // A leading `.` or `*.` means the domain and every name under it, as for curl and undici.
    rules.push({ host: unbracket(host).replace(/^\*?\./, ''), port: port ? Number(port) : 0 });
  }
  return { rules, ranges, all };
}

/** Whether NO_PROXY exempts this URL from the proxy: the rules curl and undici's EnvHttpProxyAgent share, with CIDR ranges as curl takes them. */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const { rules, ranges, all } = noProxyRules(noProxy);
  if (all) return true;
  const host = unbracket(url.hostname);
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  const family = isIP(host);
  if (family && ranges.check(host, family === 6 ? 'ipv6' : 'ipv4')) return true;
  return rules.some((rule) => (!rule.port || rule.port === port) && (host === rule.host || host.endsWith(`.${rule.host}`)));
}

/** The proxy a request to `url` goes through, if any. */
export function proxyFor(url: URL, proxy: ProxySettings | undefined): string | undefined {
  if (!proxy) return undefined;
  const chosen = url.protocol === 'https:' ? proxy.https : proxy.http;
  if (!chosen || bypassesProxy(url, proxy.noProxy)) return undefined;
  return chosen;
}

/** The proxy URL as it may be shown: without its credentials. */
export function shownProxy(proxy: string): string {
  const url = new URL(proxy);
  const withCredentials = url.username !== '' || url.password !== '';
  url.username = '';
  url.password = '';
  return `${url.origin}${withCredentials ? ' (with credentials)' : ''}`;
}

const basicCredentials = (url: URL) => `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;

/** The Proxy-Authorization value for a proxy URL that carries credentials. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  return `Basic ${Buffer.from(basicCredentials(proxy)).toString('base64')}`;
}

/** The secrets a proxy URL holds: its user name, password and the Basic token built from them. */
export function proxySecrets(proxy: string | undefined): string[] {
  if (!proxy) return [];
  const url = new URL(proxy);
  const authorization = proxyAuthorization(url);
  if (!authorization) return [];
  const credentials = basicCredentials(url);
  return [decodeURIComponent(url.username), decodeURIComponent(url.password), url.username, url.password, credentials, authorization.slice('Basic '.length)].filter(Boolean);
}
