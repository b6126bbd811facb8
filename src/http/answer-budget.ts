/**
 * The bytes of answers the client holds in flight at once, bounded across every origin. Each request
 * waits until the answer it may bring fits (see `expected`), so a server whose answers are a few KB
 * is hardly held back, and one whose every answer is megabytes (a padded listing, a store of long
 * names) gets as many in flight as the budget holds, at least one. Without it the in-flight cap that
 * grows with the round trip (a body megabytes long takes tens of ms on loopback) put some forty 4 MB
 * answers in flight: the suite's own parsing of them outran --timeout, and it failed a server that
 * answered every one in full (2026-12-07, `npm run bench:padded`).
 */
export class AnswerBudget {
  private reserved = 0;
  private holders = 0;
  /** Requests waiting for room in turn; `critical` ones (ScenarioOptions.critical) before the others, as for a slot. */
  private readonly waiting: Waiting[] = [];
  private readonly waitingCritical: Waiting[] = [];
  private readonly largestOf = new Map<string, number>();
  private readonly largestOfOrigin = new Map<string, number>();

  /** `maxAnswerBytes`: what the client reads of one answer at most (--max-body). */
  constructor(
    private readonly bytes: number,
    private readonly maxAnswerBytes: number,
  ) {}

  /**
   * What an answer to the operation may hold: the largest it has answered; before it has answered
   * any, the largest its origin has, and at least UNKNOWN_ANSWER_BYTES (a store whose listings are
   * megabytes answers its creates in a few hundred bytes).
   */
  expected(origin: string, operation: string): number {
    return this.largestOf.get(`${origin} ${operation}`) ?? Math.max(this.largestOfOrigin.get(origin) ?? 0, Math.min(UNKNOWN_ANSWER_BYTES, this.maxAnswerBytes));
  }

  /**
   * Settles once the operation's answer fits, as expected when its turn comes (an answer that came
   * while it waited counts); `settle` then gives the bytes of the answer that came (none: unknown),
   * and lets the room go.
   */
  async reserve(origin: string, operation: string, critical = false): Promise<Room> {
    const bytes = await new Promise<number>((start) => {
      (critical ? this.waitingCritical : this.waiting).push({ origin, operation, start });
      this.pump();
    });
    let settled = false;
    return {
      settle: (answerBytes) => {
        if (settled) return;
        settled = true;
        if (answerBytes !== undefined) this.learn(origin, operation, answerBytes);
        this.reserved -= bytes;
        this.holders--;
        this.pump();
      },
    };
  }

  /** Requests holding room now, and the bytes they hold. */
  held(): { requests: number; bytes: number } {
    return { requests: this.holders, bytes: this.reserved };
  }

  /** Starts the waiting requests in turn while the first one's answer fits. */
  private pump(): void {
    for (;;) {
      const queue = this.waitingCritical.length > 0 ? this.waitingCritical : this.waiting;
      const next = queue[0];
      if (!next) return;
      const bytes = this.expected(next.origin, next.operation);
      if (this.holders > 0 && this.reserved + bytes > this.bytes) return;
      queue.shift();
      this.reserved += bytes;
      this.holders++;
      next.start(bytes);
    }
  }

  private learn(origin: string, operation: string, answerBytes: number): void {
    const key = `${origin} ${operation}`;
    this.largestOf.set(key, Math.max(this.largestOf.get(key) ?? 0, answerBytes));
    this.largestOfOrigin.set(origin, Math.max(this.largestOfOrigin.get(origin) ?? 0, answerBytes));
  }
}

interface Waiting {
  origin: string;
  operation: string;
  start: (bytes: number) => void;
}

/** Room held for one request's answer: `settle` gives the bytes of the answer that came (none: unknown) and lets the room go (once, however often called). */
export interface Room {
  settle: (answerBytes?: number) => void;
}

/** Answer bytes in flight at once: a few KB each, hundreds of ordinary answers; 4 MB ones, four. */
export const ANSWER_BYTES_IN_FLIGHT = 16 * 1024 * 1024;
/** Until an origin has answered, each request to it is taken to bring this much: sixteen go at first. */
export const UNKNOWN_ANSWER_BYTES = 1024 * 1024;
