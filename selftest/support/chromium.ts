/**
 * The Chromium the browser self-test drives: Debian's /usr/bin/chromium where it is installed,
 * otherwise the one the @sparticuz/chromium devDependency ships, so that `npm test` needs only Node
 * and npm. Nothing here waits for a browser to appear: a missing one is an error at once.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const PACKAGE = '@sparticuz/chromium';

/** Headless and quiet: no GPU, no sandbox (containers run as root), nothing fetched by the browser itself. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface FoundChromium {
  executablePath: string;
  /** Where it came from, for error messages. */
  source: string;
}

/** Finds a Chromium to launch, unpacking the packaged one if need be (bounded by unpackTimeoutMs). */
export async function findChromium(unpackTimeoutMs = 60_000): Promise<FoundChromium> {
  if (existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, source: SYSTEM_CHROMIUM };
  let packageJson: string;
  try {
    packageJson = join(dirname(createRequire(import.meta.url).resolve(PACKAGE)), '../../package.json');
  } catch {
    throw new Error(`No Chromium: ${SYSTEM_CHROMIUM} is not installed and the ${PACKAGE} devDependency is missing (run npm ci).`);
  }
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const source = `${PACKAGE} ${version}`;
  try {
    return { executablePath: await unpacked(version, unpackTimeoutMs), source };
  } catch (error) {
    throw new Error(`No Chromium: ${SYSTEM_CHROMIUM} is not installed and ${source} could not be unpacked: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * The package unpacks into os.tmpdir() and reuses whatever `chromium` it finds there, even a
 * half-written one. So it unpacks into a staging folder that is renamed into place when complete:
 * one folder per version, shared by concurrent runs, never partial.
 */
async function unpacked(version: string, timeoutMs: number): Promise<string> {
  const dir = join(tmpdir(), `animal-store-conformance-chromium-${version}`);
  const executable = join(dir, 'chromium');
  if (existsSync(executable)) return executable;
  const staging = mkdtempSync(`${dir}.partial-`);
  const savedTmpdir = process.env.TMPDIR;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    process.env.TMPDIR = staging;
    const unpack = chromium.executablePath();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`unpacking took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([unpack, timeout]);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    clearTimeout(timer);
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
  }
  try {
    chmodSync(staging, 0o755);
    chmodSync(join(staging, 'chromium'), 0o755);
    renameSync(staging, dir);
  } catch (error) {
    // Another run finished first: use its copy.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(executable)) throw error;
  }
  return executable;
}
