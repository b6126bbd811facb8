// The TCP delay proxy `npm run matrix -- --delay MS` puts in front of each deviation: bytes as sent, later.

import { createServer, connect, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpDelayProxy, type TcpDelayProxy } from './tcp-delay-proxy.ts';

const DELAY_MS = 40;
// Not HTTP a proxy at that layer would let through: a bare LF and a Content-Length that lies.
const ANSWER = 'HTTP/1.1 200 OK\nContent-Length: 99\n\n{"partial":';

/** Sends `text` through the proxy and reads until the far end closes: what came back, and when the first byte did. */
function exchange(url: string, text: string): Promise<{ got: string; firstByteMs: number; totalMs: number }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = -1;
    let got = '';
    const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => socket.write(text));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      if (firstByteMs < 0) firstByteMs = performance.now() - started;
      got += chunk;
    });
    socket.on('end', () => resolve({ got, firstByteMs, totalMs: performance.now() - started }));
    socket.on('error', reject);
  });
}

describe('TCP delay proxy', () => {
  let upstream: Server;
  let proxy: TcpDelayProxy;
  beforeAll(async () => {
    // Answers once the request's blank line is in, then closes.
    upstream = createServer((socket) => {
      let seen = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        seen += chunk;
        if (seen.includes('\r\n\r\n')) socket.end(ANSWER);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startTcpDelayProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, DELAY_MS);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('passes the answer byte for byte, a handshake and a round trip later, then its end', async () => {
    const result = await exchange(proxy.url, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(result.got).toBe(ANSWER);
    // Each of the two holds may fire up to a millisecond early (a timer counts from the loop's cached time).
    expect(result.firstByteMs).toBeGreaterThanOrEqual(2 * DELAY_MS - 4);
    expect(result.totalMs).toBeGreaterThanOrEqual(result.firstByteMs);
  });

  it('passes a request sent in pieces in order', async () => {
    const { port } = new URL(proxy.url);
    const got = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
        for (const piece of ['GET / HT', 'TP/1.1\r\nHo', 'st: x\r', '\n\r\n']) socket.write(piece);
      });
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(got).toBe(ANSWER);
  });
});
