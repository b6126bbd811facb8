/**
 * A cheap guard that generators do no I/O: a static scan of what generators/index.ts loads, following
 * relative imports. Type-only imports (`import type`, `export type`) are erased and not followed.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const INDEX = fileURLToPath(new URL('../../generators/index.ts', import.meta.url));

/** Network, file, process and timer modules: none belongs in an arbitrary. */
const FORBIDDEN = ['undici', 'http', 'https', 'http2', 'net', 'tls', 'dns', 'dgram', 'fs', 'fs/promises', 'child_process', 'worker_threads', 'timers', 'timers/promises'];

function isForbidden(specifier: string): boolean {
  const bare = specifier.replace(/^node:/, '');
  return FORBIDDEN.includes(bare) || bare.startsWith('undici/');
}

/** Module specifiers a file loads at run time. */
function runtimeImports(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  const statement = /(?:^|;|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of code.matchAll(statement)) if (!m[2]) found.push(m[4]!);
  for (const m of code.matchAll(/(?:^|;|\n)\s*import\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  for (const m of code.matchAll(/\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

/** Every file reached from `entry` by run-time relative imports, and the packages they load. */
function closure(entry: string): { files: string[]; packages: Map<string, string> } {
  const files: string[] = [];
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift()!;
    if (files.includes(file)) continue;
    files.push(file);
    for (const specifier of runtimeImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else packages.set(specifier, file);
    }
  }
  return { files, packages };
}

describe('generators do no I/O', () => {
  it('the scan reads import lines as TypeScript means them', () => {
    const source = [
      "import fc from 'fast-check';",
      "import type { Authorization } from '../src/http/client.ts';",
      "import { a, type B } from './a.ts';",
      'export { x, type Y } from "./x.ts";',
      "export type { Z } from './z.ts';",
      'import {',
      '  many,',
      '  lines,',
      "} from 'node:http';",
      "// import { request } from 'undici';",
      "const later = await import('node:net');",
    ].join('\n');
    expect(runtimeImports(source).sort()).toEqual(['./a.ts', './x.ts', 'fast-check', 'node:http', 'node:net'].sort());
  });

  it('importing generators/index.ts loads neither undici nor node:http (nor any other I/O module)', () => {
    const { files, packages } = closure(INDEX);
    expect(files.some((f) => f.endsWith('/generators/auth.ts'))).toBe(true);
    expect(files.some((f) => f.endsWith('/generators/schema.ts'))).toBe(true);
    expect([...packages.keys()]).toContain('fast-check');
    const bad = [...packages].filter(([specifier]) => isForbidden(specifier)).map(([specifier, file]) => `${specifier} (from ${file})`);
    expect(bad).toEqual([]);
    // The client (undici) may be named for its types only.
    expect(files.some((f) => f.endsWith('/src/http/client.ts'))).toBe(false);
  });
});
