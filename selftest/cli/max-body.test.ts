// An answer whose body passes --max-body is cut there by the suite itself: that is no evidence
// against the server (a full page of animals with long names may well be larger), so it is judged
// on its status alone, and the run says how many answers that was and which setting to raise.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { failedClauses, runCli } from '../support/run-cli.ts';

const KEY = 'max-body-test-key-7d02a1';

describe('--max-body below the size of some answers', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ apiKey: KEY });
  });
  afterAll(() => reference.close());

  it('fails no clause on the answers it cut, counts them and names the setting', async () => {
    // A page of 100 animals is well past 3,000 bytes; one of 10, or a Pet, is not.
    const result = await runCli(['--base-url', reference.baseUrl, '--messages-base-url', reference.messagesBaseUrl, '--max-body', '3000', '--runs', '3', '--seed', '5', '--stateful', 'off'], { API_KEY: KEY });
    expect(failedClauses(result.report), result.stdout).toEqual([]);
    expect(result.stdout).toMatch(/^Note: \d+ answers? had a body longer than --max-body \(3000 bytes\), the suite's own cap: judged on (its|their) status alone; raise --max-body/m);
    const listing = result.report?.clauses.find((c) => c.id === 'list.200-pets');
    expect(listing?.coverage?.unjudged?.listPets?.reason).toMatch(/passed --max-body \(3000 bytes\)/);
    expect(listing?.judgedByOperation?.listPets ?? 0).toBeGreaterThan(0);
    // What it left unjudged is put down to the cap, not to a target that went unanswered.
    expect(JSON.stringify(result.report?.clauses)).not.toMatch(/"blockedBy":"no-answer"/);
    if (result.code === 3) expect(result.stderr).toMatch(/^animal-store-conformance: body past --max-body: \d+ MUST clauses? (was|were) left unjudged, in whole or in part, because answers were longer than --max-body \(3000 bytes\)/m);
    expect(result.stderr).not.toMatch(/no answer:/);
  });
});
