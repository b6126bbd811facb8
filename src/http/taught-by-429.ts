/**
 * Whether 429s still teach rates (HttpClient.learnFrom429). A limit on the rate held under refuses
 * nothing for a while: CALM_RUN answers in a row, to any origin, come without a 429 within PROOF_MS
 * of the first rate a 429 taught, and again within PROOF_MS of each 429 that comes after a proof
 * (the rate climbs back and meets the limit again). A server that answers 429 to a share of its
 * requests whatever the rate (every other one, every tenth) gives no such run once the rates cut it
 * slow: its 429s then teach nothing more, and the rates they taught are let go, so that a rate cut on
 * each 429 cannot slow the run to a crawl. One proof does not last the run: a gateway that answers
 * 429 at once, before the answers to requests sent earlier, shows runs of calm answers in a row at
 * first whatever the rate (until 2026-12-07 one such run kept the rates for good, and every tenth
 * request refused made a run take 4 minutes instead of 15 s, helper-38a).
 */
export class TaughtBy429 {
  /** Where the window a calm run must come within began: the first rate taught, then each 429 after a proof. */
  private windowFrom: number | undefined;
  private run = 0;
  private proved = false;
  private off = false;
  /** Origins a 429 taught a rate to, its own or one of its operations'. */
  private readonly origins = new Set<string>();

  /** An answer that was no refusal. */
  calm(): void {
    this.run++;
    if (this.windowFrom !== undefined && this.run >= CALM_RUN) this.proved = true;
  }

  /**
   * A 429: whether it may teach a rate. False from the first time a window of PROOF_MS went without
   * the calm run that shows the rates held under a limit; `letGo` is then handed the origins they were
   * taught to, once. A 429 past a window that had its run opens the next.
   */
  refused(letGo: (origins: ReadonlySet<string>) => void, now = performance.now()): boolean {
    this.run = 0;
    if (this.off) return false;
    if (this.windowFrom === undefined || now - this.windowFrom <= PROOF_MS) return true;
    if (this.proved) {
      this.proved = false;
      this.windowFrom = now;
      return true;
    }
    this.off = true;
    letGo(this.origins);
    return false;
  }

  /** A 429 taught the origin (or an operation on it) a rate. */
  taught(origin: string, now = performance.now()): void {
    this.windowFrom ??= now;
    this.origins.add(origin);
  }

  /** Whether 429s were found to come whatever the rate, and teach nothing any more. */
  get stopped(): boolean {
    return this.off;
  }
}

/** Answers in a row without a 429 that show the rates taught keep under a limit. */
export const CALM_RUN = 20;
/** How long after the first rate a 429 taught that calm run may take to come. */
export const PROOF_MS = 5_000;
