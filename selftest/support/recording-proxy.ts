import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The status it was answered with, once answered. */
  status?: number;
  /** When it came in and when its answer was done (performance.now()), once done. */
  span?: { start: number; end: number };
  /** With `whole`: the request's headers (hop-by-hop and length headers left out) and body. */
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const NOT_REPLAYED = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** Requests in flight, now and at most; proxies given the same one count together. */
export interface Flight {
  now: number;
  max: number;
}

/** JSON answers padded with spaces to `to` bytes (JSON allows any whitespace after a value); with `only`, the answers to the requests it picks. */
export interface Padding {
  to: number;
  only?: (method: string, path: string) => boolean;
}

/** The answer's body whole, padded as `padding` says where it is JSON and shorter; its headers to match. */
function padAnswer(answer: IncomingMessage, body: Buffer, padding: Padding): { headers: IncomingMessage['headers']; body: Buffer } {
  if (body.length === 0 || body.length >= padding.to || !/json/i.test(String(answer.headers['content-type'] ?? ''))) return { headers: answer.headers, body };
  const headers = { ...answer.headers, 'content-length': String(padding.to) };
  delete headers['transfer-encoding'];
  return { headers, body: Buffer.concat([body, Buffer.alloc(padding.to - body.length, 0x20)]) };
}

/**
 * A loopback proxy that records each request's method and path (with `whole`, also its headers and
 * body, enough to send it again) and forwards it to `target`; with `delayMs`, each answer that much
 * later, as a target across a network would give it, and the first on a connection twice that (the
 * TCP handshake's round trip; TLS is not modelled); with `pad`, its JSON answers padded.
 */
export async function startRecordingProxy(target: string, flight: Flight = { now: 0, max: 0 }, options: { whole?: boolean; delayMs?: number; pad?: Padding } = {}): Promise<RecordingProxy> {
  const requests: RecordedRequest[] = [];
  const upstream = new URL(target);
  const seenSockets = new WeakSet<object>();
  const server: Server = createServer((req, res) => {
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '' };
    const handshake = !seenSockets.has(req.socket);
    seenSockets.add(req.socket);
    requests.push(recorded);
    const start = performance.now();
    res.on('close', () => (recorded.span = { start, end: performance.now() }));
    if (options.whole) {
      recorded.headers = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !NOT_REPLAYED.has(name)) recorded.headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (chunks.length > 0) recorded.body = Buffer.concat(chunks);
      });
    }
    flight.max = Math.max(flight.max, ++flight.now);
    res.on('close', () => flight.now--);
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        recorded.status = answer.statusCode;
        const later = (pass: () => void) => (options.delayMs ? setTimeout(pass, handshake ? 2 * options.delayMs : options.delayMs) : pass());
        const pad = options.pad;
        if (!pad || req.method === 'HEAD' || (pad.only && !pad.only(req.method ?? '', req.url ?? ''))) {
          later(() => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          });
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const padded = padAnswer(answer, Buffer.concat(chunks), pad);
          later(() => res.writeHead(answer.statusCode ?? 502, padded.headers).end(padded.body));
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
