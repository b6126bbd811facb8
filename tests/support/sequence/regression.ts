/**
 * What a regression test of reports/regressions/ calls: the steps of a story that once broke a
 * clause, replayed through the suite against the configured target (`--replay <file>`). The calls are
 * the same; the ids are the target's new ones.
 */
import { describe } from 'vitest';
import { parseJson } from '../../../src/json/lossless.ts';
import { scenario } from '../../../src/suite/scenario.ts';
import { knownCategories } from '../categories.ts';
import type { Call } from './calls.ts';
import { newLanes, newModel, SEQUENCE_CHECKS, stepOf } from './steps.ts';

const MESSAGE_CALLS = new Set<Call['kind']>(['message', 'message-invalid']);

function sendsMessages(call: Call): boolean {
  return MESSAGE_CALLS.has(call.kind) || (call.kind === 'pair' && (sendsMessages(call.first) || sendsMessages(call.second)));
}

export function regression(clause: string, seed: number, callsJson: string): void {
  const calls = parseJson(callsJson) as unknown as Call[];
  describe(`Regression: ${clause} (seed ${seed})`, () => {
    scenario(`the ${calls.length === 1 ? 'one step' : `${calls.length} steps`} that broke ${clause} with --seed ${seed}, replayed`, { checks: SEQUENCE_CHECKS, writes: true }, async (s) => {
      if (calls.some(sendsMessages) && !s.config.messagesBaseUrl) return s.leaveUnjudged('the story sends messages and MESSAGES_BASE_URL is not configured');
      const known = await knownCategories(s);
      if ('reason' in known) return s.leaveUnjudged(known.reason, known.blockedBy);
      const lanes = newLanes();
      await s.replay(
        calls.map((call) => stepOf(s, known, call, lanes)),
        newModel,
      );
    });
  });
}
