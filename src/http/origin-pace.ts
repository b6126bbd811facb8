/**
 * Per origin, how many requests a second may go out: no bound of its own until a 503 without
 * Retry-After is cured by waiting, as a gateway limiting the rate answers (nginx's limit_req answers
 * so by default). The rate then drops to a little under what the origin answered calmly in the
 * second before that refusal, and climbs again by a fiftieth a second, to find the limit once more.
 */
export class OriginPace {
  private readonly origins = new Map<string, OriginRate>();

  /** Whether the origin has a rate of its own (requests to it then take turns). */
  isPaced(origin: string): boolean {
    return (this.origins.get(origin)?.base ?? Infinity) !== Infinity;
  }

  /**
   * Settles when the origin's next request may go out under its rate (at once where it has none):
   * one at a time, a gap of a request's share of a second after the one before went out. `ready`
   * is what the request still needs before it goes (the client's slot, given up while it waits): the
   * next turn's gap counts from when that is done. Without it (the caller holds its slot, and must
   * not wait behind one that waits for a slot) the turn is taken at once, the next after it.
   */
  async turn(origin: string, ready?: () => Promise<void>): Promise<void> {
    const pace = this.origins.get(origin);
    if (!pace || pace.base === Infinity) return ready?.();
    if (!ready) {
      const now = performance.now();
      const at = Math.max(now, pace.lastWent + 1000 / rateAt(pace, now));
      pace.lastWent = at;
      if (at > now) await sleepAtLeast(at - now);
      return;
    }
    const before = pace.queue;
    let done!: () => void;
    pace.queue = new Promise<void>((resolve) => (done = resolve));
    try {
      await before;
      const wait = pace.lastWent + 1000 / rateAt(pace, performance.now()) - performance.now();
      if (wait > 0) await sleepAtLeast(wait);
      await ready();
      pace.lastWent = Math.max(pace.lastWent, performance.now());
    } finally {
      done();
    }
  }

  /** An answer that was no refusal. */
  calm(origin: string): void {
    const pace = this.of(origin);
    const now = performance.now();
    // After a second without calm answers, a new stretch of them: the rate is measured over it alone.
    if (pace.lastCalm === undefined || now - pace.lastCalm > BUCKETS * BUCKET_MS) pace.firstCalm = now;
    pace.lastCalm = now;
    pace.counts[this.slotOf(pace, now)]!++;
  }

  /** A 503 without Retry-After (or sent again). */
  refused(origin: string): void {
    const pace = this.of(origin);
    pace.refusals[this.slotOf(pace, performance.now())]!++;
  }

  /**
   * Over the last second (over less where its latest stretch of calm answers is shorter): calm
   * answers a second from the origin, 0 where fewer than MIN_CALM came (too few to tell a rate by);
   * and the share of its answers that were refusals.
   */
  lately(origin: string): Lately {
    const pace = this.of(origin);
    const now = performance.now();
    if (pace.firstCalm === undefined) return { calmRate: 0, refusedShare: 1 };
    const bucket = Math.floor(now / BUCKET_MS);
    let calm = 0;
    let refused = 0;
    for (let slot = 0; slot < BUCKETS; slot++) {
      if (bucket - pace.bucketOf[slot]! >= BUCKETS) continue;
      calm += pace.counts[slot]!;
      refused += pace.refusals[slot]!;
    }
    const refusedShare = refused / Math.max(1, calm + refused);
    if (calm < MIN_CALM) return { calmRate: 0, refusedShare };
    // The last BUCKETS - 1 windows and the current one, as far as it has gone.
    const spanMs = Math.max(BUCKET_MS, Math.min(now - pace.firstCalm, (BUCKETS - 1) * BUCKET_MS + (now % BUCKET_MS)));
    return { calmRate: (calm * 1000) / spanMs, refusedShare };
  }

