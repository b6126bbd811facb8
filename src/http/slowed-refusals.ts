/**
 * Per operation, the rate it was served at while its origin was held to a learnt rate (OriginPace)
 * and it was still refused (503s without Retry-After). A limit on the rate serves about its own rate
 * however fast it is sent to, so slowing down leaves what it serves as it was, until it refuses no
 * more. A server that fails a share of what it is sent serves in proportion to what it is sent: slowed
 * to half, it serves half, refused as often. Such an operation is failing, not limited, and its 503s
 * are judged rather than sent again, unless other operations (on any host) were refused meanwhile:
 * then a limit they share may have spent what it served this one on them.
 */
export class SlowedRefusals {
  private readonly series = new Map<string, Series>();
  private readonly answers = new Map<string, Counts>();
  private readonly everyAnswer: Counts = { answers: 0, refused: 0 };
  private readonly failing = new Set<string>();

  /**
   * An answer to the operation (`label` on `origin`): a refusal or not, and whether its origin was
   * paced. True where it shows the operation failing for the first time.
   */
  answered(origin: string, label: string, refused: boolean, paced: boolean, now = performance.now()): boolean {
    const operation = `${origin} ${label}`;
    count(this.everyAnswer, refused);
    let own = this.answers.get(operation);
    if (!own) this.answers.set(operation, (own = { answers: 0, refused: 0 }));
    count(own, refused);
    if (!paced) return false;
    let series = this.series.get(operation);
    // After a pause the rates before it say nothing of the ones after.
    if (series && now - series.last > PAUSE_MS) series = undefined;
    if (!series) {
      series = { windowFrom: now, last: now, answers: 0, refused: 0, lastHeavy: false, ceiling: 0, othersFrom: this.others(own) };
      this.series.set(operation, series);
    }
    series.last = now;
    series.answers++;
    if (refused) series.refused++;
    if (series.answers < WINDOW || series.answers - series.refused < MIN_SERVED) return false;
    const served = ((series.answers - series.refused) * 1000) / Math.max(1, now - series.windowFrom);
    const heavy = series.refused >= HEAVY * series.answers;
    const afterHeavy = series.lastHeavy;
    series.windowFrom = now;
    series.answers = 0;
    series.refused = 0;
    series.lastHeavy = heavy;
    if (!heavy) return false;
    const slower = series.ceiling >= SLOWER * served;
    // A window after one that was not refused as often may have been served what a limit saved up meanwhile (its burst).
    if (afterHeavy) series.ceiling = Math.max(series.ceiling, served);
    const others = this.others(own);
    const alone = others.refused - series.othersFrom.refused <= OTHERS_AT_MOST * (others.answers - series.othersFrom.answers);
    if (!slower || !alone || this.failing.has(operation)) return false;
    this.failing.add(operation);
    return true;
  }

  /** Whether the operation, slowed down, was served at half the rate or less while refused as often (see the class). */
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

/** An operation's paced answers since a pause: the rate it is served at over the latest WINDOW of them, and the highest over the earlier ones refused as often. */
interface Series {
  windowFrom: number;
  last: number;
  answers: number;
  refused: number;
  /** Whether the window before the latest was refused HEAVY or more. */
  lastHeavy: boolean;
  ceiling: number;
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
/** Served at this share of an earlier window's rate or less. */
const SLOWER = 2;
/**
 * A gap this long between the operation's answers starts its series again: a window across it would
 * count time nothing was sent in (a rest holds every request this long) as time a limit served little
 * in. Shorter gaps are the client's own waits, or a loaded machine's.
 */
const PAUSE_MS = 1_000;
/** The share of the other operations' answers refused at most, for an operation's refusals to be its own. */
const OTHERS_AT_MOST = 0.01;
