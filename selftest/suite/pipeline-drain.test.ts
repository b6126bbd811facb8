// After a failure a pipelined property awaits the requests still out; each answer is let go of as it
// comes, so a server sending large answers costs memory for one at a time, not for all of them.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./pipeline-drain.script.ts', import.meta.url));

describe('a pipelined property after a failure', () => {
  it('lets go of each answer still out as it drains, while a later one is still awaited', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', SCRIPT], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ answered: 2, collected: 2 });
  });
});
