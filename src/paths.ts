import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own folder, found by walking up to its package.json, so paths hold whether this code
 * runs from src/ (through tsx) or bundled into dist/.
 */
function findPackageRoot(from: string): string {
  for (let dir = dirname(fileURLToPath(from)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'animal-store-conformance') return dir;
    if (dirname(dir) === dir) throw new Error('cannot find the animal-store-conformance package folder');
  }
}

export const PACKAGE_ROOT = findPackageRoot(import.meta.url);
export const fromPackage = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);
export const PACKAGE_VERSION = (JSON.parse(readFileSync(fromPackage('package.json'), 'utf8')) as { version: string }).version;
