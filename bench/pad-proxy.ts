import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PadProxy {
  url: string;
  /** The most answers it was sending at once, from the upstream answer to the last byte written. */
  mostInFlight(): number;
  close(): Promise<void>;
}

export interface PadOptions {
  /** Each JSON answer is padded with spaces to this many bytes (JSON allows any whitespace after a value). */
  padTo: number;
  /** Held this long before each answer (a server that far away). */
  delayMs: number;
  /** Only answers to GET requests whose path ends in /pets (the listings); otherwise every JSON answer. */
  listingsOnly: boolean;
}

const padded = (headers: IncomingHttpHeaders, method: string | undefined, path: string, options: PadOptions): boolean =>
  /json/i.test(String(headers['content-type'] ?? '')) && method !== 'HEAD' && (!options.listingsOnly || (method === 'GET' && /\/pets(\?|$)/.test(path)));

/**
 * A loopback proxy in front of `target` whose JSON answers are padded with whitespace to just under
 * --max-body: a server the spec allows (it fixes no size, and whitespace leaves the JSON as it was)
 * whose every answer is megabytes, as a store of long names, or a gateway that pads, sends.
 */
export function startPadProxy(target: string, options: PadOptions): Promise<PadProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  let now = 0;
  let most = 0;
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let bytes = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          if (bytes.length > 0 && bytes.length < options.padTo && padded(headers, req.method, req.url ?? '', options)) {
            bytes = Buffer.concat([bytes, Buffer.alloc(options.padTo - bytes.length, 0x20)]);
            headers['content-length'] = String(bytes.length);
            delete headers['transfer-encoding'];
          }
          setTimeout(() => {
            most = Math.max(most, ++now);
            res.on('close', () => now--);
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(req.method === 'HEAD' ? undefined : bytes);
          }, options.delayMs);
        });
      });
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(body));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        mostInFlight: () => most,
        close: () =>
          new Promise<void>((done) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
