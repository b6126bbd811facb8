import { curlLine } from '../http/curl.ts';
import { describeResponse, type Exchange, type SentRequest } from '../http/exchange.ts';
import type { StoryEvidence } from '../report/model.ts';

/** A command of a sequence as plain data, with the words a story tells it in. */
export interface StoryCall {
  /** e.g. "create an animal (valid key)". */
  says: string;
}

/** What one run of a sequence sent, step by step: a failure is told as this story. */
export class Story {
  /** Each exchange kept as the few lines a story tells of it, not whole: a run holds many stories, and an answer may be megabytes. */
  private readonly steps: { call: StoryCall; exchanges: { request: string; answer: string; sent: SentRequest }[]; source: unknown }[] = [];

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
    const body = exchange.request.body;
    const request = `${exchange.request.method} ${exchange.request.url}${body === undefined ? '' : ` ${body.length > 200 ? `${body.slice(0, 200)}…` : body}`}`;
    this.steps.at(-1)?.exchanges.push({ request, answer: describeResponse(exchange), sent: exchange.request });
    return exchange;
  }

  /** The sequence failed once and not when run again, or --max-duration ran out before it was (see runSequences). */
  unconfirmed: false | 'did-not-recur' | 'out-of-time' = false;

  get length(): number {
    return this.steps.length;
  }

  /** The story as reports show it; the last step is the one that failed. */
  evidence(): StoryEvidence {
    return {
      steps: this.steps.map(({ call, exchanges }) => ({
        call: call.says,
        requests: exchanges.map(({ request, answer }) => ({ request, answer })),
      })),
      curl: this.steps.flatMap(({ exchanges }) => exchanges.map(({ sent }) => curlLine(sent))),
      calls: this.steps.map(({ call }) => call),
      ...(this.unconfirmed ? { unconfirmed: true } : {}),
      ...(this.unconfirmed === 'out-of-time' ? { outOfTime: true } : {}),
    };
  }
}
