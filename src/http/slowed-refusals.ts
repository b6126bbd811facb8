/**
 * Per operation, whether it was still refused (503s without Retry-After) once held to a learnt rate,
 * its origin's or its own (OriginPace), of half what it was served at before. A limit on the rate
 * that refused a request had nothing left then, and serves no more than its rate from then on,
 * however fast it is sent to: sent no faster than half that, it refuses nothing. A server that fails
 * a share of what it is sent goes on refusing as often however slowly it is sent. Such an operation is
 * failing, not limited, and its 503s are judged rather than sent again, unless other operations (on
 * any host) were refused meanwhile: then a limit they share may have spent what it served this one on
 * them.
 */
export class SlowedRefusals {
  private readonly series = new Map<string, Series>();
  private readonly answers = new Map<string, Counts>();
  /** Per operation, its latest WINDOW answers, paced or not (true: refused), when the last came, and the last refusal. */
  private readonly latest = new Map<string, { refused: boolean[]; at: number; refusedAt?: number }>();
  private readonly everyAnswer: Counts = { answers: 0, refused: 0 };
  private readonly failing = new Set<string>();

  /**
   * An answer to the operation (`label` on `origin`): a refusal or not, and the rate it was held to
   * when its request went out, requests a second (Infinity: none). True where it shows the operation
   * failing for the first time.
   */
  answered(origin: string, label: string, refused: boolean, pace: number, now = performance.now()): boolean {
    const operation = `${origin} ${label}`;
    count(this.everyAnswer, refused);
    let own = this.answers.get(operation);
    if (!own) this.answers.set(operation, (own = { answers: 0, refused: 0 }));
    count(own, refused);
    let latest = this.latest.get(operation);
    if (!latest) this.latest.set(operation, (latest = { refused: [], at: now }));
    const heavyBefore = latest.refused.length >= MIN_SERVED && latest.refused.filter(Boolean).length >= HEAVY * latest.refused.length && now - latest.at <= PAUSE_MS;
    const refusedBefore = latest.refusedAt;
    latest.refused.push(refused);
    if (latest.refused.length > WINDOW) latest.refused.shift();
    latest.at = now;
    if (refused) latest.refusedAt = now;
    if (pace === Infinity) return false;
    let series = this.series.get(operation);
    // After a pause the rates before it say nothing of the ones after; gaps the rate it is held to makes are no pause.
    if (series && now - series.last > PAUSE_MS + (2 * 1000) / pace) series = undefined;
    if (!series) {
      // Refused as often right before, with no pause, the first window is a rate to compare with, from that refusal.
      const from = heavyBefore && refusedBefore !== undefined ? refusedBefore : undefined;
      series = { from, last: now, answers: 0, refused: 0, ceiling: 0, lastAnswers: [], othersFrom: this.others(own) };
      this.series.set(operation, series);
    }
    series.last = now;
    series.lastAnswers.push({ refused, pace });
    if (series.lastAnswers.length > WINDOW) series.lastAnswers.shift();
    this.readServed(series, refused, now);
    if (this.failing.has(operation) || !this.heldHalfAndRefused(series)) return false;
    const others = this.others(own);
    if (others.refused - series.othersFrom.refused > OTHERS_AT_MOST * (others.answers - series.othersFrom.answers)) return false;
    this.failing.add(operation);
    return true;
  }

  /** The rate served over each window of WINDOW refused HEAVY or more, counted from the last refusal before it: the ceiling is the highest. */
  private readServed(series: Series, refused: boolean, now: number): void {
    series.answers++;
    if (refused) {
      series.refused++;
      series.refusedAt = now;
    }
    if (series.answers < WINDOW || series.answers - series.refused < MIN_SERVED) return;
    const heavy = series.refused >= HEAVY * series.answers;
    // Served since a refusal, when a limit had nothing left: no more than one, and its rate since.
    if (heavy && series.from !== undefined) series.ceiling = Math.max(series.ceiling, ((series.answers - series.refused - 1) * 1000) / Math.max(1, now - series.from));
    series.from = heavy ? series.refusedAt : undefined;
    series.answers = 0;
    series.refused = 0;
  }

  /** Whether the latest WINDOW paced answers were refused HEAVY or more, all of their requests held to half the ceiling or less. */
  private heldHalfAndRefused(series: Series): boolean {
    if (series.lastAnswers.length < WINDOW || series.ceiling === 0) return false;
    const refused = series.lastAnswers.filter((answer) => answer.refused).length;
    if (WINDOW - refused < MIN_SERVED || refused < HEAVY * WINDOW) return false;
    return series.lastAnswers.every((answer) => SLOWER * answer.pace <= series.ceiling);
  }

  /** Whether the operation, held to half the rate it was served at or less, was refused as often (see the class). */
  failsWhenSlowed(origin: string, label: string): boolean {
    return this.failing.has(`${origin} ${label}`);
  }

  private others(own: Counts): Counts {
    return { answers: this.everyAnswer.answers - own.answers, refused: this.everyAnswer.refused - own.refused };
  }
}

interface Counts {
  answers: number;
  refused: number;
}

/**
 * An operation's paced answers since a pause: by windows of WINDOW, the highest rate it was served at
 * in a window refused HEAVY or more; and its latest WINDOW answers, with the rate each was held to.
 */
interface Series {
  /**
   * The window's rate is counted from the last refusal before it (a window after one refused less has
   * none: what a limit saved up meanwhile is unknown, its burst).
   */
  from: number | undefined;
  last: number;
  answers: number;
  refused: number;
  refusedAt?: number;
  ceiling: number;
  lastAnswers: { refused: boolean; pace: number }[];
  /** Every other operation's answers when the series began. */
  othersFrom: Counts;
}

function count(counts: Counts, refused: boolean): void {
  counts.answers++;
  if (refused) counts.refused++;
}

/** Paced answers a rate is read over, and served answers among them (fewer say too little of a rate). */
const WINDOW = 20;
const MIN_SERVED = 8;
/** A tenth refused: a limit paced under refuses a few in a hundred as the rate climbs past it. */
const HEAVY = 0.1;
/** Held to this share of an earlier window's served rate or less. */
const SLOWER = 2;
/** A gap this long between the operation's answers, besides two of the gaps its rate makes, starts its series again (a rest holds every request this long). */
const PAUSE_MS = 1_000;
/** The share of the other operations' answers refused at most, for an operation's refusals to be its own. */
const OTHERS_AT_MOST = 0.01;
