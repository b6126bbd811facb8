import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { MAX_HEADER_BYTES } from '../../src/http/transport-failure.ts';

/** What went through the proxy: a CONNECT tunnel (`host:port`) or an absolute-form request (its URL). */
export interface ProxiedRequest {
  method: string;
  target: string;
  /** The Proxy-Authorization header it carried, if any. */
  authorization?: string;
}

export interface ForwardProxy {
  url: string;
  /** The proxy URL with `user:password@`, when it asks for credentials. */
  urlWithCredentials: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A small HTTP forward proxy on loopback, as a company proxy is: CONNECT tunnels for https://
 * targets, absolute-form requests for http:// ones, 407 without the right Basic credentials (when
 * `credentials` are given). It records everything that went through it.
 */
export async function startForwardProxy(
  credentials?: { user: string; password: string },
  /** Where a tunnel to `port` on loopback really goes: an origin the client could not reach without the proxy. */
  tunnelPorts: Record<number, number> = {},
): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = [];
  const expected = credentials ? `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}` : undefined;
  const sockets = new Set<Socket>();
  const note = (req: IncomingMessage): boolean => {
    const authorization = req.headers['proxy-authorization'];
    requests.push({ method: req.method ?? '', target: req.url ?? '', ...(authorization ? { authorization } : {}) });
    return expected === undefined || authorization === expected;
  };
  // Headers as long as the suite reads (a company proxy passes them on): node's own limit is 16 KiB.
  const server: Server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    if (!note(req)) {
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test"', 'Content-Length': '0' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const forward = request({ maxHeaderSize: MAX_HEADER_BYTES, host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (!note(req)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!match) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(tunnelPorts[Number(match[2])] ?? Number(match[2]), match[1]!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    urlWithCredentials: credentials ? `http://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}` : url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
