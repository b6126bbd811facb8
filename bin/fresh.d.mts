/** Whether a build output in the package folder `root` (file or folder) is at least as new as the folders it was built from. */
export function isFresh(root: string, output: string, sourceDirs: string[]): boolean;
/** The path of dist/NAME.js when it is fresh, else undefined. */
export function freshBundle(name: string, sourceDirs: string[]): string | undefined;
