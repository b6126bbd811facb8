// vitest globalSetup: the CLI runs in the self-tests are of the bundle users run. A source edited since
// the last build would otherwise run through tsx (bin/fresh.mjs), about 100 MB more RSS and slower,
// which the matrix's hostile rows measure against their bounds.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BUILD_OUTPUTS, isFresh } from '../../bin/fresh.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default function setup(): void {
  const stale = Object.entries(BUILD_OUTPUTS).filter(([output, sources]) => !isFresh(ROOT, output, sources));
  if (stale.length === 0) return;
  process.stdout.write(`build-first: ${stale.map(([output]) => output).join(', ')} older than the sources: npm run build\n`);
  execFileSync(process.execPath, [fileURLToPath(new URL('../../bin/build.mjs', import.meta.url))], { stdio: 'inherit', timeout: 120_000 });
}
