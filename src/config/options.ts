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
  shard: { type: 'string', env: 'SHARD', help: 'i/n: run the i-th of n shares of the run (docs/sharding.md); --runs is per shard; join the reports with merge' },
  seed: { type: 'string', env: 'SEED', help: 'fast-check seed; printed on every run, replays it' },
  now: { type: 'string', env: 'NOW', help: 'The clock dates are judged by, ISO 8601 (default: the current time)' },
  timeout: { type: 'string', env: 'TIMEOUT_MS', help: 'Per-request timeout in ms (default 10000)' },
  'max-duration': { type: 'string', env: 'MAX_DURATION_MS', help: 'Budget for the whole run in ms (default 600000): no request is sent past it' },
  'max-body': { type: 'string', env: 'MAX_BODY_BYTES', help: 'Response bytes read before a body is abandoned (default 4194304)' },
  concurrency: { type: 'string', env: 'CONCURRENCY', help: 'Requests in flight per worker at most (default 8, and against a target 1 ms or more away 1 per ms of its round trip, up to 64 (about 1,000 requests a second whatever the distance): there scenarios run side by side and properties keep this many in flight; nearer, 4)' },
  schedule: { type: 'string', env: 'SCHEDULE', help: 'auto | sequential | concurrent: whether scenarios run side by side (default auto: when the target is 1 ms or more away)' },
  stateful: { type: 'string', env: 'STATEFUL', help: 'on | off: random sequences of calls checked against a model of what the run did (default on; they create animals, so only where writes are allowed)' },
  workers: { type: 'string', env: 'WORKERS', help: 'Test files run side by side (default 1; each more worker costs ~40 MB and helps only against a slow remote target)' },
  'max-rps': { type: 'string', env: 'MAX_RPS', help: 'Requests per second across the run (default: unlimited)' },
  reports: { type: 'string', env: 'REPORTS_DIR', help: 'Folder for junit.xml, report.json, report.html, summary.md (default reports)' },
  'fail-on': { type: 'string', env: 'FAIL_ON', help: 'must | should: which level fails the run (default must)' },
  only: { type: 'string', multiple: true, help: 'Run only these sections, operations or clause ids (repeatable, or comma-separated)' },
  skip: { type: 'string', multiple: true, help: 'Skip these sections, operations or clause ids' },
  'category-ids': { type: 'string', env: 'CATEGORY_IDS', help: 'categoryIds the target is known to accept, comma-separated (e.g. 1,2,5); unset: those of the animals it lists' },
  replay: { type: 'string', multiple: true, help: 'Run these regression tests (reports/regressions/*.test.ts, written for a failing sequence of calls) instead of the suite' },
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
