import { curlLine } from '../http/curl.ts';
import { describeResponse, type Exchange } from '../http/exchange.ts';
import type { StoryEvidence } from '../report/model.ts';

/** A command of a sequence as plain data, with the words a story tells it in. */
export interface StoryCall {
  /** e.g. "create an animal (valid key)". */
  says: string;
}

/** What one run of a sequence sent, step by step: a failure is told as this story. */
export class Story {
  private readonly steps: { call: StoryCall; exchanges: Exchange[]; source: unknown }[] = [];

  /** A new step: the command about to run (`source`: what runs it again, see sources). */
  begin(call: StoryCall, source?: unknown): void {
    this.steps.push({ call, exchanges: [], source });
  }

  /** What each step was begun with, in order: the steps that ran, to run them again. */
  sources(): unknown[] {
    return this.steps.map((step) => step.source);
  }

  /** An exchange the current step made. */
  record(exchange: Exchange): Exchange {
    this.steps.at(-1)?.exchanges.push(exchange);
    return exchange;
  }

  /** The sequence failed once and not when run again (see runSequences). */
  unconfirmed = false;

  get length(): number {
    return this.steps.length;
  }

  /** The story as reports show it; the last step is the one that failed. */
  evidence(): StoryEvidence {
    const requestLine = (exchange: Exchange) => `${exchange.request.method} ${exchange.request.url}${exchange.request.body === undefined ? '' : ` ${exchange.request.body.length > 200 ? `${exchange.request.body.slice(0, 200)}…` : exchange.request.body}`}`;
    return {
      steps: this.steps.map(({ call, exchanges }) => ({
        call: call.says,
        requests: exchanges.map((exchange) => ({ request: requestLine(exchange), answer: describeResponse(exchange) })),
      })),
      curl: this.steps.flatMap(({ exchanges }) => exchanges.map((exchange) => curlLine(exchange.request))),
      calls: this.steps.map(({ call }) => call),
      ...(this.unconfirmed ? { unconfirmed: true } : {}),
    };
  }
}
