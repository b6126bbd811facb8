import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { failedClauses, runCli } from '../support/run-cli.ts';

const KEY = 'client-id-replay-secret-9d2';

describe('fault-client-id-honoured (a free client id is taken), the run replayed with its seed', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY, deviations: ['fault-client-id-honoured'] });
  });
  afterAll(() => reference.close());

  it('fails create.ignores-client-id again, though the first run took the id the seed drew first', async () => {
    const args = ['--base-url', reference.baseUrl, '--seed', '42', '--only', 'create.ignores-client-id', '--quiet'];
    for (let run = 0; run < 2; run++) {
      const result = await runCli(args, { API_KEY: KEY });
      expect(result.code).toBe(1);
      expect(failedClauses(result.report)).toContain('create.ignores-client-id');
    }
  });
});
