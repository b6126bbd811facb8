import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareReportsDir } from '../../src/cli/reports-dir.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('reports folders of shards run side by side', () => {
  it('are made under one new parent at the same moment without a clash', async () => {
    const parent = join(tempDir('asc-shard-dirs-'), 'shards', 'deep');
    const dirs = Array.from({ length: 8 }, (_, i) => join(parent, String(i + 1)));
    await Promise.all(dirs.map((dir) => prepareReportsDir(dir)));
    for (const dir of dirs) expect(statSync(dir).isDirectory()).toBe(true);
  });
});
