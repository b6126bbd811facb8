import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy saw: each request's start and end (ms, performance.now()), for the mean in flight. */
export interface DelayProxy {
  url: string;
  spans: { start: number; end: number }[];
  close(): Promise<void>;
}

/**
 * A loopback proxy that holds each answer `delayMs` before passing it on: a target that far away,
 * one round trip per request (connections are kept alive on both sides, as across a real network).
 */
export async function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const spans: { start: number; end: number }[] = [];
  const server: Server = createServer((req, res) => {
    const span = { start: performance.now(), end: 0 };
    res.on('close', () => {
      span.end = performance.now();
      spans.push(span);
    });
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      setTimeout(() => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }, delayMs);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The mean number of requests in flight over a window: their summed durations over its length. */
export function meanInFlight(spans: readonly { start: number; end: number }[], windowMs: number): number {
  if (windowMs <= 0) return 0;
  return spans.reduce((sum, span) => sum + (span.end - span.start), 0) / windowMs;
}
