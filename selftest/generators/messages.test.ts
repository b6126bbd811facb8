/** generators/messages.ts: valid messages validate as NewMessage. */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_MESSAGES, newMessage } from '../../generators/index.ts';
import { parseJson, stringifyJson } from '../../src/json/lossless.ts';
import { makeEnv, SEED, type Env } from './helpers.ts';

let env: Env;
beforeAll(async () => {
  env = await makeEnv();
});

describe('newMessage', () => {
  it('always validates as NewMessage, on the wire too (200 draws)', () => {
    fc.assert(
      fc.property(newMessage(env.contract), (message) => {
        expect(typeof message.message).toBe('string');
        expect(env.validators.validate('NewMessage', parseJson(stringifyJson(message)))).toEqual([]);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('EDGE_MESSAGES all validate as NewMessage', () => {
    for (const message of EDGE_MESSAGES) expect(env.validators.validate('NewMessage', message)).toEqual([]);
  });
});
