import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { RequestBody } from './body-bytes.ts';
import { trust, type Deadlines } from './dispatch.ts';
import type { ReceivedResponse } from './exchange.ts';
import type { NetworkOptions } from './network-options.ts';
import { proxyAuthorization, proxyFor } from './proxy.ts';
import { MAX_HEADER_BYTES, NoAnswerInTime } from './transport-failure.ts';

/**
 * The way round undici for an origin that sends `100 Continue` to requests that did not ask for it:
 * RFC 9110 §15.2 lets a server send 1xx answers unasked and says a client MUST be able to parse them,
 * and curl and node:http skip them, but undici 7 drops the connection with "bad response". One
 * request per connection (`Connection: close`), through node:http, bounded like undici's requests:
 * in time, in body size and in header size.
 */
export interface NodeHttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: RequestBody;
  timeoutMs: number;
  maxBodyBytes: number;
  network?: NetworkOptions;
  deadlines: Deadlines;
  /** Aborted as the client closes: whatever is still open goes. */
  signal: AbortSignal;
}

/** A request or socket this request opened, destroyed as it settles. */
type Closable = Pick<ClientRequest | Socket, 'destroy'>;

const requestFor = (url: URL) => (url.protocol === 'https:' ? httpsRequest : httpRequest);
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');
/** The request target a proxy is sent for an http:// URL: without a fragment, as undici sends it. */
const absoluteForm = (url: URL) => `${url.origin}${url.pathname}${url.search}`;
const portOf = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/** A CONNECT tunnel through the proxy to the target's host and port (an https:// target behind a proxy). */
function tunnel(proxy: URL, target: URL, network: NetworkOptions | undefined, track: (opened: Closable) => void): Promise<Socket> {
  const authority = `${target.hostname}:${portOf(target)}`;
  const authorization = proxyAuthorization(proxy);
  return new Promise((resolve, reject) => {
    const ca = trust(network?.tls).ca;
    const connect = requestFor(proxy)({
      host: hostOf(proxy),
      port: portOf(proxy),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...(authorization ? { 'proxy-authorization': authorization } : {}) },
      ...(ca ? { ca } : {}),
    });
    track(connect);
    connect.once('connect', (answer: IncomingMessage, socket: Socket) => {
      track(socket);
      if (answer.statusCode === 200) resolve(socket);
      else {
        socket.destroy();
        reject(new Error(`Proxy response (${answer.statusCode}) !== 200 when HTTP Tunneling`));
      }
    });
    connect.once('error', reject);
    connect.end();
  });
}

/** The request's options: straight to the origin, in absolute form to a proxy (http://), or through a tunnel (https://). */
async function optionsFor(outgoing: NodeHttpRequest, track: (opened: Closable) => void): Promise<RequestOptions & { ca?: string[]; cert?: string; key?: string }> {
  const { url, network } = outgoing;
  const headers: Record<string, string> = { ...outgoing.headers, connection: 'close' };
  const base = { method: outgoing.method, headers, maxHeaderSize: MAX_HEADER_BYTES, ...trust(network?.tls) };
  const target = { host: hostOf(url), port: portOf(url), path: `${url.pathname}${url.search}` };
  const proxy = proxyFor(url, network?.proxy);
  if (!proxy) return { ...base, ...target, agent: false };
  const proxyUrl = new URL(proxy);
  if (url.protocol === 'http:') {
    const authorization = proxyAuthorization(proxyUrl);
    if (authorization) headers['proxy-authorization'] = authorization;
    return { ...base, agent: false, host: hostOf(proxyUrl), port: portOf(proxyUrl), path: absoluteForm(url), headers: { host: url.host, ...headers } };
  }
  const socket = await tunnel(proxyUrl, url, network, track);
  // SNI names a host, never an address (RFC 6066 §3), as https.request leaves it out for one.
  const tlsOptions = { ...trust(network?.tls), ...(isIP(target.host) ? {} : { servername: target.host }) };
  // Without an agent: an Agent (agent: false makes one) would open its own connection and ignore this one.
  return { ...base, ...target, createConnection: () => tlsConnect({ socket, ...tlsOptions }) };
}

export function sendThroughNodeHttp(outgoing: NodeHttpRequest): Promise<ReceivedResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let status = 0;
    const live = new Set<Closable>();
    const settle = (error: unknown, response?: ReceivedResponse) => {
      if (settled) return;
      settled = true;
      outgoing.deadlines.delete(deadline);
      outgoing.signal.removeEventListener('abort', closed);
      for (const req of live) req.destroy();
      if (response) resolve(response);
      else reject(error);
    };
    const deadline = { at: performance.now() + outgoing.timeoutMs, expire: () => settle(new NoAnswerInTime(outgoing.timeoutMs, status)) };
    outgoing.deadlines.watch(deadline);
    const closed = () => settle(new Error('the client was closed'));
    if (outgoing.signal.aborted) closed();
    outgoing.signal.addEventListener('abort', closed, { once: true });
    const track = (opened: Closable) => {
      live.add(opened);
      if (settled) opened.destroy();
    };
    optionsFor(outgoing, track).then((options) => {
      if (settled) return;
      const proxied = options.path === absoluteForm(outgoing.url);
      const req = requestFor(outgoing.url)(options, (res) => {
        status = res.statusCode ?? 0;
        // As undici reports a proxy that refuses an absolute-form request its credentials.
        if (proxied && status === 407) {
          settle(new Error('Proxy response (407) Proxy Authentication Required'));
          return;
        }
        // Every field line, joined as undici joins them: res.headers keeps only the first of a repeated Content-Type or Location.
        const headers: Record<string, string> = {};
        for (const [name, values] of Object.entries(res.headersDistinct)) if (values) headers[name] = values.join(', ');
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (truncated: boolean) => settle(undefined, { status, headers, body: Buffer.concat(chunks, size), truncated });
        res.on('data', (chunk: Buffer) => {
          const room = outgoing.maxBodyBytes - size;
          chunks.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
          size += Math.min(chunk.length, room);
          if (chunk.length > room) done(true);
        });
        res.once('end', () => done(false));
        res.once('close', () => {
          if (!res.complete) settle(Object.assign(new Error('the connection closed before the answer was complete'), { code: 'ECONNRESET' }));
        });
      });
      track(req);
      req.once('error', (error) => settle(error));
      req.end(outgoing.body);
    }, (error: unknown) => settle(error));
  });
}
