import type { ClientStats } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';

type Tally = Pick<ClientStats, 'answeredAgain'>;

/**
 * Which exchanges marked answered again (Exchange.answeredAgain, for http.one-answer) a scenario
 * judges as it ends. Such an answer shows once its connection is idle, mostly after the request was
 * judged: its own scenario judges it again as it ends, or, where it came after that, the next
 * scenario to end that is not itself still waiting for it. None is judged twice.
 */
export class SecondAnswers {
  private readonly judged = new WeakSet<Exchange>();
  /** The counts of the scenarios whose bodies are running. */
  private readonly running = new Set<Tally>();

  started(tally: Tally): void {
    this.running.add(tally);
  }

  /** The exchange was judged with http.one-answer while marked. */
  judgedMarked(exchange: Exchange): void {
    this.judged.add(exchange);
  }

  /** A scenario's body ended (or threw). */
  ended(tally: Tally): void {
    this.running.delete(tally);
  }

  /** The marked exchanges a scenario whose body ended judges now: its own, and those of the run (`all`) no running scenario holds. */
  due(tally: Tally, all: readonly Exchange[]): Exchange[] {
    const heldElsewhere = (exchange: Exchange) => [...this.running].some((other) => other.answeredAgain.includes(exchange));
    const due = [...new Set([...tally.answeredAgain, ...all.filter((exchange) => !heldElsewhere(exchange))])].filter((exchange) => !this.judged.has(exchange));
    for (const exchange of due) this.judged.add(exchange);
    return due;
  }
}
