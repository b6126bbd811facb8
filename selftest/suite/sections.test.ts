import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const TESTS = new URL('../../tests/', import.meta.url);

describe('tests/sections.ts', () => {
  it('imports every section file of tests/, so a run across a network leaves none out', () => {
    const files = readdirSync(TESTS).filter((name) => name.endsWith('.test.ts')).sort();
    const imported = [...readFileSync(new URL('sections.ts', TESTS), 'utf8').matchAll(/^import '\.\/([^']+)';$/gm)].map((m) => m[1]).sort();
    expect(imported).toEqual(files);
  });
});
