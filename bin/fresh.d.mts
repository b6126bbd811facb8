/** Whether a build output in the package folder `root` (file or folder) is at least as new as the folders it was built from. */
export function isFresh(root: string, output: string, sourceDirs: string[]): boolean;
/** What each bundle is built from: folders or files, relative to the package folder. */
export const BUNDLE_SOURCES: { cli: string[]; reference: string[]; tests: string[] };
/** The path of dist/NAME.js when it is fresh, else undefined. */
export function freshBundle(name: 'cli' | 'reference'): string | undefined;
