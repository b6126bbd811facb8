// Exit 4 means our bug: whatever body a server sends, the parser and every check of the registry
// judge it without throwing, and within a budget of work per byte (CPU time, not wall time, and a
// generous one: quadratic work on a body of a few hundred KB blows through it by far).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, getCheck, type CheckName, type JudgeEnv } from '../../src/checks/registry.ts';
import { jsonBody } from '../../src/http/exchange.ts';
import { boundsProblem } from '../../src/json/bounds.ts';
import { JsonDecodeError, parseJson, repeatedNames } from '../../src/json/lossless.ts';
import { CONTEXTS } from './contexts.ts';
import { exchange, makeEnv, raw } from './helpers.ts';

const NAMES = Object.keys(CHECKS) as CheckName[];
const OUTCOMES = new Set(['pass', 'fail', 'n/a', 'observe']);
const STATUSES = [200, 201, 202, 400, 401, 403, 404, 405, 413, 429, 500, 503];

/** The CPU time judging a body may take: a fixed allowance (for a GC of a big heap), and 2 ms per KB. */
const budgetMs = (bytes: number) => 2_000 + bytes / 512;

const join = (parts: string[]) => parts.join(',');

/** A JSON value as text, drawn from what a hostile server may put anywhere in a body. */
const hostileValue: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.integer({ min: 1, max: 200_000 }).map((n) => '9'.repeat(n)),
  fc.constantFrom('1e999999', '-1e999999', '1E-999999', '-0', '0.0', '9223372036854775808', '-9223372036854775809', '1.0000000000000000000001', '123456789012345678901234567890.0'),
  fc.constantFrom('"\\ud800"', '"\\udc00x"', '"a\\ud83d"', '"\\u0000"', '"\\uFEFF"', `"${'\\\\'.repeat(1_000)}"`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `"${'x'.repeat(n)}"`),
);

const KEYS = fc.oneof(fc.constantFrom('id', 'name', 'categoryId', 'status', 'code', 'message', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''), fc.string({ maxLength: 8 }));

/** An object with hostile members, names repeated and `__proto__` among them. */
const hostileObject = fc.array(fc.tuple(KEYS, hostileValue), { maxLength: 12 }).map((members) => `{${join(members.map(([k, v]) => `${JSON.stringify(k)}:${v}`))}}`);

/** Bodies built to go past a bound, or to sit just within one. */
const structural: fc.Arbitrary<string> = fc.oneof(
  fc.record({ depth: fc.integer({ min: 1, max: 300_000 }), object: fc.boolean(), closed: fc.boolean() }).map(({ depth, object, closed }) =>
    object ? `${'{"a":'.repeat(depth)}1${closed ? '}'.repeat(depth) : ''}` : `${'['.repeat(depth)}${closed ? ']'.repeat(depth) : ''}`,
  ),
  fc.integer({ min: 0, max: 300_000 }).map((n) => `[${join(Array.from({ length: n }, () => '0'))}]`),
  fc.record({ n: fc.integer({ min: 0, max: 200_000 }), repeat: fc.boolean() }).map(({ n, repeat }) => `[{${join(Array.from({ length: n }, (_, i) => `"${repeat ? 'k' : `k${i}`}":0`))},"id":1,"name":"Rex","categoryId":1}]`),
  fc.array(hostileObject, { maxLength: 60 }).map((items) => `[${join(items)}]`),
  hostileObject,
);

/** Bytes: any of the above, or text and bytes a JSON parser must refuse (invalid UTF-8, a BOM, a lone surrogate as raw bytes). */
const hostileBody: fc.Arbitrary<Buffer> = fc.oneof(
  { arbitrary: structural.map((text) => Buffer.from(text)), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((text) => Buffer.from(text)), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)), weight: 1 },
  {
    arbitrary: fc.tuple(structural, fc.constantFrom([0xef, 0xbb, 0xbf], [0xed, 0xa0, 0x80], [0xff], [0xc3, 0x28], [0xf4, 0x90, 0x80, 0x80])).map(([text, bytes]) => {
      const cut = Math.floor(text.length / 2);
      return Buffer.concat([Buffer.from(text.slice(0, cut)), Buffer.from(bytes), Buffer.from(text.slice(cut))]);
    }),
    weight: 1,
  },
);

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

describe('hostile bodies: judging never throws and stays within a budget per byte', () => {
  let env: JudgeEnv;
  beforeAll(async () => {
    env = await makeEnv();
    // The first judgements (JIT, lazy state) are start-up work, not work per byte.
    for (const status of STATUSES) {
      const ex = exchange(status, { id: 1, name: 'Rex', categoryId: 1, code: 'x', message: 'y', status });
      for (const name of NAMES) getCheck(name).judge(ex, { ...CONTEXTS[name], env } as never);
    }
  });

  it('the parser returns a value or throws JsonDecodeError, naming the bound a body goes past', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(hostileBody, (body) => {
        const started = cpuMs();
        try {
          parseJson(body);
        } catch (error) {
          expect(error).toBeInstanceOf(JsonDecodeError);
        }
        const text = body.toString('utf8');
        const parsed = jsonBody(exchange(200, raw(body)));
        if (parsed.ok) {
          expect(boundsProblem(text)).toBeUndefined();
          repeatedNames(parsed.names, parsed.value, () => text);
        } else if (boundsProblem(text) === undefined) expect(parsed.problem).not.toMatch(/nests deeper|members|elements|digits/);
        expect(cpuMs() - started).toBeLessThan(budgetMs(body.length));
      }),
      { numRuns: 150 },
    );
  });

  it('every check of the registry judges any body under any status without throwing', { timeout: 180_000 }, () => {
    fc.assert(
      fc.property(hostileBody, fc.constantFrom(...STATUSES), fc.constantFrom('application/json', 'text/plain'), (body, status, contentType) => {
        const ex = exchange(status, raw(body), { 'content-type': contentType });
        const started = cpuMs();
        for (const name of NAMES) {
          const verdict = getCheck(name).judge(ex, { ...CONTEXTS[name], env } as never);
          expect(OUTCOMES.has(verdict.outcome), `${name} gave ${JSON.stringify(verdict).slice(0, 200)}`).toBe(true);
          if (verdict.outcome === 'fail') expect(verdict.actual.length + verdict.expected.length).toBeLessThan(4_200);
          if (verdict.outcome === 'observe') expect(verdict.value.length + (verdict.detail?.length ?? 0)).toBeLessThan(4_200);
        }
        expect(cpuMs() - started).toBeLessThan(budgetMs(body.length));
      }),
      { numRuns: 120 },
    );
  });

  it('`__proto__` as a name changes no prototype and is judged as any other name', () => {
    for (const text of ['{"__proto__":{"polluted":1},"id":1}', '{"__proto__":1,"__proto__":2}', '{"id":12345678901234567890,"__proto__":{"x":1}}']) {
      const value = parseJson(text) as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.hasOwn(value, '__proto__')).toBe(true);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
