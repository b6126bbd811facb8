import { describe } from 'vitest';
import { scenario } from '../src/suite/scenario.ts';

describe('§7 Errors, §4 bodies: every body JSON, every error an Error', () => {
  scenario(
    'a listing, an unknown id, a bad limit and a bad body each come back as JSON (no byte-order mark, no name twice in an object), errors as an Error with the HTTP status',
    { checks: ['json.content-type', 'json.unique-names', 'errors.shape', 'errors.status-field', 'errors.no-5xx'], writesIfAllowed: 'a NewPet body that is not JSON, `{` (§7)' },
    async (s) => {
      s.verify(await s.send('listPets'), {});
      if (!s.isRemoved('getPet')) s.verify(await s.send('getPet', { path: { petId: '9223372036854775806' } }), {});
      s.verify(await s.send('listPets', { query: 'limit=abc' }), {});
      if (s.config.writes) s.verify(await s.send('createPet', { body: '{' }), {});
    },
  );
});
