import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseDotenv } from 'dotenv';
import { UsageError } from '../errors.ts';
import { proxySecrets } from '../http/proxy.ts';
import type { NetworkOptions } from '../http/network-options.ts';
import { resolveNetwork, type NetworkInput } from './network-settings.ts';
import { DEFAULT_RUNS, OPTIONS, VARIABLES } from './options.ts';
import { CappedReadError, readCapped } from './read-capped.ts';
import { baseUrl, categoryIds, integer, list, shard } from './values.ts';

export type TargetEnv = 'production' | 'staging' | 'local';

/** Everything a run is told, after .env, the environment and flags (flags win) are merged. */
export interface Settings {
  command: 'run' | 'compare' | 'merge' | 'help' | 'version';
  compareFiles: string[];
  /** merge: the report.json files to merge. */
  mergeFiles: string[];
  /** --shard i/n: this run is the i-th (1-based) of n shares of one run (src/suite/shard.ts). */
  shard?: { index: number; count: number };
  /** Undefined: start the embedded reference server. */
  baseUrl?: string;
  messagesBaseUrl?: string;
  apiKey?: string;
  /** Where the key came from, as messages name it: `API_KEY`, or the key file setting and its path. */
  keySource: string;
  /** The key is in this process's own environment as API_KEY, where the reports' curl lines read it. */
  keyExported: boolean;
  apiKeyFile?: string;
  env?: 'production' | 'staging';
  allowWrites: boolean;
  allowInsecureHttp: boolean;
  runs: number;
  seed: number;
  now: Date;
  /** Whether --now (or NOW) set the clock: a replay then takes it too. */
  nowGiven: boolean;
  timeoutMs: number;
  maxDurationMs: number;
  maxBodyBytes: number;
  concurrency: number;
  /** Whether --concurrency (or CONCURRENCY) set it; else the run chooses it from the target's round trip. */
  concurrencyGiven: boolean;
  workers: number;
  maxRps: number;
  reportsDir: string;
  failOn: 'must' | 'should';
  /** auto: scenarios side by side against a target 1 ms or more away, one after another nearer. */
  schedule: 'auto' | 'sequential' | 'concurrent';
  /** --replay: regression test files (absolute paths) run instead of the suite. */
  replay: string[];
  /** Random sequences of calls against a model (tests/9-sequences.test.ts). */
  stateful: boolean;
  only: string[];
  skip: string[];
  baseline?: string;
  /**
   * categoryIds the target is known to accept (decimal int64, no duplicates). Empty: the suite
   * learns them from the listing (§2.5 shows no category resource).
   */
  categoryIds: string[];
  dryRun: boolean;
  quiet: boolean;
  /** Proxy, extra CAs and client certificate, gateway headers (their origins are set once the target is known). */
  network: NetworkOptions;
  /** Secrets other than the key: gateway header values, proxy credentials; redacted as the key is. */
  otherSecrets: string[];
  /** Set when --env staging checks BASE_URL for want of STAGING_BASE_URL: the one line that says so. */
  targetNote?: string;
}

type Raw = Record<string, string | boolean | string[] | undefined>;

/** A key file holds one key (a few hundred bytes at most); .env a few settings. */
const MAX_KEY_FILE_BYTES = 4 * 1024;
const MAX_DOTENV_BYTES = 64 * 1024;

function readDotenv(cwd: string): Record<string, string> {
  try {
    return parseDotenv(readCapped(`${cwd}/.env`, MAX_DOTENV_BYTES));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`.env: ${(error as Error).message}`);
  }
}

