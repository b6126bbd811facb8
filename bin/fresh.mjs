import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * The bundle dist/NAME.js (npm run build, run on install) when it is at least as new as the
 * sources it was built from; else undefined, and the caller runs the sources through tsx, so an
 * edit takes effect without a build.
 */
export function freshBundle(name, sourceDirs) {
  const bundle = here(`../dist/${name}.js`);
  if (!existsSync(bundle)) return undefined;
  return statSync(bundle).mtimeMs >= Math.max(...sourceDirs.map((dir) => newest(here(`../${dir}`)))) ? bundle : undefined;
}
