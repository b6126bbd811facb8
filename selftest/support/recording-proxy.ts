import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  url: string;
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

/** Requests in flight, now and at most; proxies given the same one count together. */
export interface Flight {
  now: number;
  max: number;
}

/** A loopback proxy that records each request's method and path and forwards it to `target`. */
export async function startRecordingProxy(target: string, flight: Flight = { now: 0, max: 0 }): Promise<RecordingProxy> {
  const requests: { method: string; path: string }[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '' });
    flight.max = Math.max(flight.max, ++flight.now);
    res.on('close', () => flight.now--);
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
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
