import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodedResponse } from '../../src/http/content-coding.ts';
import { jsonBody, type ReceivedResponse } from '../../src/http/exchange.ts';

const TEXT = '[{"id":1,"name":"Rex","categoryId":1}]';
const answer = (body: Buffer, coding?: string): ReceivedResponse => ({ status: 200, headers: coding ? { 'content-encoding': coding } : {}, body, truncated: false });

describe('decodedResponse: the body before its content codings', () => {
  it('undoes gzip, x-gzip, br, deflate (zlib or raw) and codings applied in turn', () => {
    const text = (response: ReceivedResponse) => response.body.toString('utf8');
    expect(text(decodedResponse(answer(gzipSync(TEXT), 'gzip'), 1 << 20))).toBe(TEXT);
    expect(text(decodedResponse(answer(gzipSync(TEXT), 'X-GZIP'), 1 << 20))).toBe(TEXT);
    expect(text(decodedResponse(answer(brotliCompressSync(TEXT), 'br'), 1 << 20))).toBe(TEXT);
    expect(text(decodedResponse(answer(deflateSync(TEXT), 'deflate'), 1 << 20))).toBe(TEXT);
    expect(text(decodedResponse(answer(deflateRawSync(TEXT), 'deflate'), 1 << 20))).toBe(TEXT);
    expect(text(decodedResponse(answer(brotliCompressSync(gzipSync(TEXT)), 'gzip, br'), 1 << 20))).toBe(TEXT);
    expect(text(decodedResponse(answer(Buffer.from(TEXT), 'identity'), 1 << 20))).toBe(TEXT);
  });

  it('cuts a body that decodes past the cap, as one that came past it is (a gzip bomb stays bounded)', () => {
    const bomb = gzipSync(Buffer.alloc(64 << 20, 0x20));
    expect(bomb.length).toBeLessThan(1 << 20);
    const decoded = decodedResponse(answer(bomb, 'gzip'), 1 << 20);
    expect(decoded.truncated).toBe(true);
    expect(decoded.body.length).toBeLessThanOrEqual(1 << 20);
  });

  it('leaves a coding it does not know, or bytes that do not decode, as they came; the latter saying why, for the body\'s Actual (helper-38a: not "body is not valid UTF-8")', () => {
    const zstd = answer(Buffer.from('not really zstd'), 'zstd');
    expect(decodedResponse(zstd, 1 << 20)).toBe(zstd);
    const corrupt = answer(Buffer.from('no gzip here'), 'gzip');
    const kept = decodedResponse(corrupt, 1 << 20);
    expect(kept.body).toBe(corrupt.body);
    expect(kept.undecodable).toMatch(/^body does not decode as the gzip its Content-Encoding names \(.+\)$/);
    expect(jsonBody({ request: { method: 'GET', url: 'http://x/', headers: {} }, response: kept, durationMs: 1 })).toEqual({ ok: false, problem: kept.undecodable });
  });
});
