// The reason an answer whose body passed --max-body, the suite's own cap, left checks unjudged.

import type { BlockedBy } from '../report/model.ts';

const BODY_PAST_CAP = "the answer's body passed --max-body";

/** Why the checks an answer whose body passed the cap did not judge it (what isBodyPastCap tells apart). */
export function bodyPastCapReason(maxBodyBytes: number): string {
  return `${BODY_PAST_CAP} (${maxBodyBytes} bytes), the suite's own cap: raise --max-body to judge it`;
}

/** Whether a reason for requests that judged nothing is the body cap's (bodyPastCapReason). */
export function isBodyPastCap(reason: string): boolean {
  return reason.startsWith(BODY_PAST_CAP);
}

/** Why requests that would have borne on a clause judged nothing: the suite's own body cap, or no answer. */
export function unjudgedCause(reason: string): BlockedBy {
  return isBodyPastCap(reason) ? 'body-cap' : 'no-answer';
}
