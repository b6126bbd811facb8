// The categoryId probe (tests/support/categories.ts): the categoryId of its 201 is taken; a probe left
// unanswered is not sent again (the client itself sends once more what a close raced: src/http/client.ts).
// A canned client, no network.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.ts';
import type { Contract } from '../../src/contract/model.ts';
import type { OutgoingRequest } from '../../src/http/client.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { Recorder } from '../../src/suite/recorder.ts';
import { Scenario } from '../../src/suite/scenario.ts';
import type { WorkerContext } from '../../src/suite/worker.ts';
import { knownCategories, PROBE_CATEGORY_IDS } from '../../tests/support/categories.ts';
import { exchange, failed, pet } from '../checks/helpers.ts';

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract();
});

/** A scenario whose client answers the listing with no animal, then each POST with `posts` in turn. */
function probing(posts: Exchange[]): { s: Scenario; sent: string[] } {
  const sent: string[] = [];
  const client = {
    send: async (request: OutgoingRequest) => {
      sent.push(`${request.method} ${request.body ?? ''}`);
      return request.method === 'GET' ? exchange(200, []) : (posts.shift() ?? exchange(400, { code: 'bad_request', message: 'no', status: 400 }));
    },
  };
  const config = { baseUrl: 'http://127.0.0.1:1', messagesBaseUrl: 'http://127.0.0.1:2', apiKey: 'k', categoryIds: [], writes: true, skip: [] };
  const s = new Scenario({ contract, client, config } as unknown as WorkerContext, 'probe', new Recorder());
  s.verify = () => true;
  return { s, sent };
}

const first = PROBE_CATEGORY_IDS[0]!;
const probe = (categoryId: unknown) => `POST {"name":"Probe","categoryId":${String(categoryId)}}`;

describe('the categoryId probe', () => {
  it('takes the categoryId its 201 shows', async () => {
    const { s, sent } = probing([exchange(201, pet(7, { categoryId: first }))]);
    expect(await knownCategories(s)).toEqual({ ids: [first], source: 'probe' });
    expect(sent).toEqual(['GET ', probe(first)]);
  });

  it('does not send again a probe that got no answer for the server\'s doing (a reset): that is judged', async () => {
    const { s, sent } = probing([failed('reset', 'other side closed')]);
    expect(await knownCategories(s)).toEqual({ ids: [], reason: expect.stringContaining('reset: other side closed'), blockedBy: 'no-answer' });
    expect(sent).toEqual(['GET ', probe(first)]);
  });
});
