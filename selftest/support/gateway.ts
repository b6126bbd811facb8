import { readFileSync } from 'node:fs';
import { request, createServer as createHttpServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

const cert = (name: string) => readFileSync(new URL(`./certs/${name}`, import.meta.url), 'utf8');

/** The test certificates (selftest/support/certs): paths for the CLI's flags. */
export const CERTS = {
  ca: new URL('./certs/ca.pem', import.meta.url).pathname,
  clientCert: new URL('./certs/client.pem', import.meta.url).pathname,
  clientKey: new URL('./certs/client-key.pem', import.meta.url).pathname,
};

export interface GatewayOptions {
  /** Path prefix → upstream base URL, e.g. { '/animal-store': 'http://127.0.0.1:8080' }. */
  routes: Record<string, string>;
  /** A header every request must carry, else 403 with an HTML body, as a gateway answers. */
  requiredHeader?: { name: string; value: string };
  /** https with the test CA's certificate (default), or plain http. */
  tls?: boolean;
  /** Mutual TLS: a client certificate signed by the test CA is required. */
  clientCertificate?: boolean;
  host?: string;
  /** A response header that echoes the required header's value back, as a careless gateway's debug header would. */
  echoHeader?: string;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  clientCertificate: boolean;
}

export interface Gateway {
  /** The gateway's origin, e.g. https://127.0.0.1:40001 or http://[::1]:40002. */
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A reverse-proxy gateway on loopback, as staging sits behind one: routes by path prefix (stripped on
 * the way in, put back on a Location on the way out, as nginx's proxy_redirect does), may ask for a
 * header of its own and a client certificate, and records what it saw.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const seen: SeenRequest[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as TLSSocket;
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, clientCertificate: typeof socket.getPeerCertificate === 'function' && Boolean(socket.getPeerCertificate()?.subject) });
    const required = options.requiredHeader;
    if (required && req.headers[required.name.toLowerCase()] !== required.value) {
      res.writeHead(403, { 'Content-Type': 'text/html' }).end('<html><body>403 Forbidden</body></html>');
      return;
    }
    const prefix = Object.keys(options.routes).find((p) => req.url === p || req.url?.startsWith(`${p}/`) || req.url?.startsWith(`${p}?`));
    if (!prefix) {
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body>no route</body></html>');
      return;
    }
    const upstream = new URL(options.routes[prefix]!);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: upstream.host };
    if (required) delete headers[required.name.toLowerCase()];
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url!.slice(prefix.length) || '/', headers }, (answer) => {
      const out = { ...answer.headers };
      if (typeof out.location === 'string' && out.location.startsWith('/')) out.location = `${prefix}${out.location}`;
      if (options.echoHeader && required) out[options.echoHeader.toLowerCase()] = required.value;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  };
  const tls = options.tls !== false;
  const server: Server = tls
    ? createHttpsServer({ cert: cert('server.pem'), key: cert('server-key.pem'), ...(options.clientCertificate ? { ca: cert('ca.pem'), requestCert: true, rejectUnauthorized: true } : {}) }, handle)
    : createHttpServer(handle);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
