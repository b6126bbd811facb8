/**
 * Per origin, how many requests may be in flight at once: no bound of its own until the origin
 * answers 503 without Retry-After to requests sent side by side, as a gateway limiting requests in
 * flight does (nginx's limit_conn answers so by default), or closes a new connection unanswered while
 * others are open (a limit on connections). The cap then halves to what was in flight (once per
 * overshoot where the caller gives `cutsAtStart`), and creeps back by one after as many calm answers
 * as it allows, below the fewest in flight at which the origin refused; that ceiling is tried one
 * higher after a long calm.
 */
export class OriginCaps {
  private readonly origins = new Map<string, OriginLoad>();

  /** Whether a request to the origin may go out now: if so it is in flight until `landed`. */
  tryStart(origin: string): boolean {
    const load = this.of(origin);
    if (load.inFlight >= load.cap) return false;
    load.inFlight++;
    return true;
  }

  /** A request that goes out whatever the cap (the client's idle watch): counted in flight until `landed`. */
  start(origin: string): void {
    this.of(origin).inFlight++;
  }

  /** Settles when a request to the origin lands, or its cap rises: a try may then succeed. Critical requests are told first. */
  whenFreer(origin: string, critical = false): Promise<void> {
    const load = this.of(origin);
    return new Promise<void>((resolve) => (critical ? load.waitingCritical : load.waiting).push(resolve));
  }

  landed(origin: string): void {
    const load = this.of(origin);
    load.inFlight--;
    this.wake(load);
  }

  /** Requests to the origin in flight now, besides the caller's own. */
  others(origin: string): number {
    return Math.max(0, this.of(origin).inFlight - 1);
  }

  /**
   * A 503 without Retry-After (or a new connection closed unanswered) to a request that was in flight with
   * `alongside` others. `mayBeLoad`: it may be the origin's limit, and the cap is lowered below what
   * was in flight, so a request sent again waits until fewer are; not for a request that went alone,
   * nor once an origin that has answered nothing else refuses one that did (it is down, not loaded,
   * and goes uncapped).
   */
  refused(origin: string, alongside: number, cutsAtStart?: number): { mayBeLoad: boolean } {
    const load = this.of(origin);
    if (!load.calmSeen && alongside === 0) load.down = true;
    if (load.down && load.cap !== load.lasting) {
      load.cap = load.lasting;
      this.wake(load);
    }
    if (load.down || alongside === 0) return { mayBeLoad: false };
    const inFlight = alongside + 1;
    load.sinceRefusal = 0;
    load.calm = 0;
    // Sent before the cap was last cut: part of the overshoot that cut it (its fellows drain and are
    // refused with fewer and fewer beside them), which says nothing of the cap since.
    if (cutsAtStart !== undefined && cutsAtStart < load.cuts) return { mayBeLoad: true };
    load.refusedAt = Math.min(load.refusedAt, inFlight);
    if (inFlight <= load.cap) this.cutTo(load, Math.floor(inFlight / 2));
    return { mayBeLoad: true };
  }

  /**
   * A limit met some other way (a new connection closed beside pooled ones left idle): the cap goes to
   * `size`, and stays below one more. `lasting`: for good, never tried higher (a new connection left
   * unread until one left idle was closed: each try would cost a stall).
   */
  limitedTo(origin: string, size: number, lasting = false): void {
    const load = this.of(origin);
    if (lasting) load.lasting = Math.min(load.lasting, Math.max(1, size));
    load.sinceRefusal = 0;
    load.refusedAt = Math.min(load.refusedAt, size + 1);
    if (size < load.cap) this.cutTo(load, size);
  }

  /** A cap limitedTo set for good was no limit (see HttpClient.unlessSlowAlike): the lasting cap goes back to `lastingBefore`, and the cap to it. */
  unlimited(origin: string, lastingBefore: number): void {
    this.of(origin).lasting = lastingBefore;
    this.forgive(origin);
  }

  /**
   * The 503s that cut the cap were one operation's, held to a rate of its own since (OriginPace): no
   * limit on requests in flight. The cap goes back to what a limit on connections left (none, mostly).
   */
  forgive(origin: string): void {
    const load = this.of(origin);
    load.cap = load.lasting;
    load.refusedAt = load.lasting === Infinity ? Infinity : load.lasting + 1;
    load.calm = 0;
    load.sinceRefusal = 0;
    this.wake(load);
  }

  /** How many times the cap on the origin has been cut: a request notes it as it starts (see refused). */
  cutsOf(origin: string): number {
    return this.of(origin).cuts;
  }

  private cutTo(load: OriginLoad, cap: number): void {
    load.cap = Math.max(1, cap);
    load.cuts++;
    load.calm = 0;
  }

  /** Any other answer: after as many in a row as the cap allows, one more may go, below the ceiling. */
  calm(origin: string): void {
    const load = this.of(origin);
    load.calmSeen = true;
    load.down = false;
    if (load.cap === Infinity) return;
    load.sinceRefusal++;
    if (load.cap + 1 >= load.refusedAt && load.sinceRefusal >= PROBE_AFTER * load.cap && load.refusedAt <= load.lasting) {
      load.refusedAt++;
      load.sinceRefusal = 0;
    }
    if (++load.calm < load.cap || load.cap + 1 >= load.refusedAt) return;
    load.cap++;
    load.calm = 0;
    this.wake(load);
  }

  /** The cap limitedTo set for good (Infinity: none). */
  lastingOf(origin: string): number {
    return this.of(origin).lasting;
  }

  /** The cap on the origin now (Infinity: none). */
  capOf(origin: string): number {
    return this.of(origin).cap;
  }

  private wake(load: OriginLoad): void {
    for (let free = load.cap - load.inFlight; free > 0; free--) {
      const next = load.waitingCritical.shift() ?? load.waiting.shift();
      if (!next) return;
      next();
    }
  }

  private of(origin: string): OriginLoad {
    let load = this.origins.get(origin);
    if (!load) {
      load = { inFlight: 0, cap: Infinity, lasting: Infinity, cuts: 0, refusedAt: Infinity, calm: 0, sinceRefusal: 0, calmSeen: false, down: false, waiting: [], waitingCritical: [] };
      this.origins.set(origin, load);
    }
    return load;
  }
}

/**
 * Calm answers, in caps' worth, at the ceiling before it is tried one higher: a refusal now and then
 * (a blip, not a limit) leaves the cap low only that long, and a real limit costs a request sent again.
 */
const PROBE_AFTER = 8;

interface OriginLoad {
  /** Requests to the origin out now (each holds a slot under the client's cap too). */
  inFlight: number;
  cap: number;
  /** The cap never rises above this. */
  lasting: number;
  /** How many times the cap was cut. */
  cuts: number;
  /** The fewest in flight at which the origin refused: the cap stays below it. */
  refusedAt: number;
  /** Calm answers since the cap last moved, and since the last refusal. */
  calm: number;
  sinceRefusal: number;
  calmSeen: boolean;
  /** It refused a request sent alone before any calm answer. */
  down: boolean;
  waiting: (() => void)[];
  waitingCritical: (() => void)[];
}
