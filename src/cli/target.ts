import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Clause } from '../contract/clauses.ts';
import type { Contract } from '../contract/model.ts';
import type { Settings, TargetEnv } from '../config/settings.ts';
import { isLoopbackUrl } from '../config/values.ts';
import type { NetworkOptions } from '../http/network-options.ts';
import { TRAIL_FILE } from '../report/created.ts';
import { pipelineDepth, type SuiteConfig } from '../suite/config.ts';

export interface Target {
  baseUrl: string;
  messagesBaseUrl?: string;
  apiKey: string;
  env: TargetEnv;
  embedded: boolean;
  close(): Promise<void>;
}

export async function resolveTarget(settings: Settings): Promise<Target> {
  if (!settings.baseUrl) {
    const apiKey = `embedded-${randomBytes(12).toString('hex')}`;
    const { startReference } = await import('../../reference/server.ts');
    const reference = await startReference({ apiKey });
    return { baseUrl: reference.baseUrl, messagesBaseUrl: reference.messagesBaseUrl, apiKey, env: 'local', embedded: true, close: () => reference.close() };
  }
  const env: TargetEnv = settings.env ?? (isLoopbackUrl(settings.baseUrl) ? 'local' : 'production');
  const target: Target = { baseUrl: settings.baseUrl, apiKey: settings.apiKey ?? '', env, embedded: false, close: async () => {} };
  if (settings.messagesBaseUrl) target.messagesBaseUrl = settings.messagesBaseUrl;
  return target;
}

/** The network settings for this target: none for the embedded server; gateway headers go to the configured hosts only. */
export function targetNetwork(settings: Settings, target: Target): NetworkOptions | undefined {
  if (target.embedded) return undefined;
  const network: NetworkOptions = { ...settings.network };
  if (network.headers) network.headerOrigins = [...new Set([target.baseUrl, target.messagesBaseUrl].filter((url) => url !== undefined).map((url) => new URL(url).origin))];
  return network;
}

export function suiteConfig(settings: Settings, target: Target, started: number, contract: Contract, clauses: Clause[]): SuiteConfig {
  const writes = target.env !== 'production' || settings.allowWrites;
  const config: SuiteConfig = {
    contract,
    clauses,
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    targetEnv: target.env,
    writes,
    seed: settings.seed,
    // --runs is per shard: n shards draw the inputs of one run of n × --runs.
    runs: settings.runs * (settings.shard?.count ?? 1),
    now: settings.now.toISOString(),
    nowGiven: settings.nowGiven,
    timeoutMs: settings.timeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    concurrency: settings.concurrency,
    pipelineDepth: pipelineDepth(undefined, settings.concurrency),
    maxRps: settings.maxRps > 0 ? Math.max(1, Math.floor(settings.maxRps / settings.workers)) : 0,
    stateful: settings.stateful,
    only: settings.only,
    skip: settings.skip,
    categoryIds: settings.categoryIds,
    deadline: started + settings.maxDurationMs,
    ...(settings.shard ? { shard: settings.shard } : {}),
  };
  if (!writes) config.writesReason = 'writes are off against production (give --allow-writes, or --env staging)';
  if (target.messagesBaseUrl) config.messagesBaseUrl = target.messagesBaseUrl;
  const network = targetNetwork(settings, target);
  if (network) config.network = network;
  // A shared store gets a list of what the run made there; the embedded one is gone when the run ends.
  if (!target.embedded && writes && !settings.dryRun) config.trailFile = join(settings.reportsDir, TRAIL_FILE);
  return config;
}
