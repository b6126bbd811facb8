// The reason an answer whose body passed --max-body, the suite's own cap, left checks unjudged.

const BODY_PAST_CAP = "the answer's body passed --max-body";

/** Why the checks an answer whose body passed the cap did not judge it (what isBodyPastCap tells apart). */
export function bodyPastCapReason(maxBodyBytes: number): string {
  return `${BODY_PAST_CAP} (${maxBodyBytes} bytes), the suite's own cap: raise --max-body to judge it`;
}

/** Whether a reason for requests that judged nothing is the body cap's (bodyPastCapReason). */
export function isBodyPastCap(reason: string): boolean {
  return reason.startsWith(BODY_PAST_CAP);
}
