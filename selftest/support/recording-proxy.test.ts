// The recording proxy the bench uses to capture the suite's requests for autocannon to send again.

import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.ts';

const KEY = 'proxy-test-key-9f3c';

describe('recording proxy', () => {
  let reference: RunningReference;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
    proxy = await startRecordingProxy(reference.baseUrl, undefined, { whole: true });
  });
  afterAll(async () => {
    await proxy.close();
    await reference.close();
  });

  it('forwards a request and, with whole, keeps what is needed to send it again', async () => {
    const body = Buffer.from('{"name":"Ünïcode","categoryId":9223372036854775807}', 'utf8');
    const answer = await request(`${proxy.url}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });
    const text = await answer.body.text();
    expect(answer.statusCode, text).toBe(201);
    expect(text).toContain('9223372036854775807');
    const recorded = proxy.requests.at(-1);
    expect(recorded?.method).toBe('POST');
    expect(recorded?.path).toBe('/v1/pets');
    expect(recorded?.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(Object.keys(recorded?.headers ?? {})).not.toContain('content-length');
    expect(Object.keys(recorded?.headers ?? {})).not.toContain('host');
    expect(recorded?.body?.equals(body)).toBe(true);
  });

  it("without whole, records method, path, the answer's status and its span only", async () => {
    const plain = await startRecordingProxy(reference.baseUrl);
    try {
      const answer = await request(`${plain.url}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}` } });
      await answer.body.dump();
      expect(plain.requests).toEqual([{ method: 'GET', path: '/v1/pets?limit=1', status: 200, span: { start: expect.any(Number), end: expect.any(Number) } }]);
    } finally {
      await plain.close();
    }
  });
});
