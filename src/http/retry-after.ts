/** A Retry-After value (seconds or an HTTP date) in ms from now; undefined where it reads as neither. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A 429, or a 503 that says when to come back: the client waits it out, and one handed back is left unjudged (src/suite/judge.ts). */
export function isWaitedOut(status: number | undefined, retryAfter: string | undefined): boolean {
  return status === 429 || (status === 503 && retryAfterMs(retryAfter) !== undefined);
}
