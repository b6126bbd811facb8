import type { TargetEnv } from '../config/settings.ts';
import type { Clause } from '../contract/clauses.ts';
import type { Contract } from '../contract/model.ts';

/**
 * Requests a pipelined property keeps on the wire (never more than `concurrency`): enough for the
 * server never to wait for the suite's generating and judging.
 */
export const PIPELINE_DEPTH = 2;

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
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
  maxRps: number;
  only: string[];
  skip: string[];
  /** --category-ids (decimal int64): categoryIds a NewPet may carry and must be taken; empty: learned from the listing. */
  categoryIds: string[];
  /** Epoch ms after which properties stop generating new cases. */
  deadline: number;
  /** --dry-run: every scenario records what it would judge and whether it would be skipped, and sends nothing. */
  plan?: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    suite: SuiteConfig;
  }
}
