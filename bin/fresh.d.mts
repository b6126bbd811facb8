/** What each bundle is built from: folders or files, relative to the package folder. */
export const BUNDLE_SOURCES: { cli: string[]; reference: string[]; tests: string[] };
/** Every output the build stamps (a path relative to the package folder), with what it is built from. */
export const BUILD_OUTPUTS: Record<'dist/cli.js' | 'dist/reference.js' | 'dist/tests' | 'dist/spec-cache.json', string[]>;
/** Where the build writes the digest of each output's sources. */
export const STAMP: string;
export type Stamp = Record<string, { sources: string[]; sha256: string }>;
/** The sha256 of the sources (folders or files) under `root`: every file's path and content (`digests`: those of single sources already taken). */
export function sourceDigest(root: string, sources: string[], digests?: Map<string, string>): string;
/** What the build records for its outputs: each one's sources and their digest. */
export function stampOf(root: string, outputs?: Record<string, string[]>): Stamp;
export function writeStamp(root: string, stamp: Stamp): void;
/** Whether a build output in the package folder `root` (file or folder) was built from the sources as they are now. */
export function isFresh(root: string, output: string, sources: string[]): boolean;
/** The path of dist/NAME.js when it is fresh, else undefined. */
export function freshBundle(name: 'cli' | 'reference'): string | undefined;
