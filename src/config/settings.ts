import { parseArgs } from 'node:util';
import { parse as parseDotenv } from 'dotenv';
import { UsageError } from '../errors.ts';
import { proxySecrets, type NetworkOptions } from '../http/network.ts';
import { CappedReadError, readCapped } from './read-capped.ts';
import { INT64_MAX, INT64_MIN } from '../json/lossless.ts';
import { resolveNetwork, type NetworkInput } from './network.ts';

export type TargetEnv = 'production' | 'staging' | 'local';

/** Everything a run is told, after .env, the environment and flags (flags win) are merged. */
export interface Settings {
  command: 'run' | 'compare' | 'help' | 'version';
  compareFiles: string[];
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
  /** auto: scenarios side by side against a target 5 ms or more away, one after another nearer. */
  schedule: 'auto' | 'sequential' | 'concurrent';
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

export const DEFAULT_RUNS = 25;

/** Each setting once: its flag, its environment variable, and what it means (also the --help text). */
export const OPTIONS = {
  'base-url': { type: 'string', env: 'BASE_URL', help: 'Production base URL, without /v1 (none: the embedded reference server)' },
  'staging-base-url': { type: 'string', env: 'STAGING_BASE_URL', help: 'Staging base URL, without /v1; used with --env staging (unset: --env staging checks BASE_URL)' },
  'messages-base-url': { type: 'string', env: 'MESSAGES_BASE_URL', help: 'Base URL of the message operation (POST /messages)' },
  'api-key-file': { type: 'string', env: 'API_KEY_FILE', help: 'Read the API key from this file (else API_KEY from the environment or .env)' },
  env: { type: 'string', env: 'CONFORMANCE_ENV', help: 'production | staging (default: a loopback target runs everything, any other is production)' },
  'allow-writes': { type: 'boolean', env: 'ALLOW_WRITES', help: 'Let checks that create pets or send messages run against production' },
  'allow-insecure-http': { type: 'boolean', env: 'ALLOW_INSECURE_HTTP', help: 'Allow sending the key over plain http:// to a host that is not loopback' },
  proxy: { type: 'string', help: 'Proxy for both hosts, e.g. http://user:pass@proxy:3128 (default: HTTPS_PROXY, HTTP_PROXY; NO_PROXY still applies)' },
  header: { type: 'string', multiple: true, env: 'EXTRA_HEADERS', help: "Gateway header 'Name: value' sent to both hosts (repeatable; EXTRA_HEADERS: one per line); a secret like the key" },
  'ca-file': { type: 'string', env: 'CA_FILE', help: 'PEM file of CA certificates trusted on top of the usual roots (a private CA)' },
  'client-cert': { type: 'string', env: 'CLIENT_CERT', help: 'PEM client certificate for mutual TLS (with --client-key)' },
  'client-key': { type: 'string', env: 'CLIENT_KEY', help: 'PEM private key of --client-cert (unencrypted)' },
  runs: { type: 'string', env: 'RUNS', help: `fast-check runs per property (default ${DEFAULT_RUNS})` },
  seed: { type: 'string', env: 'SEED', help: 'fast-check seed; printed on every run, replays it' },
  now: { type: 'string', env: 'NOW', help: 'The clock dates are judged by, ISO 8601 (default: the current time)' },
  timeout: { type: 'string', env: 'TIMEOUT_MS', help: 'Per-request timeout in ms (default 10000)' },
  'max-duration': { type: 'string', env: 'MAX_DURATION_MS', help: 'Budget for the whole run in ms (default 600000)' },
  'max-body': { type: 'string', env: 'MAX_BODY_BYTES', help: 'Response bytes read before a body is abandoned (default 4194304)' },
  concurrency: { type: 'string', env: 'CONCURRENCY', help: 'Requests in flight per worker at most (default 8, and against a target 5 ms or more away 0.4 per ms of its round trip, up to 32: there scenarios run side by side and properties keep this many in flight; nearer, 2)' },
  schedule: { type: 'string', env: 'SCHEDULE', help: 'auto | sequential | concurrent: whether scenarios run side by side (default auto: when the target is 5 ms or more away)' },
  workers: { type: 'string', env: 'WORKERS', help: 'Test files run side by side (default 1; each more worker costs ~40 MB and helps only against a slow remote target)' },
  'max-rps': { type: 'string', env: 'MAX_RPS', help: 'Requests per second across the run (default: unlimited)' },
  reports: { type: 'string', env: 'REPORTS_DIR', help: 'Folder for junit.xml, report.json, report.html, summary.md (default reports)' },
  'fail-on': { type: 'string', env: 'FAIL_ON', help: 'must | should: which level fails the run (default must)' },
  only: { type: 'string', multiple: true, help: 'Run only these sections, operations or clause ids (repeatable, or comma-separated)' },
  skip: { type: 'string', multiple: true, help: 'Skip these sections, operations or clause ids' },
  'category-ids': { type: 'string', env: 'CATEGORY_IDS', help: 'categoryIds the target is known to accept, comma-separated (e.g. 1,2,5); unset: those of the animals it lists' },
  baseline: { type: 'string', env: 'BASELINE', help: 'A file of known failures; only new ones fail the run' },
  'dry-run': { type: 'boolean', help: 'Print the plan and send nothing' },
  quiet: { type: 'boolean', help: 'Print the summary only' },
  help: { type: 'boolean', short: 'h', help: 'Show this help' },
  version: { type: 'boolean', help: 'Print the version' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; env?: string; help: string; multiple?: boolean; short?: string }>;

/** Settings with no flag, read from the environment or .env only (also the --help text). */
export const VARIABLES = {
  API_KEY: 'The API key, sent as "Authorization: Bearer <API_KEY>"; no flag, so it stays out of shell history (or --api-key-file)',
  HTTPS_PROXY: 'Proxy for https:// targets (https_proxy too; unset: HTTP_PROXY); --proxy wins',
  HTTP_PROXY: 'Proxy for http:// targets (http_proxy too)',
  NO_PROXY: 'Hosts reached without the proxy: names, .domains, host:port, CIDR ranges, or * (no_proxy too)',
} as const;

type Raw = Record<string, string | boolean | string[] | undefined>;

/** `setting` names where a value came from, as errors show it: `--runs`, `RUNS (environment)`, `RUNS (.env)`. */
function integer(setting: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${setting}: expected a whole number, got ${JSON.stringify(text)}`);
  const value = Number(text);
  if (value < min || value > max) throw new UsageError(`${setting}: expected ${min} to ${max}, got ${value}`);
  return value;
}


/** --category-ids: int64 decimals separated by commas, each once; empty means unset. */
function categoryIds(setting: string, text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return [];
  const ids = new Set<string>();
  for (const item of text.split(',').map((part) => part.trim())) {
    if (!/^-?\d+$/.test(item)) throw new UsageError(`${setting}: expected integers separated by commas (e.g. 1,2,5), got ${JSON.stringify(text)}`);
    const id = BigInt(item);
    if (id < INT64_MIN || id > INT64_MAX) throw new UsageError(`${setting}: ${item} is not an int64 (§2.2)`);
    ids.add(id.toString());
  }
  return [...ids];
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export function isLoopbackUrl(url: string): boolean {
  return isLoopback(new URL(url).hostname);
}

function baseUrl(setting: string, text: string | undefined, allowInsecure: boolean, forMessages: boolean): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`${setting}: ${JSON.stringify(text)} is not a URL (expected e.g. https://api.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${setting}: only http:// and https:// URLs are supported, got ${url.protocol}`);
  if (url.search || url.hash) throw new UsageError(`${setting}: a base URL takes no query or fragment`);
  if (url.username || url.password) throw new UsageError(`${setting}: put no credentials in the URL; use API_KEY`);
  const path = url.pathname.replace(/\/+$/, '');
  if (!forMessages && /\/v1$/i.test(path)) throw new UsageError(`${setting}: leave /v1 off the base URL (the suite adds it): use ${url.origin}${path.slice(0, -3)}`);
  if (forMessages && /\/messages$/i.test(path)) throw new UsageError(`${setting}: leave /messages off (the suite adds it)`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecure) {
    throw new UsageError(`${setting}: refusing to send the API key over plain http:// to ${url.hostname}; use https:// or --allow-insecure-http`);
  }
  return `${url.origin}${path}`;
}

function list(value: string | boolean | string[] | undefined): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return items.flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean);
}

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
  if (command !== undefined && command !== 'compare' && command !== 'run') throw new UsageError(`unknown command ${JSON.stringify(command)} (expected run, compare or reference)`);
  if (command === 'compare' && rest.length !== 2) throw new UsageError('compare takes two report.json files: compare OLD.json NEW.json');
  if (command !== 'compare' && rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);

