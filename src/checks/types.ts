import type { Contract } from '../contract/model.ts';
import type { Validators } from '../contract/validator.ts';
import type { Exchange } from '../http/exchange.ts';

/** What every judge may consult besides the exchange. */
export interface JudgeEnv {
  contract: Contract;
  validators: Validators;
  /** The suite's clock (--now). */
  now: Date;
  /** The ids the service gave the animals this worker created so far, whatever the scenario (create.id-unique). */
  createdIds?: Set<string>;
  /** The text of each message this worker was given an id for, by id, whatever the scenario (messages.id-unique). */
  messageIds?: Map<string, string>;
  /** By id, each animal this worker created, as its 201 showed it (list.shows-created). */
  createdAnimals?: { get(id: string): { id: string; name: string; categoryId: string } | undefined };
  /** What showed an id holding another animal before a create was sent, whatever the scenario (state.id-fresh; src/suite/shown-ids.ts). */
  shownIds?: { heldBefore(create: Exchange, id: string, created: { name?: unknown; categoryId?: unknown }): string | undefined };
}

export type Verdict =
  | { outcome: 'pass' }
  | { outcome: 'fail'; expected: string; actual: string }
  /** The exchange does not bear on this check (e.g. a 201 for a 401-body check). */
  | { outcome: 'n/a' }
  | { outcome: 'observe'; value: string; detail?: string };

/**
 * A valid input a server may still refuse, because the spec leaves its limits open: with 400 (the
 * status §4.2 gives invalid values) or, for a long one, 413 (§8 shows no body size limit).
 */
export interface Refusable {
  /** What puts the input outside the core every server must take, e.g. "a NUL character". */
  why: string;
  tooLong: boolean;
}

/** Judges an exchange: a check, or one side of a clause judged on two sides (see combine). */
export interface Part<Ctx = object> {
  description: string;
  judge(exchange: Exchange, ctx: Ctx & { env: JudgeEnv }): Verdict;
}

/** One canned exchange and the verdict a check must give it (selftest/checks/canned runs them all). */
export interface Case<Ctx> {
  /** What the case shows, as the test name. */
  why: string;
  ex: Exchange;
  /** Replaces the default context of the cases. */
  ctx?: Ctx;
  /** Replaces the env clock for this case. */
  now?: Date;
  /** observe: the value the check must record. */
  value?: string;
  /** observe: the detail the check must record. */
  detail?: string;
  /** fail: what the Actual line must say. */
  actual?: RegExp;
  /** fail: what the Expected line must say. */
  expected?: RegExp;
}

type Some<T> = readonly [T, ...T[]];

/**
 * The proof a check judges as its clause says: exchanges it must pass and fail (MUST and SHOULD
 * clauses; n/a ones too where it has them), or leave n/a and record (OBSERVE clauses).
 */
export type Cases<Ctx> =
  | { ctx: Ctx; pass: Some<Case<Ctx>>; fail: Some<Case<Ctx>>; na?: Some<Case<Ctx>>; observe?: never }
  | { ctx: Ctx; na: Some<Case<Ctx>>; observe: Some<Case<Ctx>>; pass?: never; fail?: never };

/** Verifies one clause of spec/clauses.yaml; the registry keys it by that clause's id. */
export interface Check<Ctx = object> extends Part<Ctx> {
  cases: Cases<NoInfer<Ctx>>;
}

/** Keeps the context type of each check for the registry's typed lookup; without its cases it does not compile. */
export function defineCheck<Ctx = object>(check: Check<Ctx>): Check<Ctx> {
  return check;
}

/** One side of a clause judged on two sides: its check is `combine(a, b, cases)`. */
export function definePart<Ctx = object>(part: Part<Ctx>): Part<Ctx> {
  return part;
}

const RANK: Record<Verdict['outcome'], number> = { 'n/a': 0, pass: 1, observe: 2, fail: 3 };

/**
 * One clause judged on two sides (e.g. what is refused, and how what is accepted comes back): each
 * part is given the context and is n/a where its own fields are absent; the verdict is the gravest.
 */
export function combine<A, B>(a: Part<A>, b: Part<B>, cases: Cases<NoInfer<A | B>>): Check<A | B> {
  return {
    description: `${a.description}; ${b.description}`,
    judge(exchange, ctx) {
      const first = a.judge(exchange, ctx as A & { env: JudgeEnv });
      const second = b.judge(exchange, ctx as B & { env: JudgeEnv });
      return RANK[second.outcome] > RANK[first.outcome] ? second : first;
    },
    cases,
  };
}

export const PASS: Verdict = { outcome: 'pass' };
export const NOT_APPLICABLE: Verdict = { outcome: 'n/a' };

/** The most of an Expected or Actual line any report quotes: a server's answer may hold megabytes. */
export const MAX_QUOTED_CHARS = 2_000;

/** The text, or its first MAX_QUOTED_CHARS characters and a note of how long it was. */
export function quoted(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return text;
  let end = MAX_QUOTED_CHARS;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… (cut: ${text.length.toLocaleString('en-US')} characters in all)`;
}

export function fail(expected: string, actual: string): Verdict {
  return { outcome: 'fail', expected: quoted(expected), actual: quoted(actual) };
}
