import { describe, expect, it, onTestFinished } from 'vitest';
import { ANSWER_BYTES_IN_FLIGHT } from '../../src/http/answer-budget.ts';
import { DEFAULT_CLIENT_OPTIONS, HttpClient } from '../../src/http/client.ts';
import { serveOnLoopback } from '../support/loopback-server.ts';

const MB = 1024 * 1024;
const LISTING = '[{"id":1,"name":"Rex","categoryId":1}]';

/** A loopback server whose every answer is a listing padded with whitespace to `bytes` (JSON allows it), counting the requests it holds at once. */
async function paddingServer(bytes: number) {
  const body = Buffer.concat([Buffer.from(LISTING), Buffer.alloc(bytes - LISTING.length, 0x20)]);
  let now = 0;
  const held: number[] = [];
  const server = await serveOnLoopback((req, res) => {
    req.resume();
    req.on('end', () => {
      held.push(++now);
      // Each answer comes 20 ms after its request, as from a server across a network.
      setTimeout(() => {
        res.on('close', () => now--);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body);
      }, 20);
    });
  });
  onTestFinished(() => server.close());
  return { url: `${server.url}/v1/pets`, held };
}

describe('HttpClient: the bytes of answers in flight are bounded, whatever the cap on requests', () => {
  it('sends 40 requests for answers of 4 MB four at a time (16 MiB), sixteen before the origin has answered any, and reads each whole', async () => {
    const { url, held } = await paddingServer(4 * MB);
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, concurrency: 40, maxBodyBytes: 4 * MB + 1024 });
    onTestFinished(() => client.close());
    const forty = () => Promise.all(Array.from({ length: 40 }, () => client.send({ method: 'GET', url, operation: 'GET /v1/pets' })));
    // Before any answer has come, each is taken to bring 1 MiB.
    const first = await forty();
    expect(Math.max(...held.splice(0))).toBe(16);
    const again = await forty();
    expect(Math.max(...held)).toBe(ANSWER_BYTES_IN_FLIGHT / (4 * MB));
    for (const exchange of [...first, ...again]) {
      expect(exchange.response?.status).toBe(200);
      expect(exchange.response?.body.length).toBe(4 * MB);
    }
  });

  it('holds back nothing where the answers are small: 40 requests are in flight at once', async () => {
    const { url, held } = await paddingServer(2048);
    const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, concurrency: 40 });
    onTestFinished(() => client.close());
    await client.send({ method: 'GET', url, operation: 'GET /v1/pets' });
    const exchanges = await Promise.all(Array.from({ length: 40 }, () => client.send({ method: 'GET', url, operation: 'GET /v1/pets' })));
    expect(exchanges.every((e) => e.response?.status === 200)).toBe(true);
    expect(Math.max(...held)).toBe(40);
  });
});
