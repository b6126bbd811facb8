// An origin that sends an answer to no request: one that finds its connection idle shows it (undici
// drops the connection), and from then on each request goes on a connection of its own, so that
// such an answer cannot be taken for the next request's.

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_OPTIONS, HttpClient } from '../../src/http/client.ts';

const EXTRA = '{"code":"not_found","message":"extra answer","status":404}';
const answer = (status: number, body: string) => `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

let server: Server | undefined;
afterEach(async () => {
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/**
 * Answers GET n with {"n":n}. After the 1st answer, `first` 30 ms later (an extra 404). The 2nd answer's extra
 * waits for the next request on its connection and goes out before that request's answer, as a
 * server that answered one request twice would have it arrive.
 */
async function doubleAnswering(first = answer(404, EXTRA)): Promise<{ url: string; connections: () => number; closeAsked: boolean[] }> {
  const closeAsked: boolean[] = [];
  const extraOwed = new WeakSet<Socket>();
  const target = await rawServer(({ head, n }, socket) => {
    closeAsked.push(/^connection: *close/im.test(head));
    if (extraOwed.has(socket)) socket.write(answer(404, EXTRA));
    if (n === 2) extraOwed.add(socket);
    else extraOwed.delete(socket);
    socket.write(answer(200, `{"n":${n}}`));
    if (n === 1) setTimeout(() => socket.destroyed || socket.write(first), 30);
  });
  return { ...target, closeAsked };
}

describe('an answer to no request', () => {
  it('once one has found a connection idle, each request goes alone: a second answer to a request is never taken for the next one', async () => {
    const target = await doubleAnswering();
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS });
    try {
      const first = await client.send({ method: 'GET', url: target.url });
      expect(first.response?.body.toString()).toBe('{"n":1}');
      // The extra answer comes 30 ms on, to a connection with nothing on it.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(client.stats.unrequestedAnswers).toBe(1);
      const second = await client.send({ method: 'GET', url: target.url });
      // Long enough for a pooled connection to be free again (undici waits a turn of the event loop).
      await new Promise((resolve) => setTimeout(resolve, 20));
      const third = await client.send({ method: 'GET', url: target.url });
      expect([second.response?.status, second.response?.body.toString()]).toEqual([200, '{"n":2}']);
      expect([third.response?.status, third.response?.body.toString()]).toEqual([200, '{"n":3}']);
      expect(target.closeAsked).toEqual([false, true, true]);
      expect(target.connections()).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('a 408 on a connection left idle, as a server sends before it closes one, is no second answer: nothing fails and requests keep sharing connections', async () => {
    const target = await doubleAnswering('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS });
    try {
      const first = await client.send({ method: 'GET', url: target.url });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(client.stats.unrequestedAnswers).toBe(0);
      expect(first.answeredAgain).toBeUndefined();
      await client.send({ method: 'GET', url: target.url });
      expect(target.closeAsked).toEqual([false, false]);
    } finally {
      await client.close();
    }
  });

  it('bytes past an answer (a Content-Length one short), with no request on them: the answer is marked, the bytes quoted', async () => {
    const target = await doubleAnswering('x');
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS });
    try {
      const first = await client.send({ method: 'GET', url: target.url });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(client.stats.unrequestedAnswers).toBe(1);
      expect(first.answeredAgain?.lastBytes).toBe('x');
    } finally {
      await client.close();
    }
  });

  // Requests the suite sends to learn of the origin, never judged otherwise, are as much evidence of a
  // second answer as any: missed there, a server answering one request in five twice went unseen.
  it.each([
    // Its connection is let go once it is answered: a second answer shows there only as it comes with the first.
    ['the repeat of a refused POST (sent again on its connection to learn whether the body was read)', 'POST', 2],
    ['the idle watch (a GET of the first URL, on a connection left idle)', 'GET', 1],
  ])('a second answer after %s marks that exchange', async (_what, answeredTwice, nth) => {
    const target = await rawServer(({ method, ofMethod }, socket) => {
      const status = method === 'POST' ? (answeredTwice === 'POST' ? 400 : 201) : 200;
      socket.write(answer(status, '{}') + (method === answeredTwice && ofMethod === nth ? answer(404, EXTRA) : ''));
    });
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, watchIdleCloses: answeredTwice === 'GET' });
    try {
      const authorization = { value: 'Bearer Raw-Secret-Key', shown: 'Bearer $API_KEY' };
      await client.send({ method: 'POST', url: target.url, headers: { 'content-type': 'application/json' }, body: '{"name":"x"}', authorization });
      await until(() => client.stats.answeredAgain.length > 0);
      const [marked] = client.stats.answeredAgain;
      expect(marked?.request.method).toBe(answeredTwice);
      expect(marked?.answeredAgain?.lastBytes).toContain('extra answer');
      expect(JSON.stringify(marked)).not.toContain('Raw-Secret-Key');
      expect(marked?.request.headers['Authorization'] ?? marked?.request.headers['authorization']).toBe('Bearer $API_KEY');
    } finally {
      await client.close();
    }
  });
});

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * A server that reads each request (its head, and a body by Content-Length) and hands it to `reply`
 * with its count among all requests and among those of its method.
 */
async function rawServer(reply: (request: { method: string; head: string; n: number; ofMethod: number }, socket: Socket) => void): Promise<{ url: string; connections: () => number }> {
  let requests = 0;
  let connections = 0;
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n\r\n')) >= 0) {
        const head = buffered.slice(0, end);
        const length = Number(/^content-length: *(\d+)/im.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        const method = head.split(' ')[0] ?? '';
        const ofMethod = (counts.get(method) ?? 0) + 1;
        counts.set(method, ofMethod);
        reply({ method, head, n: ++requests, ofMethod }, socket);
      }
    });
    socket.on('error', () => undefined);
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`, connections: () => connections };
}
