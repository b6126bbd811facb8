import { describe } from 'vitest';
import { invalidQueryCases, statusValues, validQuery } from '../generators/index.ts';
import { scenario, type Judgements } from '../src/suite/scenario.ts';
import { checkFilteredPages, checkInvalidQueries, ensurePets, SET_UP_ANIMALS } from './support/store.ts';

describe('§4.1 List animals: GET /pets', () => {
  scenario(
    'valid limit and status combinations give 200 and Pets, within limit and filter',
    { checks: ['list.200-pets', 'list.limit-respected', 'list.limit-default', 'list.limit-max', 'list.limit-bounds-accepted', 'list.status-filter'], operations: ['listPets'], shard: 'inputs' },
    async (s) => {
      await s.property('valid queries', validQuery(s.contract), {
        send: (query) => s.send('listPets', { query: query.text }),
        receive: (query, exchange) => {
          const judgements: Judgements = { 'list.limit-max': { query: query.text ? `?${query.text}` : 'no query' } };
          // A 200 whose items break Pet is recorded without ending the property, so the limits and the filter are judged on every
          // query; any other answer (a refusal, no answer at all) fails with the rest, as one failure, and is shrunk.
          if (exchange.response?.status === 200) s.verify(exchange, { 'list.200-pets': {} }, { common: false });
          else judgements['list.200-pets'] = {};
          if (query.limit === undefined) judgements['list.limit-default'] = {};
          else {
            judgements['list.limit-bounds-accepted'] = { limit: query.limit };
            judgements['list.limit-respected'] = { limit: query.limit };
          }
          if (query.status !== undefined) judgements['list.status-filter'] = { status: query.status };
          s.require(exchange, judgements);
        },
      });
    },
  );

  // RFC 9110 §12.5.1: "A request without any Accept header field implies that the user agent will accept any media type".
  scenario('a listing asked for without Accept, or with Accept: */*, gives 200 and Pets', { checks: ['list.200-pets'], operations: ['listPets'] }, async (s) => {
    for (const accept of [null, '*/*']) s.verify(await s.send('listPets', { accept }), { 'list.200-pets': {} });
  });

  scenario(
    'each status filter, over a store with at least 12 animals of each status, returns only that status',
    { checks: ['list.200-pets', 'list.status-filter', 'list.full-page'], operations: ['listPets'], writesIfAllowed: SET_UP_ANIMALS },
    async (s) => {
      const statuses = statusValues(s.contract);
      await checkFilteredPages(s, await ensurePets(s, statuses, 12), 100);
    },
  );

  scenario(
    'limit or status outside their constraints never give 5xx or more than 100 animals; a refusal is a 4xx with an Error',
    { checks: ['list.invalid-query', 'list.invalid-query-handling', 'list.limit-max', 'errors.shape', 'errors.status-field', 'errors.no-5xx'], operations: ['listPets'], shard: 'inputs' },
    async (s) => {
      await checkInvalidQueries(s, 'invalid queries', invalidQueryCases(s.contract));
    },
  );
});
