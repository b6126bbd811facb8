/**
 * Whether 429s still teach rates (HttpClient.learnFrom429). A limit on the rate held under refuses
 * nothing for a while: CALM_RUN answers in a row, to any origin, come without a 429 within PROOF_MS
 * of the first rate a 429 taught. A server that answers 429 to a share of its requests whatever the
 * rate (every other one) never gives as many in a row: its 429s then teach nothing more, and the rates
 * they taught are let go, so that a rate cut on each 429 cannot slow the run to a crawl.
 */
export class TaughtBy429 {
  private firstTaughtAt: number | undefined;
  private run = 0;
  private proved = false;
  private off = false;
  /** Origins a 429 taught a rate to, its own or one of its operations'. */
  private readonly origins = new Set<string>();

  /** An answer that was no refusal. */
  calm(): void {
    this.run++;
    if (this.firstTaughtAt !== undefined && this.run >= CALM_RUN) this.proved = true;
  }

  /**
   * A 429: whether it may teach a rate. False from the first time the rates taught went PROOF_MS
   * without the calm run that shows them held under a limit; `letGo` is then handed the origins they
   * were taught to, once.
   */
  refused(letGo: (origins: ReadonlySet<string>) => void, now = performance.now()): boolean {
    this.run = 0;
    if (this.off) return false;
    if (this.firstTaughtAt === undefined || this.proved || now - this.firstTaughtAt <= PROOF_MS) return true;
    this.off = true;
    letGo(this.origins);
    return false;
  }

  /** A 429 taught the origin (or an operation on it) a rate. */
  taught(origin: string, now = performance.now()): void {
    this.firstTaughtAt ??= now;
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