/** `--runs -5` as `--runs=-5`: parseArgs calls a value that starts with '-' ambiguous; the range check then names the setting. */
function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const option = arg.startsWith('--') ? (OPTIONS as Record<string, { type: string } | undefined>)[arg.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** Merges .env < environment < flags. Throws UsageError (exit 2) naming the setting that is wrong. */
export function resolveSettings(argv: string[], environment: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const parsed = (() => {
    try {
      return parseArgs({ args: joinNegativeValues(argv), options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      const first = ((error as Error).message.split('\n')[0] ?? 'bad arguments').replace(/\. To specify a positional argument.*$/, '');
      // "--env --dry-run": the next flag was taken for a missing value.
      const ambiguous = /^Option '(--[\w-]+)[^']*' argument is ambiguous\.?$/.exec(first);
      const message = ambiguous ? `${ambiguous[1]} needs a value` : first.replace(/\.$/, '');
      const hint = /'--api-key'/.test(message) ? ' (the key comes from API_KEY, .env or --api-key-file)' : '';
      throw new UsageError(`${message}${hint}; see --help`);
    }
  })();
  const fromFile = readDotenv(cwd);
  // An empty value (NAME= in .env, as .env.example ships) counts as unset.
  const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);
  const env = (name: string | undefined) => (name ? (nonEmpty(environment[name]) ?? nonEmpty(fromFile[name])) : undefined);
  const raw: Raw = {};
  // Where each value came from, for the errors: a value from a variable is named by it, not by the flag.
  const origins = new Map<string, string>();
  for (const [flag, option] of Object.entries(OPTIONS)) {
    const value = (parsed.values as Raw)[flag];
    const fallback = 'env' in option ? env(option.env) : undefined;
    if (value === undefined && fallback !== undefined && 'env' in option) {
      origins.set(flag, `${option.env} (${nonEmpty(environment[option.env]) === undefined ? '.env' : 'environment'})`);
    }
    raw[flag] = value ?? (option.type === 'boolean' && fallback !== undefined ? /^(1|true|yes)$/i.test(fallback) : fallback);
  }
  const setting = (flag: keyof typeof OPTIONS) => origins.get(flag) ?? `--${flag}`;
  const whole = (flag: keyof typeof OPTIONS, fallback: number, min: number, max: number) => integer(setting(flag), raw[flag] as string | undefined, fallback, min, max);
  const [command, ...rest] = parsed.positionals;
  if (command !== undefined && command !== 'compare' && command !== 'merge' && command !== 'run') throw new UsageError(`unknown command ${JSON.stringify(command)} (expected run, compare, merge or reference)`);
  if (command === 'compare' && rest.length !== 2) throw new UsageError('compare takes two report.json files: compare OLD.json NEW.json');
  if (command === 'merge' && rest.length === 0) throw new UsageError('merge takes the report.json files of the shards or targets: merge A.json B.json ... [--reports DIR]');
  if (command !== 'compare' && command !== 'merge' && rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);

  // compare and merge read reports: the target settings a CI job sets for its runs do not bind them.
  const checksTarget = command !== 'compare' && command !== 'merge';
  const envName = raw.env as string | undefined;
  if (envName !== undefined && envName !== 'production' && envName !== 'staging') throw new UsageError(`${setting('env')}: expected production or staging, got ${JSON.stringify(envName)}`);
  const allowInsecureHttp = raw['allow-insecure-http'] === true;
  const stagingUrl = baseUrl(setting('staging-base-url'), raw['staging-base-url'] as string | undefined, allowInsecureHttp, false);
  const productionUrl = baseUrl(setting('base-url'), raw['base-url'] as string | undefined, allowInsecureHttp, false);
  if (checksTarget && envName === 'staging' && !stagingUrl && !productionUrl) throw new UsageError(`${setting('env')} is staging: set STAGING_BASE_URL (or --staging-base-url, or BASE_URL)`);
  // Else a CI job whose BASE_URL secret is empty would check the embedded server and pass.
  if (checksTarget && envName === 'production' && !productionUrl) throw new UsageError(`${setting('env')} is production: set BASE_URL (or --base-url)`);
  // Likewise a job that sets only STAGING_BASE_URL and forgets --env: the embedded server would pass.
  if (checksTarget && envName === undefined && !productionUrl && stagingUrl) {
    throw new UsageError(`${setting('staging-base-url')} is set but the environment is not staging: add --env staging (or CONFORMANCE_ENV=staging); without it, and with no BASE_URL, the run would check the embedded reference server`);
  }
  // --env labels the target given: with BASE_URL alone, that is the staging target.
  const target = envName === 'staging' ? (stagingUrl ?? productionUrl) : productionUrl;
  const targetNote = envName === 'staging' && !stagingUrl ? `${setting('base-url')} is checked as staging (${setting('env')}; no STAGING_BASE_URL is set)` : undefined;
  const messagesBaseUrl = baseUrl(setting('messages-base-url'), raw['messages-base-url'] as string | undefined, allowInsecureHttp, true);

  let apiKey = env('API_KEY' satisfies keyof typeof VARIABLES);
  let keySource = 'API_KEY';
  const keyFile = raw['api-key-file'] as string | undefined;
  if (keyFile) {
    keySource = `${setting('api-key-file')} (${keyFile})`;
    let fromFile: string;
    try {
      fromFile = readCapped(keyFile, MAX_KEY_FILE_BYTES).trim();
    } catch (error) {
      if (!(error instanceof CappedReadError)) throw error;
      if (error.code === 'EFBIG') throw new UsageError(`${setting('api-key-file')}: ${keyFile} is ${error.message} (a key file holds one key)`);
      throw new UsageError(`${setting('api-key-file')}: cannot read ${keyFile} (${error.code === 'ETIMEDOUT' ? error.message : (error.code ?? 'error')})`);
    }
    if (!fromFile) throw new UsageError(`${keySource}: the file is empty`);
    if (apiKey && apiKey !== fromFile) throw new UsageError(`API_KEY and ${keySource} give two different keys: keep one`);
    apiKey = fromFile;
  }
  if (apiKey !== undefined && /[\r\n]/.test(apiKey)) throw new UsageError('API_KEY: the key holds a line break');
  // The embedded server makes a key of its own: a key set with no target is a target forgotten (a CI
  // variable unset or misspelt), and the embedded server would pass in its place.
  if (checksTarget && !target && apiKey) {
    throw new UsageError(`${keySource} is set but no target is: set BASE_URL (or --base-url), or STAGING_BASE_URL with --env staging; without one the run would check the embedded reference server, not your deployment (to check the embedded server, run without a key)`);
  }
  // A dry run sends nothing, so the plan needs no key.
  if (checksTarget && target && !apiKey && raw['dry-run'] !== true) throw new UsageError('API_KEY: a target is configured but no key is set (API_KEY, .env or --api-key-file)');

  const nowText = raw.now as string | undefined;
  const now = nowText ? new Date(nowText) : new Date();
  if (Number.isNaN(now.getTime())) throw new UsageError(`${setting('now')}: ${JSON.stringify(nowText)} is not an ISO 8601 date`);
  const schedule = (raw.schedule as string | undefined) ?? 'auto';
  if (schedule !== 'auto' && schedule !== 'sequential' && schedule !== 'concurrent') throw new UsageError(`${setting('schedule')}: expected auto, sequential or concurrent, got ${JSON.stringify(schedule)}`);
  const stateful = (raw.stateful as string | undefined)?.trim() || 'on';
  if (stateful !== 'on' && stateful !== 'off') throw new UsageError(`${setting('stateful')}: expected on or off, got ${JSON.stringify(stateful)}`);
  const failOn = (raw['fail-on'] as string | undefined) ?? 'must';
  if (failOn !== 'must' && failOn !== 'should') throw new UsageError(`${setting('fail-on')}: expected must or should, got ${JSON.stringify(failOn)}`);
  const seedText = raw.seed as string | undefined;
  const sharded = shard(setting('shard'), raw.shard as string | undefined);
  // Shards that each drew a seed of their own would not share one run's work.
  if (checksTarget && sharded && seedText === undefined) throw new UsageError(`${setting('shard')} needs --seed (or SEED): every shard draws its share from the one seed`);
  const seed = seedText === undefined ? Math.floor(Math.random() * 2 ** 31) : whole('seed', 0, 0, 2 ** 31 - 1);

  const given = (flag: keyof typeof OPTIONS) => {
    const value = raw[flag];
    return typeof value === 'string' && value.trim() !== '' ? { value: value.trim(), setting: setting(flag) } : undefined;
  };
  const headerValues = raw.header;
  const networkInput: NetworkInput = {
    variable: env,
    // A flag's value is named by the flag; EXTRA_HEADERS holds one header per line.
    ...(headerValues === undefined ? {} : { headers: { values: Array.isArray(headerValues) ? headerValues : String(headerValues).split(/\r?\n/).filter((line) => line.trim() !== ''), setting: setting('header') } }),
  };
  for (const [key, flag] of [['proxy', 'proxy'], ['caFile', 'ca-file'], ['clientCert', 'client-cert'], ['clientKey', 'client-key']] as const) {
    const value = given(flag);
    if (value) networkInput[key] = value;
  }
  if (environment.NODE_EXTRA_CA_CERTS) networkInput.extraCaCerts = environment.NODE_EXTRA_CA_CERTS;
  const network = resolveNetwork(networkInput);
  const otherSecrets = [...(network.headers ?? []).map((header) => header.value), ...proxySecrets(network.proxy?.http), ...proxySecrets(network.proxy?.https)];

  return {
    command: raw.help ? 'help' : raw.version ? 'version' : command === 'compare' || command === 'merge' ? command : 'run',
    compareFiles: command === 'compare' ? rest : [],
    mergeFiles: command === 'merge' ? rest : [],
    ...(sharded ? { shard: sharded } : {}),
    baseUrl: target,
    messagesBaseUrl,
    apiKey,
    keySource,
    keyExported: apiKey !== undefined && environment.API_KEY === apiKey,
    ...(keyFile ? { apiKeyFile: keyFile } : {}),
    env: envName,
    allowWrites: raw['allow-writes'] === true,
    allowInsecureHttp,
    runs: whole('runs', DEFAULT_RUNS, 1, 100_000),
    seed,
    now,
    nowGiven: nowText !== undefined,
    timeoutMs: whole('timeout', 10_000, 1, 600_000),
    maxDurationMs: whole('max-duration', 600_000, 1_000, 86_400_000),
    maxBodyBytes: whole('max-body', 4 * 1024 * 1024, 1024, 1024 ** 3),
    concurrency: whole('concurrency', 8, 1, 256),
    concurrencyGiven: raw.concurrency !== undefined && raw.concurrency !== '',
    workers: whole('workers', 1, 1, 16),
    maxRps: whole('max-rps', 0, 0, 100_000),
    reportsDir: (raw.reports as string | undefined) ?? 'reports',
    failOn,
    schedule,
    stateful: stateful === 'on',
    replay: replayFiles(setting('replay'), raw.replay),
    only: list(raw.only),
    skip: list(raw.skip),
    baseline: raw.baseline as string | undefined,
    categoryIds: categoryIds(setting('category-ids'), raw['category-ids'] as string | undefined),
    dryRun: raw['dry-run'] === true,
    quiet: raw.quiet === true,
    network,
    otherSecrets: [...new Set(otherSecrets)],
    ...(targetNote ? { targetNote } : {}),
  };
}

/** --replay: each a regression test file that exists, as an absolute path. */
function replayFiles(name: string, value: unknown): string[] {
  const files = value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
  for (const file of files) {
    if (!/\.test\.ts$/.test(file)) throw new UsageError(`${name}: ${JSON.stringify(file)} is not a regression test (reports/regressions/*.test.ts)`);
    if (!existsSync(file)) throw new UsageError(`${name}: no file ${JSON.stringify(file)}`);
  }
  return files.map((file) => resolve(file));
}
