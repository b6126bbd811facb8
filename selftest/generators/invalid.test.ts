/**
 * generators/invalid.ts through invalidNewPetCases and invalidMessageCases: every body drawn is
 * invalid by the contract, and breaks the rule it names (the media type, or else the body alone).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalidMessageCases, invalidNewPet, notUtf8MessageCases, notUtf8NewPetCases, invalidNewPetCases, JSON_WITH_CHARSET, JSONISH_MEDIA_TYPES, OTHER_MEDIA_TYPES, type InvalidBody, type InvalidCase } from '../../generators/index.ts';
import { isJsonMediaType } from '../../src/checks/common.ts';
import { JsonDecodeError, parseJson } from '../../src/json/lossless.ts';
import { UTF16_CONTENT_TYPE } from '../../generators/not-utf8.ts';
import { bodyInvalidity, invalidity, makeEnv, SEED, type Env } from './helpers.ts';

let env: Env;
beforeAll(async () => {
  env = await makeEnv();
});

const RUNS_PER_CASE = 25;

function kindOf(text: string): 'empty' | 'not JSON' | 'JSON, not an object' | 'an object' {
  if (text === '') return 'empty';
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    if (error instanceof JsonDecodeError) return 'not JSON';
    throw error;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? 'an object' : 'JSON, not an object';
}

/** A form or XML body read back as a form parser or an XML binding would: each field a string. */
function readWritten(body: InvalidBody): Record<string, string> | undefined {
  const text = body.body ?? '';
  if (body.contentType === 'application/x-www-form-urlencoded' && !text.startsWith('{')) return Object.fromEntries(new URLSearchParams(text));
  if (body.contentType === 'application/xml' && text.startsWith('<?xml')) {
    const unescape = (s: string) => s.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[name]!);
    return Object.fromEntries([...text.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((m) => [m[1]!, unescape(m[2]!)]));
  }
  return undefined;
}

/** Every draw of every case is invalid, labelled with its case, and breaks no more than its kind says. */
function checkCases(schema: 'NewPet' | 'NewMessage', cases: InvalidCase[]): void {
  expect(cases.length).toBeGreaterThan(0);
  for (const [index, c] of cases.entries()) {
    fc.assert(
      fc.property(c.arbitrary, (body: InvalidBody) => {
        const label = `${c.rule}: ${JSON.stringify(body.body)?.slice(0, 120)}`;
        expect(body.rule, label).toBe(c.rule);
        expect(body.kind, label).toBe(c.kind);
        expect(invalidity(env.validators, schema, body), label).toBeDefined();
        const written = readWritten(body);
        if (written) {
          // A valid input written in the label's own encoding: read that way, it is valid.
          expect(bodyInvalidity(env.validators, schema, { ...body, body: JSON.stringify(written) }), label).toBeUndefined();
          return;
        }
        if (c.kind === 'media-type') {
          // Only the media type is wrong: the same body as application/json would be valid.
          expect(body.contentType, label).not.toBe('application/json');
          expect(bodyInvalidity(env.validators, schema, body), label).toBeUndefined();
        } else {
          expect(body.contentType, label).toBe('application/json');
        }
        const text = body.body ?? '';
        const parsed = kindOf(text);
        if (c.kind === 'empty') expect(text, label).toBe('');
        else if (c.kind === 'syntax') expect(parsed, label).toBe('not JSON');
        else if (c.kind === 'not-object') expect(parsed, label).toBe('JSON, not an object');
        else expect(parsed, label).toBe('an object');
      }),
      { numRuns: c.kind === 'not-object' || c.kind === 'empty' ? 1 : RUNS_PER_CASE, seed: SEED + index },
    );
  }
}

