/**
 * Per operation, its answers while its origin was held to a learnt rate (OriginPace), and how many of
 * them were 503s without Retry-After. A limit on the rate refuses next to nothing once requests go
 * evenly under it, and whatever it refuses it refuses of every operation alike (a limit shared with
 * another host refuses on, but still alike). An operation refused as often as before, slowed down,
 * while the origin's other operations are all but never refused, is failing, not limited: its 503s are
 * judged rather than sent again.
 */
export class SlowedRefusals {
  private readonly counts = new Map<string, Counts>();
  private readonly byOrigin = new Map<string, Counts>();
  private readonly failing = new Set<string>();

  /** An answer to the operation (`label` on `origin`) while its origin was paced: a refusal or not. */
  answered(origin: string, label: string, refused: boolean): void {
    const operation = `${origin} ${label}`;
    const counts = count(this.counts, operation, refused);
    const all = count(this.byOrigin, origin, refused);
    const others = { answers: all.answers - counts.answers, refused: all.refused - counts.refused };
    const share = counts.refused / counts.answers;
    if (counts.answers < MIN_ANSWERS || counts.refused < MIN_REFUSED || share < FAILING_SHARE || others.answers < MIN_OTHERS) return;
    if (others.refused / others.answers <= OTHERS_AT_MOST) this.failing.add(operation);
  }

  /** Whether the operation's 503s went on, slowed down, as often as FAILING_SHARE of its answers, while the origin's other operations were all but never refused. */
  failsWhenSlowed(origin: string, label: string): boolean {
    return this.failing.has(`${origin} ${label}`);
  }
}

interface Counts {
  answers: number;
  refused: number;
}

function count(map: Map<string, Counts>, key: string, refused: boolean): Counts {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = { answers: 0, refused: 0 }));
  counts.answers++;
  if (refused) counts.refused++;
  return counts;
}

/** Paced answers of an operation (and of the origin's others) before its share is read, and refusals among them. */
const MIN_ANSWERS = 20;
const MIN_REFUSED = 5;
/** A tenth: a limit on the rate, paced under, refuses a few in a hundred as the rate climbs past it. */
const FAILING_SHARE = 0.1;
/** The origin's other operations' paced answers before theirs is read, and the share of them refused at most, for an operation's refusals to be its own. */
const MIN_OTHERS = 50;
const OTHERS_AT_MOST = 0.01;
