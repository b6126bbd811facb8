// The TCP delay proxy `npm run matrix -- --delay MS` puts in front of each row: bytes as sent, later.

import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpDelayProxy, type TcpDelayProxy } from './tcp-delay-proxy.ts';

const DELAY_MS = 40;
// Not HTTP a proxy at that layer would let through: a bare LF and a Content-Length that lies.
const ANSWER = 'HTTP/1.1 200 OK\nContent-Length: 99\n\n{"partial":';

interface Outcome {
  got: string;
  firstByteMs: number;
  /** How the connection ended: a clean end, or the error's code (ECONNRESET for a reset). */
  ended: string;
}

/** Writes `pieces` through the proxy and reads until the far end closes. */
function exchange(url: string, pieces: readonly string[]): Promise<Outcome> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    let firstByteMs = -1;
    let got = '';
    const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
      for (const piece of pieces) socket.write(piece);
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      if (firstByteMs < 0) firstByteMs = performance.now() - started;
      got += chunk;
    });
    socket.on('end', () => resolve({ got, firstByteMs, ended: 'end' }));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ got, firstByteMs, ended: error.code ?? error.message }));
  });
}

/** A server that, once a request's blank line is in, writes ANSWER and then ends or resets the connection. */
async function upstream(then: 'end' | 'reset'): Promise<{ server: Server; received: string[] }> {
  const received: string[] = [];
  const server = createServer((socket: Socket) => {
    let seen = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      seen += chunk;
      if (!seen.includes('\r\n\r\n')) return;
      received.push(seen);
      if (then === 'end') socket.end(ANSWER);
      else {
        socket.write(ANSWER);
        // Once the answer is surely out: reset straight after a write may still close cleanly.
        setTimeout(() => socket.resetAndDestroy(), 10);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, received };
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const REQUEST = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';

describe('TCP delay proxy', () => {
  let ending: Awaited<ReturnType<typeof upstream>>;
  let proxy: TcpDelayProxy;
  beforeAll(async () => {
    ending = await upstream('end');
    proxy = await startTcpDelayProxy(urlOf(ending.server), DELAY_MS);
  });
  afterAll(async () => {
    await proxy.close();
    await closeServer(ending.server);
  });

  it('passes the answer byte for byte, a handshake and a round trip later, then its end', async () => {
    const result = await exchange(proxy.url, [REQUEST]);
    expect(result).toMatchObject({ got: ANSWER, ended: 'end' });
    // Each of the two holds may fire up to a millisecond early (a timer counts from the loop's cached time).
    expect(result.firstByteMs).toBeGreaterThanOrEqual(2 * DELAY_MS - 4);
  });

  it('passes a request sent in pieces in order', async () => {
    const result = await exchange(proxy.url, ['GET / HT', 'TP/1.1\r\nHo', 'st: x\r', '\n\r\n']);
    expect(result).toMatchObject({ got: ANSWER, ended: 'end' });
    expect(ending.received.at(-1)).toBe(REQUEST);
  });

  it('passes a reset as a reset, after what came before it', async () => {
    const resetting = await upstream('reset');
    const through = await startTcpDelayProxy(urlOf(resetting.server), DELAY_MS);
    try {
      expect(await exchange(through.url, [REQUEST])).toMatchObject({ got: ANSWER, ended: 'ECONNRESET' });
    } finally {
      await through.close();
      await closeServer(resetting.server);
    }
  });

  it('resets the connection of a client whose server refuses it, and closes with holds pending', async () => {
    const gone = await upstream('end');
    const url = urlOf(gone.server);
    await closeServer(gone.server);
    const through = await startTcpDelayProxy(url, DELAY_MS);
    expect(await exchange(through.url, [REQUEST])).toMatchObject({ got: '', ended: 'ECONNRESET' });
    const pending = exchange(through.url, [REQUEST]);
    await through.close();
    expect((await pending).got).toBe('');
  });
});