  const envName = raw.env as string | undefined;
  if (envName !== undefined && envName !== 'production' && envName !== 'staging') throw new UsageError(`${setting('env')}: expected production or staging, got ${JSON.stringify(envName)}`);
  const allowInsecureHttp = raw['allow-insecure-http'] === true;
  const stagingUrl = baseUrl(setting('staging-base-url'), raw['staging-base-url'] as string | undefined, allowInsecureHttp, false);
  const productionUrl = baseUrl(setting('base-url'), raw['base-url'] as string | undefined, allowInsecureHttp, false);
  if (envName === 'staging' && !stagingUrl && !productionUrl) throw new UsageError(`${setting('env')} is staging: set STAGING_BASE_URL (or --staging-base-url, or BASE_URL)`);
  // Else a CI job whose BASE_URL secret is empty would check the embedded server and pass.
  if (envName === 'production' && !productionUrl) throw new UsageError(`${setting('env')} is production: set BASE_URL (or --base-url)`);
  // Likewise a job that sets only STAGING_BASE_URL and forgets --env: the embedded server would pass.
  if (envName === undefined && !productionUrl && stagingUrl) {
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
  if (target && !apiKey) throw new UsageError('API_KEY: a target is configured but no key is set (API_KEY, .env or --api-key-file)');

  const nowText = raw.now as string | undefined;
  const now = nowText ? new Date(nowText) : new Date();
  if (Number.isNaN(now.getTime())) throw new UsageError(`${setting('now')}: ${JSON.stringify(nowText)} is not an ISO 8601 date`);
  const schedule = (raw.schedule as string | undefined) ?? 'auto';
  if (schedule !== 'auto' && schedule !== 'sequential' && schedule !== 'concurrent') throw new UsageError(`${setting('schedule')}: expected auto, sequential or concurrent, got ${JSON.stringify(schedule)}`);
  const failOn = (raw['fail-on'] as string | undefined) ?? 'must';
  if (failOn !== 'must' && failOn !== 'should') throw new UsageError(`${setting('fail-on')}: expected must or should, got ${JSON.stringify(failOn)}`);
  const seedText = raw.seed as string | undefined;
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
    command: raw.help ? 'help' : raw.version ? 'version' : command === 'compare' ? 'compare' : 'run',
    compareFiles: command === 'compare' ? rest : [],
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
    concurrencyGiven: setting('concurrency') !== undefined,
    workers: whole('workers', 1, 1, 16),
    maxRps: whole('max-rps', 0, 0, 100_000),
    reportsDir: (raw.reports as string | undefined) ?? 'reports',
    failOn,
    schedule,
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