describe('invalidNewPetCases', () => {
  it('every drawn body is invalid by the contract', () => {
    checkCases('NewPet', invalidNewPetCases(env.contract, [1]));
  });

  it('covers a missing field, a wrong type, null, a fraction, 1e400, the int64 range, the enum, syntax and emptiness, not the media type (§4.2 states no 400 for it)', () => {
    const kinds = new Set(invalidNewPetCases(env.contract, [1]).map((c) => c.kind));
    expect([...kinds].sort()).toEqual(['empty', 'enum', 'missing', 'not-integer', 'not-object', 'null', 'range', 'syntax', 'type']);
    const rules = invalidNewPetCases(env.contract, [1]).map((c) => c.rule);
    for (const rule of ['name missing', 'categoryId missing', 'categoryId above int64', 'categoryId below int64', 'categoryId not an integer (1e400)', 'status outside the enum ("Available")', 'categoryId of the wrong JSON type (string "7")', 'categoryId of the wrong JSON type (boolean true)', 'categoryId missing (given as "category_id")', 'name missing (given as "text")', 'body an array holding a valid one', 'name and categoryId missing (a valid body wrapped in {"pet": …})', 'name and categoryId missing (a valid body wrapped in {"data": …})']) {
      expect(rules).toContain(rule);
    }
  });

  it('invalidNewPet (any one case) is invalid too (200 draws)', () => {
    fc.assert(
      fc.property(invalidNewPet(env.contract, [1]), (body) => {
        expect(invalidity(env.validators, 'NewPet', body), body.rule).toBeDefined();
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('has unique rule labels', () => {
    const rules = invalidNewPetCases(env.contract, [1]).map((c) => c.rule);
    expect(rules.filter((rule, i) => rules.indexOf(rule) !== i)).toEqual([]);
  });
});

describe('invalidMessageCases', () => {
  it('every drawn body is invalid by the contract', () => {
    checkCases('NewMessage', invalidMessageCases(env.contract));
  });

  it('messages.non-string judges exactly the wrong-type and null rules, messages.invalid-400 the rest', () => {
    for (const c of invalidMessageCases(env.contract)) {
      const byRule = /of the wrong JSON type|null \(not nullable\)/.test(c.rule);
      const byKind = c.kind === 'type' || c.kind === 'null';
      expect(byRule, c.rule).toBe(byKind);
      expect(c.clause, c.rule).toBe(byKind ? 'messages.non-string' : 'messages.invalid-400');
    }
    const cases = invalidMessageCases(env.contract);
    // The three 400 conditions §4.5 lists are all judged as stated.
    for (const kind of ['syntax', 'missing', 'media-type'] as const) {
      const ofKind = cases.filter((c) => c.kind === kind);
      expect(ofKind.length, kind).toBeGreaterThan(0);
      expect(ofKind.every((c) => c.clause === 'messages.invalid-400'), kind).toBe(true);
    }
  });

  it('covers the message under another name, in an array and in an envelope', () => {
    const rules = invalidMessageCases(env.contract).map((c) => c.rule);
    for (const rule of ['message missing (given as "text")', 'body an array holding a valid one', 'message missing (a valid body wrapped in {"data": …})']) expect(rules).toContain(rule);
  });

  it('has unique rule labels', () => {
    const rules = invalidMessageCases(env.contract).map((c) => c.rule);
    expect(rules.filter((rule, i) => rules.indexOf(rule) !== i)).toEqual([]);
  });
});

describe('bodies that are not UTF-8 (generators/not-utf8.ts)', () => {
  it('each is a valid NewMessage or NewPet but for the bytes its rule names, which no strict decoder takes', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    const cases = [...notUtf8MessageCases().map((c) => ({ ...c, schema: 'NewMessage' as const })), ...notUtf8NewPetCases(env.contract, [3]).map((c) => ({ ...c, schema: 'NewPet' as const }))];
    expect(cases.length).toBeGreaterThanOrEqual(12);
    for (const [index, c] of cases.entries()) {
      if (c.rule.startsWith('body in UTF-16')) {
        fc.assert(
          fc.property(c.arbitrary, (sent) => {
            expect(sent.contentType).toBe(UTF16_CONTENT_TYPE);
            expect(() => strict.decode(sent.body), c.rule).toThrow();
            expect([...sent.body.subarray(0, 2)]).toEqual([0xff, 0xfe]);
            const text = new TextDecoder('utf-16le').decode(sent.body.subarray(2));
            expect(bodyInvalidity(env.validators, c.schema, { rule: c.rule, kind: 'type', body: text, contentType: 'application/json' }), c.rule).toBeUndefined();
          }),
          { numRuns: RUNS_PER_CASE, seed: SEED + index },
        );
        continue;
      }
      const hex = /\(((?:0x[0-9A-F]{2} ?)+)\)$/.exec(c.rule)![1]!.trim().split(' ');
      const bad = Buffer.from(hex.map((h) => parseInt(h, 16)));
      fc.assert(
        fc.property(c.arbitrary, (sent) => {
          expect(sent.rule).toBe(c.rule);
          expect(sent.contentType).toBe('application/json');
          expect(() => strict.decode(sent.body), c.rule).toThrow();
          const at = sent.body.indexOf(bad);
          expect(at, c.rule).toBeGreaterThan(0);
          const without = Buffer.concat([sent.body.subarray(0, at), sent.body.subarray(at + bad.length)]);
          expect(bodyInvalidity(env.validators, c.schema, { rule: c.rule, kind: 'type', body: strict.decode(without), contentType: 'application/json' }), c.rule).toBeUndefined();
        }),
        { numRuns: RUNS_PER_CASE, seed: SEED + index },
      );
    }
  });
});

describe('media types', () => {
  it('JSON_WITH_CHARSET are application/json with a parameter; OTHER_MEDIA_TYPES are not application/json', () => {
    for (const type of JSON_WITH_CHARSET) {
      expect(isJsonMediaType(type), type).toBe(true);
      expect(type).toMatch(/;\s*charset=/i);
    }
    for (const type of OTHER_MEDIA_TYPES) expect(isJsonMediaType(type ?? undefined), String(type)).toBe(false);
  });

  it('the message operation gets 400 cases for types that are JSON by name only (text/json, application/x-json, +json)', () => {
    const sent = invalidMessageCases(env.contract)
      .filter((c) => c.kind === 'media-type' && c.clause === 'messages.invalid-400')
      .map((c) => fc.sample(c.arbitrary, { seed: SEED, numRuns: 1 })[0]?.contentType);
    for (const type of JSONISH_MEDIA_TYPES) expect(sent, type).toContain(type);
    expect(JSONISH_MEDIA_TYPES).toEqual(expect.arrayContaining(['text/json', 'application/x-json', 'application/vnd.api+json']));
  });

  it('the message operation gets a real form body and a real XML body under their own types, for a server whose framework reads those too', () => {
    const written = invalidMessageCases(env.contract)
      .filter((c) => c.kind === 'media-type' && c.clause === 'messages.invalid-400')
      .flatMap((c) => fc.sample(c.arbitrary, { seed: SEED, numRuns: 3 }))
      .filter((body) => readWritten(body) !== undefined);
    expect(new Set(written.map((body) => body.contentType))).toEqual(new Set(['application/x-www-form-urlencoded', 'application/xml']));
    for (const body of written) expect(Object.keys(readWritten(body)!), body.body).toEqual(['message']);
  });
});
