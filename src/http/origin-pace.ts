/**
 * Per origin, and per operation on it, how many requests a second may go out: no bound of its own
 * until a 503 without Retry-After is cured by waiting, as a gateway limiting the rate answers (nginx's
 * limit_req answers so by default). The rate then drops to a little under what was answered calmly
 * in the second before that refusal, and climbs again by a fiftieth a second, to find the limit once
 * more. The origin's rate where other operations were refused in that second too (a limit on the
 * host, or on several hosts behind one gateway); the operation's alone where they were not (a limit on
 * one path, or one operation failing a share of its requests, which SlowedRefusals then tells by the
 * rate it is served at).
 */
export class OriginPace {
  private readonly rates = new Map<string, Rate>();

  /** Whether requests of the operation (`label`) take turns under a rate: its origin's, or its own. Without a label, the origin's only. */
  isPaced(origin: string, label?: string): boolean {
    return [origin, ...(label === undefined ? [] : [keyOf(origin, label)])].some((key) => (this.rates.get(key)?.base ?? Infinity) !== Infinity);
  }

  /** Whether the operation is held to a rate of its own, its origin's other operations not. */
  hasOwnRate(origin: string, label: string): boolean {
    return (this.rates.get(keyOf(origin, label))?.base ?? Infinity) !== Infinity;
  }

  /**
   * Whether the operation's refusals are its own: it is held to a rate of its own, or in the last
   * second MIN_REFUSED_SHARE of its answers were refusals while the origin's other operations were
   * answered calmly (MIN_CALM of them) and refused none. A limit on requests in flight to the origin
   * would have refused them too.
   */
  refusedAlone(origin: string, label: string): boolean {
    if (this.hasOwnRate(origin, label)) return true;
    const own = lastSecond(this.of(keyOf(origin, label)));
    const othersCalm = lastSecond(this.of(origin)).calm - own.calm;
    return own.refused >= MIN_REFUSED_SHARE * (own.calm + own.refused) && own.calm >= MIN_CALM && this.othersRefused(origin, label) === 0 && othersCalm >= MIN_CALM;
  }

  /** Refusals in the last second of every other operation, on any origin: one gateway may limit several hosts together. */
  private othersRefused(origin: string, label: string): number {
    let refused = -lastSecond(this.of(keyOf(origin, label))).refused;
    for (const [key, pace] of this.rates) if (!key.includes(' ')) refused += lastSecond(pace).refused;
    return refused;
  }

  /**
   * Settles when the operation's next request may go out under its rates (at once where it has none):
   * one at a time, a gap of a request's share of a second after the one before went out. `ready`
   * is what the request still needs before it goes (the client's slot, given up while it waits): the
   * next turn's gap counts from when that is done. Without it (the caller holds its slot, and must
   * not wait behind one that waits for a slot) the turn is taken at once, the next after it.
   */
  async turn(origin: string, label: string, ready?: () => Promise<void>): Promise<void> {
    const own = this.rates.get(keyOf(origin, label));
    const onOrigin = () => this.turnOf(this.rates.get(origin), ready);
    if (!ready) {
      await this.turnOf(own);
      return onOrigin();
    }
    // The operation's turn holds its own queue while the origin's is taken, never the reverse: the
    // origin's other operations would wait on this one's slower rate.
    return this.turnOf(own, onOrigin);
  }

