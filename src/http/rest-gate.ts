/**
 * The client's whole traffic held back for a moment, every origin's (one gateway may limit several
 * hosts, or one path, together), so that one request goes out to a target that has had nothing from
 * the suite for REST_MS. A 503 without Retry-After that outlasts waits while the suite's other
 * requests go on may be a limit on the rate those keep spent (nginx's limit_req refuses with 503 by
 * default); the same 503 to a request sent after such a rest is no limit on the rate the suite could
 * spare, and is the target's own answer. One rest at a time, at most MAX_RESTS a run.
 */
export class RestGate {
  private resting: Promise<void> | undefined;
  private rests = 0;

  constructor(
    private readonly drained: () => boolean,
    private readonly restMs = REST_MS,
  ) {}

  /** Settles once no rest holds requests back (at once where none does). */
  async passed(): Promise<void> {
    while (this.resting) await this.resting;
  }

  isResting(): boolean {
    return this.resting !== undefined;
  }

  /**
   * Holds every other request back, waits for those in flight to land (DRAIN_MAX_MS at the most),
   * calls `drained`, then the rest itself (REST_MS); settles with the function that lets the others go again, to be called once
   * the one request sent in the rest has its answer (undefined: the run's rests are spent).
   */
  async rest(drained?: () => void): Promise<(() => void) | undefined> {
    // Checked and taken with no await between, so two rests never overlap.
    while (this.resting) await this.resting;
    if (this.rests >= MAX_RESTS) return undefined;
    this.rests++;
    let reopen!: () => void;
    this.resting = new Promise<void>((resolve) => (reopen = resolve));
    const until = performance.now() + DRAIN_MAX_MS;
    while (!this.drained() && performance.now() < until) await sleep(DRAIN_POLL_MS);
    drained?.();
    await sleep(this.restMs);
    return () => {
      this.resting = undefined;
      reopen();
    };
  }
}

/** A token bucket refilled at a request a second or more (OriginPace's least rate) holds one again after this long. */
export const REST_MS = 1_000;
const MAX_RESTS = 8;
const DRAIN_MAX_MS = 5_000;
const DRAIN_POLL_MS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
