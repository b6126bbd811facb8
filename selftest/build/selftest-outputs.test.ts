// What npm test makes for itself (vitest's JSON results for .ci/run, the browser test's screenshot)
// goes to a git-ignored folder of its own, never into reports/: that folder is a conformance run's,
// which a CI job uploads and a user reads.
import { spawnSync } from 'node:child_process';
import { isAbsolute, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';
import { PACKAGE_ROOT } from '../../src/paths.ts';
import { SELFTEST_DIR } from '../report/helpers.ts';

const git = (...args: string[]) => spawnSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8' });
const inWorkTree = git('rev-parse', '--is-inside-work-tree').stdout.trim() === 'true';

const outputFile = config.test?.outputFile;
const outputs = [
  typeof outputFile === 'object' ? outputFile.json : outputFile,
  join(SELFTEST_DIR, 'report-screenshot.png'),
].map((path) => (path === undefined ? 'unset' : isAbsolute(path) ? relative(PACKAGE_ROOT, path) : path));

describe("npm test's own outputs", () => {
  it('lie outside reports/ and inside the package', () => {
    expect(outputs).toEqual([expect.stringMatching(/^\.selftest\//), expect.stringMatching(/^\.selftest\//)]);
  });

  it.runIf(inWorkTree)('are git-ignored', () => {
    for (const path of outputs) expect(git('check-ignore', '-q', path).status, path).toBe(0);
  });
});
