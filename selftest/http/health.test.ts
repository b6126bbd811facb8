import { describe, expect, it } from 'vitest';
import { BREAKER_PROBE_MS, OperationHealth, type SendPlan } from '../../src/http/health.ts';

const ORIGIN = 'http://127.0.0.1:9';
const GET_PET = 'GET /v1/pets/{petId}';
const LIST = 'GET /v1/pets';

function plan(health: OperationHealth, label: string, now = 0): SendPlan {
  const planned = health.plan(ORIGIN, label, now);
  if ('refused' in planned) throw new Error(`refused: ${planned.refused}`);
  return planned;
}

const timedOut = { answered: false, timedOut: true, kind: 'timeout' } as const;

describe('OperationHealth', () => {
  it('brings a plan made before its operation hung up to date once the request has its slot: shortened, then refused once given up', () => {
    const health = new OperationHealth(10_000, 4);
    health.record(ORIGIN, GET_PET, plan(health, GET_PET), { answered: true, durationMs: 40 });
    // Queued behind the in-flight cap while the first request hangs: planned with the full timeout.
    const queued = plan(health, GET_PET);
    expect(queued).toEqual({ timeoutMs: 10_000, shortened: false });
    health.record(ORIGIN, GET_PET, plan(health, GET_PET), timedOut);
    expect(health.recheck(ORIGIN, GET_PET, queued)).toEqual({ timeoutMs: 1_000, shortened: true });
    // Another operation of the origin, silent since: shortened too, until the origin answers again.
    const listing = { timeoutMs: 10_000, shortened: false };
    expect(health.recheck(ORIGIN, LIST, listing)).toEqual({ timeoutMs: 1_000, shortened: true });
    health.record(ORIGIN, LIST, plan(health, LIST), { answered: true, durationMs: 5 });
    expect(health.recheck(ORIGIN, LIST, listing)).toBe(listing);
    for (let i = 0; i < 10; i++) health.record(ORIGIN, GET_PET, { timeoutMs: 1_000, shortened: true }, timedOut);
    expect(health.recheck(ORIGIN, GET_PET, queued)).toEqual({ refused: expect.stringMatching(/^GET \/v1\/pets\/\{petId\} gave no answer within 10000 ms/) });
  });

  it('gives a hung operation shortened waits, then sends it nothing once they add up to a timeout; other operations keep the full timeout', () => {
    const health = new OperationHealth(10_000, 4);
    health.record(ORIGIN, GET_PET, plan(health, GET_PET), { answered: true, durationMs: 40 });
    health.record(ORIGIN, GET_PET, plan(health, GET_PET), timedOut);
    // The origin still answers: the listing keeps its full wait.
    health.record(ORIGIN, LIST, plan(health, LIST), { answered: true, durationMs: 5 });
    expect(plan(health, LIST)).toEqual({ timeoutMs: 10_000, shortened: false });
    let waited = 0;
    for (let i = 0; i < 20; i++) {
      const next = health.plan(ORIGIN, GET_PET);
      if ('refused' in next) {
        expect(next.refused).toMatch(/^GET \/v1\/pets\/\{petId\} gave no answer within 10000 ms, nor to 10 later requests \(waited 1000 ms each\), so no more of its requests are sent$/);
        break;
      }
      expect(next).toEqual({ timeoutMs: 1_000, shortened: true });
      waited += next.timeoutMs;
      health.record(ORIGIN, GET_PET, next, timedOut);
    }
    // About twice the timeout in all: the first wait, then the shortened ones.
    expect(waited).toBe(10_000);
    expect('refused' in health.plan(ORIGIN, GET_PET)).toBe(true);
    expect(plan(health, LIST).timeoutMs).toBe(10_000);
  });

  it('lets a hung operation\'s answers within the shortened wait through, so its other requests are still judged', () => {
    const health = new OperationHealth(10_000, 4);
    health.record(ORIGIN, 'POST /v1/pets', plan(health, 'POST /v1/pets'), { answered: true, durationMs: 400 });
    health.record(ORIGIN, 'POST /v1/pets', plan(health, 'POST /v1/pets'), timedOut);
    for (let i = 0; i < 50; i++) {
      const next = plan(health, 'POST /v1/pets');
      expect(next.timeoutMs).toBe(1_600);
      health.record(ORIGIN, 'POST /v1/pets', next, { answered: true, durationMs: 30 });
    }
  });

  it('bounds an origin that went silent: every operation gets the shortened wait, and their sum ends it', () => {
    const health = new OperationHealth(2_000, 4);
    health.record(ORIGIN, LIST, plan(health, LIST), timedOut);
    const other = plan(health, 'GET /v1/store/orders');
    expect(other).toEqual({ timeoutMs: 1_000, shortened: true });
    health.record(ORIGIN, 'GET /v1/store/orders', other, timedOut);
    health.record(ORIGIN, 'POST /v1/pets', plan(health, 'POST /v1/pets'), timedOut);
    const refused = health.plan(ORIGIN, 'GET /v1/pets/{petId}');
    expect(refused).toEqual({ refused: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9 has answered nothing since a request went 2000 ms unanswered/) });
  });

  it('charges a hung operation\'s own unanswered waits to it alone, not to its origin', () => {
    const health = new OperationHealth(2_000, 4);
    const create = 'POST /v1/pets';
    health.record(ORIGIN, create, plan(health, create), timedOut);
    // Truncated bodies one after another, none answered: the operation is given up, its origin is not.
    for (let i = 0; i < 2; i++) health.record(ORIGIN, create, plan(health, create), timedOut);
    expect(health.plan(ORIGIN, create)).toEqual({ refused: expect.stringMatching(/^POST \/v1\/pets gave no answer within 2000 ms/) });
    expect(health.plan(ORIGIN, LIST)).toEqual({ timeoutMs: 1_000, shortened: true });
    health.record(ORIGIN, LIST, { timeoutMs: 1_000, shortened: true }, { answered: true, durationMs: 3 });
    expect(plan(health, LIST)).toEqual({ timeoutMs: 2_000, shortened: false });
  });

  it('opens a breaker after resets in a row on one operation, and probes it again later', () => {
    const health = new OperationHealth(10_000, 3);
    const reset = { answered: false, timedOut: false, kind: 'reset: socket hang up' } as const;
    for (let i = 0; i < 3; i++) health.record(ORIGIN, LIST, plan(health, LIST, 0), reset, 0);
    expect(health.plan(ORIGIN, LIST, 1)).toEqual({ refused: expect.stringContaining('GET /v1/pets failed 3 requests in a row (reset: socket hang up)') });
    expect(plan(health, GET_PET, 1).timeoutMs).toBe(10_000);
    expect(plan(health, LIST, BREAKER_PROBE_MS + 1).timeoutMs).toBe(10_000);
  });
});
