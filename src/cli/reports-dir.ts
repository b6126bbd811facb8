import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import { REPORT_FILES } from '../report/index.ts';

/**
 * Creates the reports folder and writes a file into it before anything is sent, so a folder that
 * cannot take the reports is one line (exit 2), not a crash after the whole run. Made one level at
 * a time: mkdir's recursive mode never returns for a path under /proc. With clearStale, the four
 * reports a previous run left are removed, so a run that stops early (exit 2 or 3) leaves none for
 * CI to publish as its own; created.json and regressions/ stay, as records of the runs that wrote them.
 */
export async function prepareReportsDir(dir: string, options: { clearStale?: boolean } = {}): Promise<void> {
  const missing: string[] = [];
  try {
    for (let at = resolve(dir); ; at = dirname(at)) {
      const found = await stat(at).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (found) {
        if (!found.isDirectory()) throw Object.assign(new Error(`${at} is not a folder`), { code: 'ENOTDIR' });
        break;
      }
      missing.unshift(at);
      if (dirname(at) === at) break;
    }
    // Shards run side by side may make a shared parent (shards/ of shards/1, shards/2) at the same moment.
    for (const folder of missing) {
      await mkdir(folder).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST' || !(await stat(folder)).isDirectory()) throw error;
      });
    }
    const probe = join(dir, `.write-test-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe);
    if (options.clearStale) await Promise.all(Object.values(REPORT_FILES).map((name) => rm(join(dir, name), { force: true })));
  } catch (error) {
    throw new UsageError(`--reports: cannot write the reports to ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
