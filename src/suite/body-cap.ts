// The reason an answer the suite could not read whole left checks unjudged: its body passed
// --max-body, the suite's own cap, or a bound of its own JSON reading (src/json/bounds.ts).

import { MAX_HEADER_BYTES } from '../http/transport-failure.ts';
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

const PAST_JSON_BOUND = "the answer's JSON body went past a bound of the suite's own reading";

/** Why the checks an answer past a JSON bound (`problem`: which one) did not judge it. */
export function pastJsonBoundReason(problem: string): string {
  return `${PAST_JSON_BOUND} (${problem}): the spec fixes no such bound, so only its status was judged`;
}

const HEADERS_PAST_CAP = "the answer's headers were longer than";

/** Why the checks an answer whose headers passed the suite's cap did not judge it: not even its status was read. */
export function headersPastCapReason(): string {
  return `${HEADERS_PAST_CAP} ${MAX_HEADER_BYTES / 1024} KiB, the suite's own cap (the spec fixes none), so nothing of it was read or judged`;
}

/** Why requests that would have borne on a clause judged nothing: one of the suite's own bounds, or no answer. */
export function unjudgedCause(reason: string): BlockedBy {
  if (reason.startsWith(HEADERS_PAST_CAP)) return 'header-cap';
  return isBodyPastCap(reason) ? 'body-cap' : reason.startsWith(PAST_JSON_BOUND) ? 'json-bound' : 'no-answer';
}
