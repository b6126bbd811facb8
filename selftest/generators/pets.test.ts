/** generators/pets.ts: every NewPet it draws is valid by the contract, and the draws reach the edges. */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { coreNewPet, edgeNewPets, invalidNewPetCases, newPet, newPetWithNullOptional, newPetWithUnknownField, statusValues, nameEdge } from '../../generators/index.ts';
import { parseJson, stringifyJson } from '../../src/json/lossless.ts';
import { makeEnv, SEED, type Env } from './helpers.ts';

const SAFE = 2n ** 53n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** categoryIds the target is known to accept (tests/support/categories.ts), one beyond 2^53. */
const KNOWN = [7, 2n ** 60n];
const isKnown = (id: unknown) => KNOWN.some((known) => known === id);

let env: Env;
beforeAll(async () => {
  env = await makeEnv();
});

describe('newPet', () => {
  it('always validates as NewPet, as drawn and as sent on the wire', () => {
    fc.assert(
      fc.property(newPet(env.contract, KNOWN), (pet) => {
        expect(env.validators.validate('NewPet', pet)).toEqual([]);
        expect(env.validators.validate('NewPet', parseJson(stringifyJson(pet)))).toEqual([]);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('uses a bigint exactly when a double could not hold the categoryId', () => {
    fc.assert(
      fc.property(newPet(env.contract, KNOWN), ({ categoryId }) => {
        if (typeof categoryId === 'number') expect(Number.isSafeInteger(categoryId)).toBe(true);
        else {
          expect(typeof categoryId).toBe('bigint');
          const n = categoryId as bigint;
          expect(n >= SAFE || n <= -SAFE).toBe(true);
          expect(n >= INT64_MIN && n <= INT64_MAX).toBe(true);
        }
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  describe('over 500 draws', () => {
    let pets: Record<string, unknown>[];
    beforeAll(() => {
      pets = fc.sample(newPet(env.contract, KNOWN), { seed: SEED, numRuns: 500 });
    });

    it('some have status and some do not', () => {
      const withStatus = pets.filter((p) => Object.hasOwn(p, 'status'));
      expect(withStatus.length).toBeGreaterThan(0);
      expect(withStatus.length).toBeLessThan(pets.length);
      for (const p of withStatus) expect(statusValues(env.contract)).toContain(p.status);
    });

    it('never send an id (not part of the input) and always name and categoryId', () => {
      for (const p of pets) {
        expect(Object.hasOwn(p, 'id')).toBe(false);
        expect(typeof p.name).toBe('string');
        expect(Object.hasOwn(p, 'categoryId')).toBe(true);
      }
    });

    it('some categoryId are bigints beyond 2^53 and within int64, the extremes included', () => {
      const big = pets.map((p) => p.categoryId).filter((v): v is bigint => typeof v === 'bigint');
      const beyond = big.filter((v) => (v > SAFE || v < -SAFE) && v >= INT64_MIN && v <= INT64_MAX);
      expect(beyond.length).toBeGreaterThan(0);
      expect(big).toContain(INT64_MAX);
      expect(big).toContain(INT64_MIN);
    });

    it('about half carry a known categoryId, the others any int64', () => {
      const known = pets.filter((p) => isKnown(p.categoryId)).length;
      expect(known).toBeGreaterThan(pets.length / 3);
      expect(known).toBeLessThan((pets.length * 2) / 3);
      for (const id of KNOWN) expect(pets.some((p) => p.categoryId === id)).toBe(true);
    });

    it('some names are empty, some longer than 1000 characters, some non-ASCII', () => {
      const names = pets.map((p) => p.name as string);
      expect(names.some((n) => n === '')).toBe(true);
      expect(names.some((n) => n.length > 1000)).toBe(true);
      expect(names.some((n) => [...n].some((char) => char.codePointAt(0)! > 0x7f))).toBe(true);
    });
  });
});

describe('edgeNewPets', () => {
  it('all validate as NewPet, as given and on the wire', () => {
    const edges = edgeNewPets(env.contract, KNOWN);
    expect(edges.length).toBeGreaterThan(0);
    for (const pet of edges) {
      expect(env.validators.validate('NewPet', pet), stringifyJson(pet).slice(0, 80)).toEqual([]);
      expect(env.validators.validate('NewPet', parseJson(stringifyJson(pet)))).toEqual([]);
    }
  });

  it('try every status under a core name and a known categoryId, and none', () => {
    const edges = edgeNewPets(env.contract, KNOWN);
    const core = edges.filter((p) => nameEdge(p.name as string) === undefined && isKnown(p.categoryId));
    const statuses = new Set(core.map((p) => p.status));
    for (const status of statusValues(env.contract)) expect(statuses.has(status)).toBe(true);
    expect(edges.some((p) => !Object.hasOwn(p, 'status'))).toBe(true);
  });

  it('try the int64 limits, an unsafe integer, 0 and a negative categoryId, each under a core name', () => {
    const edges = edgeNewPets(env.contract, KNOWN).filter((p) => !isKnown(p.categoryId));
    for (const pet of edges) expect(nameEdge(pet.name as string), String(pet.categoryId)).toBeUndefined();
    const ids = edges.map((p) => p.categoryId);
    for (const id of [INT64_MAX, INT64_MIN, SAFE + 1n, 0, -1]) expect(ids).toContain(id);
  });

  it('try the names a server may refuse under known categoryIds only, so a refusal is down to the name', () => {
    for (const pet of edgeNewPets(env.contract, KNOWN).filter((p) => nameEdge(p.name as string))) expect(isKnown(pet.categoryId)).toBe(true);
  });

  it('try the longest and the shortest core name, so a server whose names stop short of the core fails whatever the seed', () => {
    const core = edgeNewPets(env.contract, KNOWN).map((p) => p.name as string).filter((name) => nameEdge(name) === undefined);
    expect(core.map((name) => name.length)).toEqual(expect.arrayContaining([3, 12]));
  });

  it('need a known categoryId, as every NewPet a server must take does', () => {
    expect(() => edgeNewPets(env.contract, [])).toThrow(/categoryId the target accepts/);
    expect(() => coreNewPet(env.contract, [])).toThrow(/categoryId the target accepts/);
  });

  it('always try the names a server may refuse: empty, long, NUL, a control character, a lone surrogate, padded', () => {
    const whys = edgeNewPets(env.contract, KNOWN).map((p) => nameEdge(p.name as string)?.why);
    for (const why of ['empty', 'over 12 characters', 'under 3 characters', 'characters other than ASCII letters and single spaces', 'a NUL character', 'a control character', 'a lone surrogate', 'blank or padded with white space']) expect(whys).toContain(why);
  });
});

describe('coreNewPet', () => {
  it('is a valid NewPet with a core name, and is the base of the invalid and unknown-field bodies (100 draws)', () => {
    fc.assert(
      fc.property(coreNewPet(env.contract, KNOWN), newPetWithUnknownField(env.contract, KNOWN), (pet, withUnknown) => {
        expect(env.validators.validate('NewPet', pet)).toEqual([]);
        expect(nameEdge(pet.name as string)).toBeUndefined();
        expect(isKnown(pet.categoryId)).toBe(true);
        expect(nameEdge(withUnknown.name as string)).toBeUndefined();
        expect(isKnown(withUnknown.categoryId)).toBe(true);
      }),
      { numRuns: 100, seed: SEED },
    );
    const missingCategory = invalidNewPetCases(env.contract, KNOWN).find((c) => c.rule === 'categoryId missing')!;
    for (const body of fc.sample(missingCategory.arbitrary, { seed: SEED, numRuns: 50 })) {
      expect(nameEdge(JSON.parse(body.body!).name)).toBeUndefined();
    }
    const missingName = invalidNewPetCases(env.contract, KNOWN).find((c) => c.rule === 'name missing')!;
    for (const body of fc.sample(missingName.arbitrary, { seed: SEED, numRuns: 50 })) expect(isKnown((parseJson(body.body!) as Record<string, unknown>).categoryId)).toBe(true);
  });
});

describe('newPetWithNullOptional', () => {
  it('sends a valid NewPet with status null; the NewPet without it is valid (100 draws)', () => {
    fc.assert(
      fc.property(newPetWithNullOptional(env.contract, KNOWN), ({ field, input, body }) => {
        expect(field).toBe('status');
        expect(Object.hasOwn(input, 'status')).toBe(false);
        expect(env.validators.validate('NewPet', input)).toEqual([]);
        expect(isKnown(input.categoryId)).toBe(true);
        expect(parseJson(body)).toEqual({ ...input, status: null });
      }),
      { numRuns: 100, seed: SEED },
    );
  });

  it('is no longer among the invalid bodies, while null for a required field is', () => {
    const rules = invalidNewPetCases(env.contract, KNOWN).map((c) => c.rule);
    expect(rules).not.toContain('status null (not nullable)');
    expect(rules).toContain('name null (not nullable)');
    expect(rules).toContain('categoryId null (not nullable)');
  });
});

describe('newPetWithUnknownField', () => {
  it('is a valid NewPet (schemas stay open) with one field the schema does not list', () => {
    const listed = Object.keys(env.contract.schemas.NewPet?.properties ?? {});
    fc.assert(
      fc.property(newPetWithUnknownField(env.contract, KNOWN), (pet) => {
        expect(env.validators.validate('NewPet', pet)).toEqual([]);
        expect(Object.keys(pet).filter((k) => !listed.includes(k))).toHaveLength(1);
      }),
      { numRuns: 100, seed: SEED },
    );
  });
});
