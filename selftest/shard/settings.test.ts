import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.ts';
import { homeShard, runsHere, shareOf } from '../../src/suite/shard.ts';

const cwd = '/nonexistent-dir-without-dotenv';

describe('--shard and merge settings', () => {
  it('reads --shard i/n or SHARD, the flag winning', () => {
    expect(resolveSettings(['--seed', '1', '--shard', '2/4'], {}, cwd).shard).toEqual({ index: 2, count: 4 });
    expect(resolveSettings([], { SHARD: '3/8', SEED: '5' }, cwd).shard).toEqual({ index: 3, count: 8 });
    expect(resolveSettings(['--shard', '1/2'], { SHARD: '3/8', SEED: '5' }, cwd).shard).toEqual({ index: 1, count: 2 });
    expect(resolveSettings(['--seed', '1'], {}, cwd).shard).toBeUndefined();
  });

  it('refuses a share that does not exist, naming the setting', () => {
    for (const bad of ['0/2', '3/2', '2', 'a/b', '1/0', '1/257']) {
      expect(() => resolveSettings(['--seed', '1', '--shard', bad], {}, cwd), bad).toThrow(/^--shard: expected i\/n/);
    }
    expect(() => resolveSettings([], { SHARD: '5/4', SEED: '1' }, cwd)).toThrow(/^SHARD \(environment\): expected i\/n/);
  });

  it('takes the report files of merge, whatever target settings the job has', () => {
    const settings = resolveSettings(['merge', 'a.json', 'b.json', '--reports', 'out'], { STAGING_BASE_URL: 'https://staging.example' }, cwd);
    expect(settings).toMatchObject({ command: 'merge', mergeFiles: ['a.json', 'b.json'], reportsDir: 'out' });
    expect(() => resolveSettings(['merge'], {}, cwd)).toThrow(/^merge takes the report\.json files/);
  });
});

describe('the shares', () => {
  it('give every input to exactly one shard, in turn', () => {
    for (const count of [1, 2, 3, 4, 8]) {
      const shares = Array.from({ length: count }, (_, i) => shareOf(27, { index: i + 1, count }, 'scenario:property'));
      expect(shares.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 27 }, (_, k) => k));
      for (const share of shares) expect(share.length).toBeGreaterThanOrEqual(Math.floor(27 / count));
    }
  });

  it('run a scenario that is not split in its home shard only, a split one in all', () => {
    const title = 'a petId that is not an int64 gives a 4xx with an Error';
    const homes = [1, 2, 3, 4].filter((index) => runsHere({ index, count: 4 }, title, false));
    expect(homes).toEqual([homeShard(title, 4)]);
    expect([1, 2, 3, 4].every((index) => runsHere({ index, count: 4 }, title, true))).toBe(true);
    expect(runsHere(undefined, title, false)).toBe(true);
  });
});
