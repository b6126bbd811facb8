import { request } from 'node:http';
import { request as secureRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { connect, rootCertificates } from 'node:tls';
import type { NetworkOptions } from './network-options.ts';
import { proxyAuthorization, proxyFor } from './proxy.ts';

/** A CONNECT tunnel to host:port through the proxy, as undici's ProxyAgent opens one. */
function tunnel(proxy: string, target: URL, timeoutMs: number): Promise<Socket> {
  const via = new URL(proxy);
  const headers: Record<string, string> = { host: target.host };
  const authorization = proxyAuthorization(via);
  if (authorization) headers['proxy-authorization'] = authorization;
  return new Promise((resolve, reject) => {
    const send = via.protocol === 'https:' ? secureRequest : request;
    const req = send({ host: via.hostname.replace(/^\[|\]$/g, ''), port: via.port || (via.protocol === 'https:' ? 443 : 80), method: 'CONNECT', path: target.host, headers, timeout: timeoutMs });
    req.on('connect', (res, socket) => (res.statusCode === 200 ? resolve(socket) : (socket.destroy(), reject(new Error(`proxy answered ${res.statusCode}`)))));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Why a TLS server closed the connection on a request, when it says so in an alert (a TLS 1.3 server
 * that wants a client certificate closes it after the handshake; undici reports only "other side
 * closed"). One connection, one request; undefined when no TLS error shows.
 */
export async function tlsFailure(url: URL, network: NetworkOptions | undefined, timeoutMs: number): Promise<string | undefined> {
  if (url.protocol !== 'https:') return undefined;
  const proxy = proxyFor(url, network?.proxy);
  let socket: Socket | undefined;
  try {
    if (proxy) socket = await tunnel(proxy, url, timeoutMs);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const tls = network?.tls;
  return new Promise((resolve) => {
    const secure = connect({
      ...(socket ? { socket } : { host, port: Number(url.port) || 443 }),
      ...(isIP(host) ? {} : { servername: host }),
      ...(tls?.ca ? { ca: [...rootCertificates, ...tls.ca] } : {}),
      ...(tls?.cert && tls.key ? { cert: tls.cert, key: tls.key } : {}),
    });
    const done = (reason: string | undefined) => {
      clearTimeout(timer);
      secure.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    secure.on('secureConnect', () => secure.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    secure.on('error', (error: NodeJS.ErrnoException) => done(/SSL|TLS|CERT/.test(error.code ?? '') ? `${error.message.split('\n')[0]?.replace(/^.*:(tlsv\d+ alert [^:]+):.*$/, '$1')} (${error.code})` : undefined));
    secure.on('data', () => done(undefined));
    secure.on('close', () => done(undefined));
  });
}