  private async turnOf(pace: Rate | undefined, ready?: () => Promise<void>): Promise<void> {
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

  /** An answer to the operation that was no refusal. */
  calm(origin: string, label: string): void {
    const now = performance.now();
    for (const pace of this.both(origin, label)) {
      // After a second without calm answers, a new stretch of them: the rate is measured over it alone.
      if (pace.lastCalm === undefined || now - pace.lastCalm > BUCKETS * BUCKET_MS) pace.firstCalm = now;
      pace.lastCalm = now;
      pace.counts[slotOf(pace, now)]!++;
    }
  }

  /**
   * A 503 without Retry-After (or sent again) to the operation, whose request went out at `sentAt`.
   * Where the operation is held to a rate of its own, waiting has cured its refusals before: this one
   * cuts that rate at once (see limited), not once waiting has cured it too.
   */
  refused(origin: string, label: string, sentAt: number): void {
    const now = performance.now();
    for (const pace of this.both(origin, label)) pace.refusals[slotOf(pace, now)]!++;
    const own = this.rates.get(keyOf(origin, label))!;
    if (own.base !== Infinity) this.cutOwn(own, latelyOf(own), sentAt);
  }

  /**
   * Over the last second (over less where its latest stretch of calm answers is shorter): calm
   * answers a second from the origin, 0 where fewer than MIN_CALM came (too few to tell a rate by);
   * and the share of its answers that were refusals.
   */
  lately(origin: string): Lately {
    return latelyOf(this.of(origin));
  }

  /** The origin's answers lately, the operation's, and the refusals of every other operation in the last second, for a request sent at `sentAt` (see limited). */
  latelyAround(origin: string, label: string, sentAt: number): LatelyAround {
    const all = this.of(origin);
    const own = this.of(keyOf(origin, label));
    return { origin: latelyOf(all), operation: latelyOf(own), othersRefused: this.othersRefused(origin, label), sentAt };
  }

  /**
   * A refusal of the operation that waiting cured, first refused when answers were as `at` says: the
   * origin's rate is held where other operations, on any origin, were refused in the second before
   * too, the operation's own where they were not (see the class). That rate is held under the calm rate then,
   * and under what it was where it was last held more than a second ago (it was still too fast);
   * refusals within a second of that are one overshoot, cut for once. Nothing is learnt where the calm
   * rate was 0 (back from refusing everything), nor where fewer than MIN_REFUSED_SHARE of the answers
   * were refusals (now and then, whatever the rate: a lower one would not help).
   */
  limited(origin: string, label: string, at: LatelyAround): void {
    const [key, lately] = at.othersRefused > 0 ? [origin, at.origin] : [keyOf(origin, label), at.operation];
    if (lately.refusedShare < MIN_REFUSED_SHARE) return;
    const pace = this.of(key);
    const now = performance.now();
    const current = rateAt(pace, now);
    if (key !== origin && pace.base !== Infinity) {
      this.cutOwn(pace, lately, at.sentAt);
      return;
    } else if (lately.calmRate === 0) {
      return;
    } else if (pace.base !== Infinity && now - pace.since < 1000) {
      pace.base = Math.max(MIN_RATE, Math.min(pace.base, BELOW * lately.calmRate));
    } else {
      pace.base = Math.max(MIN_RATE, BELOW * Math.min(current, lately.calmRate));
      pace.since = now;
    }
    pace.lowest = Math.min(pace.lowest, pace.base);
  }

  /**
   * An operation held to a rate of its own is held lower at once by a refusal of a request sent since
   * it was last held (not one sent before: that is of the overshoot that set it), under the calm rate
   * where it was answered slower than its rate.
   */
  private cutOwn(pace: Rate, lately: Lately, sentAt: number): void {
    if (sentAt < pace.since || lately.refusedShare < MIN_REFUSED_SHARE) return;
    const now = performance.now();
    const current = rateAt(pace, now);
    pace.base = Math.max(MIN_RATE, OWN_BELOW * Math.min(current, lately.calmRate || current));
    pace.since = now;
    pace.lowest = Math.min(pace.lowest, pace.base);
  }

  /** The operation's rates were taught by its refusals, which are its own (SlowedRefusals): it, and its origin, go unpaced again. */
  forget(origin: string, label: string): void {
    for (const key of [origin, keyOf(origin, label)]) {
      const pace = this.rates.get(key);
      if (pace) pace.base = pace.lowest = Infinity;
    }
  }

  /** The origin's rates, and those of every operation on it, were taught by refusals that come whatever the rate: all go unpaced again. */
  forgetOrigin(origin: string): void {
    for (const [key, pace] of this.rates) if (key === origin || key.startsWith(`${origin} `)) pace.base = pace.lowest = Infinity;
  }

  /** Whether the origin has given any answer that was no refusal. */
  answeredCalm(origin: string): boolean {
    return this.rates.get(origin)?.firstCalm !== undefined;
  }

  /**
   * Whether another origin that has answered calmly is held to a rate (or one of its operations is),
   * or refused in the last second: one gateway may limit both hosts together, and refuse the first
   * requests to one while the other's keep the limit spent.
   */
  anotherLimited(origin: string): boolean {
    const paced = new Set([...this.rates].filter(([, pace]) => pace.base !== Infinity).map(([key]) => key.split(' ')[0]));
    return [...this.rates].some(([other, pace]) => !other.includes(' ') && other !== origin && pace.firstCalm !== undefined && (paced.has(other) || lastSecond(pace).refused > 0));
  }

  /** The lowest rate held on any origin, or any operation on one, so far, requests a second (undefined: none was). */
  lowest(): number | undefined {
    const bases = [...this.rates.values()].map((pace) => pace.lowest);
    const least = Math.min(...bases);
    return least === Infinity ? undefined : least;
  }

  /** The rate the operation's requests are held to now, its origin's or its own, whichever is lower (Infinity: none). */
  heldTo(origin: string, label: string): number {
    return Math.min(this.rateOf(origin), this.rateOf(origin, label));
  }

  /** The rate now of the origin, or of one operation on it, requests a second (Infinity: none). */
  rateOf(origin: string, label?: string): number {
    const pace = this.rates.get(label === undefined ? origin : keyOf(origin, label));
    return pace ? rateAt(pace, performance.now()) : Infinity;
  }

  private both(origin: string, label: string): Rate[] {
    return [this.of(origin), this.of(keyOf(origin, label))];
  }

  private of(key: string): Rate {
    let pace = this.rates.get(key);
    if (!pace) {
      const zeros = () => new Array<number>(BUCKETS).fill(0);
      pace = { base: Infinity, lowest: Infinity, since: 0, lastWent: 0, queue: Promise.resolve(), counts: zeros(), refusals: zeros(), bucketOf: new Array<number>(BUCKETS).fill(-BUCKETS) };
      this.rates.set(key, pace);
    }
    return pace;
  }
}

/** An origin's key is itself; an operation's, its origin, a space and its label (an origin has no space). */
const keyOf = (origin: string, label: string) => `${origin} ${label}`;

/** The bucket of `now`, emptied where it last counted an older window. */
function slotOf(pace: Rate, now: number): number {
  const bucket = Math.floor(now / BUCKET_MS);
  const slot = bucket % BUCKETS;
  if (pace.bucketOf[slot] !== bucket) {
    pace.bucketOf[slot] = bucket;
    pace.counts[slot] = 0;
    pace.refusals[slot] = 0;
  }
  return slot;
}

/** Calm answers and refusals counted over the last BUCKETS windows. */
function lastSecond(pace: Rate): { calm: number; refused: number } {
  const bucket = Math.floor(performance.now() / BUCKET_MS);
  let calm = 0;
  let refused = 0;
  for (let slot = 0; slot < BUCKETS; slot++) {
    if (bucket - pace.bucketOf[slot]! >= BUCKETS) continue;
    calm += pace.counts[slot]!;
    refused += pace.refusals[slot]!;
  }
  return { calm, refused };
}

function latelyOf(pace: Rate): Lately {
  const now = performance.now();
  const { calm, refused } = lastSecond(pace);
  const answers = calm + refused;
  if (pace.firstCalm === undefined) return { calmRate: 0, refusedShare: 1, answers };
  const refusedShare = refused / Math.max(1, answers);
  if (calm < MIN_CALM) return { calmRate: 0, refusedShare, answers };
  // The last BUCKETS - 1 windows and the current one, as far as it has gone.
  const spanMs = Math.max(BUCKET_MS, Math.min(now - pace.firstCalm, (BUCKETS - 1) * BUCKET_MS + (now % BUCKET_MS)));
  return { calmRate: (calm * 1000) / spanMs, refusedShare, answers };
}

const BUCKET_MS = 100;
const BUCKETS = 10;
/** The share of the calm rate before a refusal that the rate is held under. */
const BELOW = 0.9;
/**
 * The share of its rate an operation held to a rate of its own is held under by each refusal after
 * the first: a limit on one path is left under quickly, and one operation failing a share of its
 * requests is slowed to half within a few (SlowedRefusals).
 */
const OWN_BELOW = 0.75;
/** How much the rate climbs a second after it was held. */
const CLIMB = 1.02;
const MIN_RATE = 1;
const MIN_CALM = 5;
/** A twentieth: a limit on the rate overshot refuses more, sporadic refusals fewer (allowed-sporadic-429 refuses every 20th). */
const MIN_REFUSED_SHARE = 0.05;

export interface Lately {
  calmRate: number;
  refusedShare: number;
  /** Answers, calm or refused, in the last second. */
  answers: number;
}

export interface LatelyAround {
  origin: Lately;
  operation: Lately;
  /** Refusals of every other operation, on any origin, in the last second. */
  othersRefused: number;
  /** When the refused request went out (performance.now()). */
  sentAt: number;
}

interface Rate {
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

function rateAt(pace: Rate, now: number): number {
  return pace.base * CLIMB ** ((now - pace.since) / 1000);
}
