/**
 * Imports a TypeScript entry point from the sources through tsx: what a launcher does when its bundle
 * in dist/ is not fresh (see fresh.mjs). tsx is a devDependency: a clone has it, so an edit there
 * takes effect without a build. An installed package has neither tsx nor esbuild and runs the dist/
 * it ships, which is fresh unless its sources were edited or CONFORMANCE_FROM_SOURCES is set: then
 * one line says so, and the process ends with exit 4 (the engine itself broke).
 */
export async function importSources(entry, bundle) {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes("'tsx'")) throw error;
    const [why, fix] = process.env.CONFORMANCE_FROM_SOURCES
      ? ['CONFORMANCE_FROM_SOURCES is set', 'unset it to run the build in dist/']
      : [`${bundle} is missing or was built from other sources than those beside it`, 'reinstall the package, or run npm run build where its devDependencies are installed (npm ci in a clone)'];
    process.stderr.write(`animal-store-conformance: ${why}, and tsx, which runs the sources, is not installed (a devDependency): ${fix}\n`);
    process.exit(4);
  }
  register();
  return import(entry);
}
