import type { TargetEnv } from '../config/settings.ts';
import type { Clause } from '../contract/clauses.ts';
import type { Contract } from '../contract/model.ts';
import type { NetworkOptions } from '../http/network-options.ts';

/**
 * Requests a pipelined property keeps on the wire (never more than `concurrency`) against a target
 * that answers within REMOTE_ROUND_TRIP_MS. At two, client and server take turns and each wakes the
 * other for every request (on 2 cores the suite's client alone sends 12,000 GETs a second at two in
 * flight, 27,000 at four, hardly more at six); at four neither waits for the other.
 */
export const PIPELINE_DEPTH = 4;

/**
 * A target whose preflight round trip takes this long or more is waited on, not worked on: its
 * properties keep `concurrency` requests in flight and its scenarios run side by side. Loopback
 * measures 0.7 ms. While this was 5, a default run against a target 1 to 3 ms away (a gateway in the
 * same region) took 1.6 to 2.9 times its loopback time, longer than against one 20 ms away.
 */
export const REMOTE_ROUND_TRIP_MS = 1;

/** How many requests a property keeps in flight, given the target's round trip in ms (undefined: not measured). */
export function pipelineDepth(roundTripMs: number | undefined, concurrency: number): number {
  const wanted = isRemote(roundTripMs) ? concurrency : PIPELINE_DEPTH;
  return Math.max(1, Math.min(wanted, concurrency));
}

/** Whether a target is far enough away that the run waits on it rather than works (see REMOTE_ROUND_TRIP_MS). */
export function isRemote(roundTripMs: number | undefined): boolean {
  return roundTripMs !== undefined && roundTripMs >= REMOTE_ROUND_TRIP_MS;
}

/** Answers the preflight times on one connection, the fastest taken as the round trip. */
export const ROUND_TRIP_SAMPLES = 3;
/**
 * At most this many while the fastest lies between REMOTE_ROUND_TRIP_MS and 4 times it, where a
 * target still warming up is told from one that far: a freshly started server on loopback (and the
 * suite's own client, compiling as it goes) answers its first requests in 10 ms, then 1 to 1.4 ms,
 * and from about the sixth in 0.6 to 0.8 ms.
 */
export const MAX_ROUND_TRIP_SAMPLES = 10;

/** Whether the preflight times another answer, `taken` timed so far and the fastest `fastestMs`. */
export function wantsAnotherSample(taken: number, fastestMs: number): boolean {
  if (taken < ROUND_TRIP_SAMPLES) return true;
  return taken < MAX_ROUND_TRIP_SAMPLES && fastestMs >= REMOTE_ROUND_TRIP_MS && fastestMs < 4 * REMOTE_ROUND_TRIP_MS;
}

/** The default --concurrency on loopback and nearby; further away it grows with the round trip (see concurrencyFor). */
export const DEFAULT_CONCURRENCY = 8;

/** The most requests in flight the suite chooses by itself, however far the target (1,000 a second at 64 ms). */
const MAX_CHOSEN_CONCURRENCY = 64;

/**
 * The in-flight cap when --concurrency is not given: one per ms of the round trip, so a target
 * `roundTripMs` away still gets about 1,000 requests a second (a default run's ~1,450 in under 2 s
 * of waiting), at least DEFAULT_CONCURRENCY and at most MAX_CHOSEN_CONCURRENCY.
 */
export function concurrencyFor(roundTripMs: number | undefined): number {
  if (!isRemote(roundTripMs)) return DEFAULT_CONCURRENCY;
  return Math.min(MAX_CHOSEN_CONCURRENCY, Math.max(DEFAULT_CONCURRENCY, Math.ceil(roundTripMs!)));
}

/**
 * Sequences per lane: each lane takes the next of one stream of sequences (tests/sequences.test.ts),
 * and far from the target all run side by side, so the longest chain of dependent requests is one
 * sequence's, whatever --runs.
 */
export const SEQUENCES_PER_LANE = 1;
/** The most calls a sequence makes, besides its last look at what it created. */
export const MAX_SEQUENCE_STEPS = 12;

/**
 * How many sequences a run draws: twice --runs, and at least a default run's 50 so a two-call fault is
 * met at low --runs too (each lane's two are fast-check's first runs, which favour short sequences).
 */
export function sequenceCount(runs: number): number {
  return Math.max(50, 2 * runs);
}

/** The lanes the sequences run in (see SEQUENCES_PER_LANE). */
export function sequenceLanes(runs: number): number {
  return Math.ceil(sequenceCount(runs) / SEQUENCES_PER_LANE);
}

/** What the CLI hands every test worker (through vitest's provide/inject). */
export interface SuiteConfig {
  /** Parsed and validated once by the CLI, so workers never load swagger-parser. */
  contract: Contract;
  /** The clause catalogue, read once by the CLI. */
  clauses: Clause[];
  baseUrl: string;
  messagesBaseUrl?: string;
  apiKey: string;
  targetEnv: TargetEnv;
  /** False: checks that create pets or send messages are skipped, with writesReason. */
  writes: boolean;
  writesReason?: string;
  seed: number;
  runs: number;
  /** ISO 8601 */
  now: string;
  /** Whether --now (or NOW) set `now`; else it is the time of the run. */
  nowGiven: boolean;
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
  /** Requests a property keeps in flight: pipelineDepth() of the preflight's round trip. */
  pipelineDepth: number;
  /**
   * Scenarios, and the cases of an everyCase, run side by side (a target REMOTE_ROUND_TRIP_MS or
   * more away): under the one client's in-flight cap, only true data dependencies wait.
   */
  concurrent?: boolean;
  maxRps: number;
  /** --stateful off: the sequences of calls (ScenarioOptions.stateful) are skipped. */
  stateful: boolean;
  only: string[];
  skip: string[];
  /** --category-ids (decimal int64): categoryIds a NewPet may carry and must be taken; empty: learned from the listing. */
  categoryIds: string[];
  /** Epoch ms after which properties stop generating new cases. */
  deadline: number;
  /** Proxy, trusted CAs, client certificate and gateway headers; none against the embedded server. */
  network?: NetworkOptions;
  /** Where workers append, one JSON line each, what the run created on the target (the CLI gathers it into created.json). */
  trailFile?: string;
  /** --shard i/n: this run takes one share of the work (src/suite/shard.ts); `runs` is then the whole run's, n × --runs. */
  shard?: { index: number; count: number };
  /** --dry-run: every scenario records what it would judge and whether it would be skipped, and sends nothing. */
  plan?: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    suite: SuiteConfig;
  }
}
