// Files the user names are read with a size cap: a device that never ends, a FIFO nobody writes, a
// huge file end the run at once with one line and exit 2.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type Io } from '../../src/cli.ts';
import { readCapped } from '../../src/config/read-capped.ts';
import { resolveSettings } from '../../src/config/settings.ts';
import { UsageError } from '../../src/errors.ts';
import { tempDir } from '../support/temp-dir.ts';

const cwd = '/nonexistent-dir-without-dotenv';

function capture(): Io & { text: () => string } {
  let out = '';
  return { out: (t) => (out += t), err: (t) => (out += t), isTty: false, text: () => out };
}

/** A FIFO no process writes to (mkfifo is POSIX; the test is skipped where it is missing). */
function fifo(): string | undefined {
  const path = join(tempDir('asc-fifo-'), 'fifo');
  try {
    execFileSync('mkfifo', [path]);
    return path;
  } catch {
    return undefined;
  }
}

describe('settings files are read with a size cap', () => {
  it('--api-key-file /dev/zero: one line, exit 2, at once', { timeout: 10_000 }, () => {
    expect(() => resolveSettings(['--api-key-file', '/dev/zero'], {}, cwd)).toThrow(
      new UsageError('--api-key-file: /dev/zero is longer than 4 KB, read no further (a key file holds one key)'),
    );
  });

  it('a key file of 5 KB is refused, one of 4 KB read', () => {
    const dir = tempDir('asc-key-cap-');
    writeFileSync(join(dir, 'big'), 'k'.repeat(5 * 1024));
    writeFileSync(join(dir, 'fits'), `${'k'.repeat(4 * 1024 - 1)}\n`);
    const target = ['--base-url', 'https://api.example.com'];
    expect(() => resolveSettings(['--api-key-file', join(dir, 'big'), ...target], {}, cwd)).toThrow(/is longer than 4 KB, read no further/);
    expect(resolveSettings(['--api-key-file', join(dir, 'fits'), ...target], {}, cwd).apiKey).toHaveLength(4 * 1024 - 1);
  });

  it('a FIFO nobody writes to reads as empty rather than hanging', { timeout: 10_000 }, () => {
    const path = fifo();
    if (!path) return;
    expect(() => resolveSettings(['--api-key-file', path], {}, cwd)).toThrow(new UsageError(`--api-key-file (${path}): the file is empty`));
  });

  it('.env past 64 KB is a usage error naming it', () => {
    const dir = tempDir('asc-dotenv-cap-');
    writeFileSync(join(dir, '.env'), `# ${'x'.repeat(64 * 1024)}\n`);
    expect(() => resolveSettings([], {}, dir)).toThrow(new UsageError('.env: longer than 64 KB, read no further'));
  });

  it('--baseline /dev/zero and compare /dev/zero end with one line and exit 2', { timeout: 20_000 }, async () => {
    const baseline = capture();
    expect(await main(['--baseline', '/dev/zero', '--dry-run'], baseline, {})).toBe(2);
    expect(baseline.text()).toBe('animal-store-conformance: --baseline: Cannot read baseline file /dev/zero: longer than 1 MB, read no further\n');
    const compare = capture();
    expect(await main(['compare', '/dev/zero', '/dev/zero'], compare, {})).toBe(2);
    expect(compare.text()).toBe('animal-store-conformance: compare: cannot read /dev/zero as JSON (longer than 64 MB, read no further)\n');
  });

  it('readCapped reads a small file whole, and names a missing one', () => {
    const path = join(tempDir('asc-capped-'), 'small');
    writeFileSync(path, 'héllo');
    expect(readCapped(path, 6)).toBe('héllo');
    expect(() => readCapped(path, 5)).toThrow('longer than 5 bytes, read no further');
    expect(() => readCapped(`${path}-missing`, 5)).toThrow('no such file');
  });
});
