import type { Contract } from './model.ts';

const UTC_PLUS_14_MS = 14 * 3_600_000;

/**
 * The first moment a removal scheduled for a day (given as its 00:00Z) may happen. The spec names a
 * day and no zone (§4.3, §9): the day begins first at UTC+14, 14 hours before it does in UTC. Until
 * then it is the day before everywhere, and the operation must work; from then on it may be gone.
 */
export function earliestRemoval(removal: Date): Date {
  return new Date(removal.getTime() - UTC_PLUS_14_MS);
}

/** earliestRemoval to the minute, ISO 8601: 2030-12-04T10:00Z. */
export function earliestRemovalText(removal: Date): string {
  return earliestRemoval(removal).toISOString().replace(':00.000Z', 'Z');
}

/** Whether the clock has reached the first moment the removal may happen (see earliestRemoval). */
export function mayBeRemoved(now: Date, removal: Date): boolean {
  return now >= earliestRemoval(removal);
}

/** The day the contract schedules a deprecated operation's removal for, if it does. */
export function removalOf(contract: Contract, operationId: string): Date | undefined {
  const removal = contract.deprecations.find((d) => d.operationId === operationId)?.removal;
  return removal === undefined ? undefined : new Date(removal);
}

/** Whether, by the clock, an operation the contract schedules for removal may be gone. */
export function isRemoved(contract: Contract, operationId: string, now: Date): boolean {
  const removal = removalOf(contract, operationId);
  return removal !== undefined && mayBeRemoved(now, removal);
}

/**
 * The clock against an operation's removal, as a skip reason says it. `clock` is --now as given
 * (`given`: set by the user, else the run's own time).
 */
export function clockAgainst(clock: { now: string; given: boolean }, removal: Date, operationId: string): string {
  const day = (iso: string) => iso.slice(0, 10);
  const now = clock.now.endsWith('T00:00:00.000Z') ? day(clock.now) : clock.now;
  const shown = clock.given ? `--now ${now}` : `${now}, settable with --now`;
  const start = `${earliestRemovalText(removal)}, when that day begins at UTC+14`;
  return mayBeRemoved(new Date(clock.now), removal)
    ? `the clock (${shown}) is past the start of the ${day(removal.toISOString())} removal of ${operationId} (${start}), which may be gone`
    : `the clock (${shown}) is before the ${day(removal.toISOString())} removal of ${operationId} (${start})`;
}
