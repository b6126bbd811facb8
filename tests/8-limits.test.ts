import { describe } from 'vitest';
import { invalidQueryCases, limitBounds, statusValues } from '../generators/index.ts';
import { scenario } from '../src/suite/scenario.ts';
import { checkFilteredPages, checkInvalidQueries, ensurePets, SET_UP_ANIMALS, listed } from './support/store.ts';

describe('§8 Limits: limit on GET /pets', () => {
  scenario('limit at its minimum and its maximum is accepted', { checks: ['list.limit-bounds-accepted', 'list.limit-respected', 'list.200-pets'], operations: ['listPets'] }, async (s) => {
    const { min, max } = limitBounds(s.contract);
    for (const limit of [min, max]) {
      const exchange = await s.send('listPets', { query: `limit=${limit}` });
      s.verify(exchange, { 'list.limit-bounds-accepted': { limit }, 'list.limit-respected': { limit }, 'list.200-pets': {} });
    }
  });

  scenario(
    'over a store of more than 100 animals: no limit gives at most 20, filtered or not; any limit, valid or not, at most 100; a filtered page is as full as the animals of that status allow',
    { checks: ['list.limit-default', 'list.limit-max', 'list.full-page', 'list.status-filter', 'list.200-pets', 'list.invalid-query', 'list.invalid-query-handling'], operations: ['listPets'], writesIfAllowed: SET_UP_ANIMALS },
    async (s) => {
      const { max, fallback } = limitBounds(s.contract);
      const statuses = statusValues(s.contract);
      // Past the first unfiltered page, a server that filters only what one page holds shows fewer.
      await checkFilteredPages(s, await ensurePets(s, statuses, Math.ceil((max + 5) / statuses.length)), max);
      const full = await s.send('listPets', { query: `limit=${max}` });
      s.verify(full, { 'list.200-pets': {} });
      const known = listed(full)?.length ?? 0;

      const unbounded = await s.send('listPets');
      s.verify(unbounded, { 'list.200-pets': {}, 'list.limit-default': {}, 'list.full-page': { limit: fallback, known } });
      if (known < max) {
        const blocked = s.writeBlocked('createPet');
        const why = blocked ?? s.unjudged?.reason;
        s.skipCheck('list.limit-max', `the store shows only ${known} animals${why ? ` (${why})` : ''}, so a cap of ${max} cannot be told apart`, blocked ? undefined : s.unjudged?.blockedBy);
        return;
      }
      for (const limit of [max + 1, max * 5, 1_000_000]) {
        const exchange = await s.send('listPets', { query: `limit=${limit}` });
        s.verify(exchange, { 'list.limit-max': { query: `?limit=${limit}` } });
      }
      // Over a full store, not the few animals §4.1 meets first: a filter that drops the default,
      // and invalid limits (0, -1, …) read as "no limit", show only here.
      for (const status of statuses) {
        const exchange = await s.send('listPets', { query: `status=${encodeURIComponent(status)}` });
        s.verify(exchange, { 'list.200-pets': {}, 'list.limit-default': {}, 'list.status-filter': { status } });
      }
      // Once each: §4.1 has drawn the random ones several times already.
      await checkInvalidQueries(s, 'invalid queries over a full store', invalidQueryCases(s.contract), { runs: 1 });
    },
  );
});
