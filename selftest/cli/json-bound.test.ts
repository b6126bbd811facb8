// A JSON answer past a bound of the suite's own reading (src/json/bounds.ts) is no evidence against
// the server: the spec fixes no bound on nesting or on members, and a Pet may carry extra members.
// So the run judges it on its status alone, fails nothing for it, and exits 3 saying why.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostile, type RunningHostile } from '../../reference/hostile.ts';
import { failedClauses, runCli } from '../support/run-cli.ts';

const KEY = 'json-bound-test-key-51c3e8';

describe('a listed animal with 200,000 members, past the bound of 1,000 the suite reads', () => {
  let server: RunningHostile;
  beforeAll(async () => {
    server = await startHostile('hostile-many-keys', { apiKey: KEY });
  });
  afterAll(() => server.close());

  it('fails no clause, leaves the listing clauses unjudged for that reason, and exits 3 with one line naming the bounds', async () => {
    const result = await runCli(['--base-url', server.baseUrl, '--messages-base-url', server.messagesBaseUrl, '--runs', '3', '--seed', '5', '--stateful', 'off'], { API_KEY: KEY });
    expect(failedClauses(result.report), result.stdout).toEqual([]);
    expect(result.code).toBe(3);
    const listing = result.report?.clauses.find((c) => c.id === 'list.200-pets');
    expect(listing?.coverage?.unjudged?.listPets?.reason).toMatch(/^the answer's JSON body went past a bound of the suite's own reading \(an object with 200,00\d members/);
    expect(JSON.stringify(listing)).toMatch(/"blockedBy":"json-bound"/);
    expect(result.stderr).toMatch(/^animal-store-conformance: JSON past the suite's bounds: \d+ MUST clauses? (was|were) left unjudged/m);
    expect(result.stderr).not.toMatch(/no answer:/);
  });
});
