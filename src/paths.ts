import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own folder and manifest, found by walking up to its package.json, so paths hold
 * whether this code runs from src/ (through tsx) or bundled into dist/.
 */
function findPackage(from: string): { root: string; version: string } {
  for (let dir = dirname(fileURLToPath(from)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version: string };
      if (name === 'animal-store-conformance') return { root: dir, version };
    }
    if (dirname(dir) === dir) throw new Error('cannot find the animal-store-conformance package folder');
  }
}

const PACKAGE = findPackage(import.meta.url);
export const PACKAGE_ROOT = PACKAGE.root;
export const PACKAGE_VERSION = PACKAGE.version;
export const fromPackage = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);