  /**
   * A refusal that waiting cured, first refused when the origin's answers were `lately`: its rate is
   * held under the calm rate then, and under what it was where it was last held more than a second
   * ago (it was still too fast); refusals within a second of that are one overshoot, cut for once.
   * Nothing is learnt where the calm rate was 0 (an origin back from refusing everything), nor where
   * fewer than MIN_REFUSED_SHARE of the answers were refusals (now and then, whatever the rate: a
   * lower one would not help).
   */
  limited(origin: string, { calmRate, refusedShare }: Lately): void {
    if (calmRate === 0 || refusedShare < MIN_REFUSED_SHARE) return;
    const pace = this.of(origin);
    const now = performance.now();
    const current = rateAt(pace, now);
    if (pace.base !== Infinity && now - pace.since < 1000) {
      pace.base = Math.max(MIN_RATE, Math.min(pace.base, BELOW * calmRate));
    } else {
      pace.base = Math.max(MIN_RATE, BELOW * Math.min(current, calmRate));
      pace.since = now;
    }
    pace.lowest = Math.min(pace.lowest, pace.base);
  }

  /** The origin's rate was taught by refusals of an operation that fails on its own (SlowedRefusals): it goes unpaced again. */
  forget(origin: string): void {
    const pace = this.origins.get(origin);
    if (pace) pace.base = pace.lowest = Infinity;
  }

  /** Whether the origin has given any answer that was no refusal. */
  answeredCalm(origin: string): boolean {
    return this.origins.get(origin)?.firstCalm !== undefined;
  }

  /**
   * Whether another origin that has answered calmly is held to a rate, or refused in the last second:
   * one gateway may limit both hosts together, and refuse the first requests to one while the other's
   * keep the limit spent.
   */
  anotherLimited(origin: string): boolean {
    return [...this.origins].some(([other, pace]) => other !== origin && pace.firstCalm !== undefined && (pace.base !== Infinity || this.lately(other).refusedShare > 0));
  }

  /** The lowest rate held on any origin so far, requests a second (undefined: none was). */
  lowest(): number | undefined {
    const bases = [...this.origins.values()].map((pace) => pace.lowest);
    const least = Math.min(...bases);
    return least === Infinity ? undefined : least;
  }

  /** The origin's rate now, requests a second (Infinity: none). */
  rateOf(origin: string): number {
    const pace = this.origins.get(origin);
    return pace ? rateAt(pace, performance.now()) : Infinity;
  }

  private of(origin: string): OriginRate {
    let pace = this.origins.get(origin);
    if (!pace) {
      const zeros = () => new Array<number>(BUCKETS).fill(0);
      pace = { base: Infinity, lowest: Infinity, since: 0, lastWent: 0, queue: Promise.resolve(), counts: zeros(), refusals: zeros(), bucketOf: new Array<number>(BUCKETS).fill(-BUCKETS) };
      this.origins.set(origin, pace);
    }
    return pace;
  }

  /** The bucket of `now`, emptied where it last counted an older window. */
  private slotOf(pace: OriginRate, now: number): number {
    const bucket = Math.floor(now / BUCKET_MS);
    const slot = bucket % BUCKETS;
    if (pace.bucketOf[slot] !== bucket) {
      pace.bucketOf[slot] = bucket;
      pace.counts[slot] = 0;
      pace.refusals[slot] = 0;
    }
    return slot;
  }
}

const BUCKET_MS = 100;
const BUCKETS = 10;
/** The share of the calm rate before a refusal that the rate is held under. */
const BELOW = 0.9;
/** How much the rate climbs a second after it was held. */
const CLIMB = 1.02;
const MIN_RATE = 1;
const MIN_CALM = 5;
/** A twentieth: a limit on the rate overshot refuses more, sporadic refusals fewer (allowed-sporadic-429 refuses every 20th). */
const MIN_REFUSED_SHARE = 0.05;

export interface Lately {
  calmRate: number;
  refusedShare: number;
}

interface OriginRate {
  /** The rate set when a refusal was cured (Infinity: none), and when. */
  base: number;
  since: number;
  /** The lowest base so far. */
  lowest: number;
  /** When its last paced request went out, and the turn the next waits behind. */
  lastWent: number;
  queue: Promise<void>;
  /** The first calm answer of the latest stretch without a second's gap, and the latest. */
  firstCalm?: number;
  lastCalm?: number;
  /** Calm answers and refusals in each of the last BUCKETS windows of BUCKET_MS, and which window each count is of. */
  counts: number[];
  refusals: number[];
  bucketOf: number[];
}

/** Timers count whole milliseconds: a gap rounded down would let requests go a little faster than the rate. */
const sleepAtLeast = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.ceil(ms)));

function rateAt(pace: OriginRate, now: number): number {
  return pace.base * CLIMB ** ((now - pace.since) / 1000);
}
