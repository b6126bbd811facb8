import { describe } from 'vitest';
import { scenario } from '../src/suite/scenario.ts';
import { MAX_SEQUENCE_STEPS, SEQUENCES_PER_LANE, sequenceLanes } from '../src/suite/config.ts';
import { limitBounds, statusValues } from '../generators/index.ts';
import { knownCategories } from './support/categories.ts';
import { ensurePets } from './support/store.ts';
import { callArbitraries, FINALLY } from './support/sequence/calls.ts';
import { fetchTakenLater, newLanes, newModel, SEQUENCE_CHECKS, stepOf } from './support/sequence/steps.ts';

describe('Sequences of calls (§2.1, §4)', () => {
  scenario(
    'random sequences of calls, each answer judged against what the sequence did before it; a failure shrunk to the shortest story',
    { checks: SEQUENCE_CHECKS, writes: true, stateful: true, critical: true, needs: ['listPets', 'getPet'] },
    async (s) => {
      const known = await knownCategories(s);
      if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
      // Over a store of more than 100 animals a page is bounded by its limit, not by what the store holds.
      const statuses = statusValues(s.contract);
      await ensurePets(s, statuses, Math.ceil((limitBounds(s.contract).max + 5) / statuses.length));
      const lanes = newLanes();
      const steps = callArbitraries(s.contract, known.ids, s.config.messagesBaseUrl !== undefined && !s.config.skip.includes('sendMessage')).map((arbitrary) => arbitrary.map((call) => stepOf(s, known, call, lanes)));
      // Lanes, each a slice of one stream of sequences: far from the target side by side, so the run
      // waits on no long chain; near it one after another (another only while every one running
      // waits out a read lag), so a seed tells the same stories again.
      await s.forEachOverLag(
        Array.from({ length: sequenceLanes(s.config.runs) }, (_, lane) => lane),
        (lane) =>
          s.sequences('sequences of calls', steps, newModel, {
            runs: SEQUENCES_PER_LANE,
            startAt: lane * SEQUENCES_PER_LANE,
            maxSteps: MAX_SEQUENCE_STEPS,
            finish: stepOf(s, known, FINALLY, lanes),
          }),
      );
      await fetchTakenLater(s, known, lanes);
    },
  );
});
