import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { PACKAGE_VERSION } from './paths.ts';
import { compareSections, loadClauses, type Clause } from './contract/clauses.ts';
import type { Contract } from './contract/model.ts';
import { CappedReadError, readCapped } from './config/read-capped.ts';
import { OPTIONS, VARIABLES, isLoopbackUrl, resolveSettings, type Settings, type TargetEnv } from './config/settings.ts';
import { TargetUnreachableError, UsageError, exitCodeOf } from './errors.ts';
import { HttpClient, DEFAULT_CLIENT_OPTIONS } from './http/client.ts';
import { shellQuote } from './http/curl.ts';
import { header, jsonObject, type Exchange } from './http/exchange.ts';
import { proxyFor, shownProxy, type NetworkOptions } from './http/network.ts';
import { tlsFailure } from './http/tls-probe.ts';
import { applyBaseline, loadBaseline, markKnown, renderBaselineResult } from './report/baseline.ts';
import { likelyCauses } from './report/causes.ts';
import { compareReports, renderComparison } from './report/compare.ts';
import { uncheckedMustText } from './report/format.ts';
import { isFailing } from './report/grouping.ts';
import { TRAIL_FILE, writeCreated } from './report/created.ts';
import { renderTerminal, writeReports } from './report/index.ts';
import { type BlockedBy, type Outcome, type RunReport } from './report/model.ts';
import { PROBE_CATEGORY_IDS } from './suite/categories.ts';
import { collect } from './run/collect.ts';
import { enumValues, operationsLeftOut } from './run/coverage.ts';
import { PIPELINE_DEPTH, pipelineDepth, type SuiteConfig } from './suite/config.ts';
import type { ScenarioPlan } from './suite/scenario.ts';
import { isSelected, unknownSelectors } from './suite/selection.ts';
import { keyForms, redactText, secretForms, SHORT_SECRET_LENGTH } from './secrets.ts';


export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  isTty: boolean;
}

/** A report.json of a long run with many failures is a few MB. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTty: Boolean(process.stdout.isTTY) && !process.env.CI,
};

function helpText(): string {
  const lines = [
    'Usage: animal-store-conformance [run] [options]',
    '       animal-store-conformance compare OLD.json NEW.json',
    '       animal-store-conformance reference [--port N] [--deviation ID] ...   (the reference server; reference --help)',
    '',
    'Checks a deployment of the Animal Store Service against its specification.',
    'With no base URL configured, it starts the embedded reference server and checks that.',
    '',
    'Options (flags win over the environment, which wins over .env):',
  ];
  const row = (left: string, help: string) => lines.push(left.length < 50 ? left.padEnd(50) + help : `${left}\n${' '.repeat(50)}${help}`);
  for (const [flag, option] of Object.entries(OPTIONS)) {
    row(`  --${flag}${option.type === 'string' ? ' VALUE' : ''}${'env' in option ? ` [${option.env}]` : ''}`, option.help);
  }
  lines.push('', 'Set in the environment or .env only:');
  for (const [name, help] of Object.entries(VARIABLES)) row(`  ${name}`, help);
  lines.push(
    '',
    'Exit codes:',
    '  0  conformant',
    '  1  a clause failed (MUST; SHOULD too with --fail-on should; with --baseline, only new failures)',
    '  2  bad usage: one line naming the setting',
    '  3  the target is unreachable (one line, before any test runs), or a MUST clause went unjudged through',
    "     the target's doing: it got only 429 answers, no categoryId it accepts was known and it refused every",
    '     one tried (name some with --category-ids), or --max-duration ran out before the clause ran; one line',
    '     on stderr says which (blockedBy in report.json)',
    '  4  the engine itself broke',
    '',
  );
  return lines.join('\n');
}

/**
 * One request before the suite starts, so an unreachable target is one line, not a wall of failures;
 * then two more on the same connection, for the target's round trip (undefined: no answer).
 */
async function preflight(config: SuiteConfig, keySource: string): Promise<{ roundTripMs?: number }> {
  const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, timeoutMs: config.timeoutMs, concurrency: 1, retries429: 0, ...(config.network ? { network: config.network } : {}) });
  const listOne = () =>
    client.send({
      method: 'GET',
      url: `${config.baseUrl}/v1/pets?limit=1`,
      headers: { Accept: 'application/json' },
      authorization: { value: `Bearer ${config.apiKey}`, shown: 'Bearer $API_KEY' },
    });
  try {
    const exchange = await listOne();
    const failure = exchange.failure;
    if (failure?.kind === 'headers-too-large') {
      throw new TargetUnreachableError(`${config.baseUrl}/v1/pets answered, but ${failure.message}, more than the suite reads`);
    }
    if (failure) throw new TargetUnreachableError(await unreachableLine(exchange, config));
    const status = exchange.response?.status;
    if (status === 401 || status === 403) {
      const body = jsonObject(exchange);
      const serviceError = typeof body?.code === 'string' && typeof body.message === 'string';
      const gateway = serviceError
        ? ''
        : ` with no Error body (${header(exchange, 'content-type') ?? 'no Content-Type'}): a gateway, WAF or proxy in front of the service may have refused the request, not the service the key;`;
      throw new UsageError(`${keySource}: ${config.baseUrl}/v1/pets answered ${status} to the configured key${gateway || ';'} check the key (a server that refuses valid keys fails auth.valid-key-accepted)`);
    }
    if (config.messagesBaseUrl) {
      const messages = await client.send({ method: 'GET', url: `${config.messagesBaseUrl}/messages`, headers: { Accept: 'application/json' } });
      if (messages.failure) throw new TargetUnreachableError(await unreachableLine(messages, config));
    }
    if (status === 404) {
      const probe = await client.send({ method: 'GET', url: `${config.baseUrl}/pets?limit=1`, authorization: { value: `Bearer ${config.apiKey}`, shown: '' } });
      if (probe.response && probe.response.status !== 404) {
        throw new UsageError(`BASE_URL: ${config.baseUrl}/v1/pets is 404 but ${config.baseUrl}/pets answers: does the base URL already hold the version prefix?`);
      }
    }
    if (!exchange.response) return {};
    // The first paid for the connection (and TLS); the fastest of it and two more is the round trip a property waits for.
    let roundTripMs = exchange.durationMs;
    for (let i = 0; i < 2; i++) {
      const again = await listOne();
      if (!again.response) return {};
      roundTripMs = Math.min(roundTripMs, again.durationMs);
    }
    return { roundTripMs };
  } finally {
    await client.close();
  }
}

/** What a TLS failure most likely means, and what to give the suite. */
function tlsHint(message: string, network: NetworkOptions | undefined): string {
  if (/CERT_HAS_EXPIRED|expired/i.test(message)) return 'its certificate has expired';
  if (/ALTNAME|does not match|not in the cert's/i.test(message)) return 'its certificate is not for this host name';
  if (/self[- ]signed|UNABLE_TO_|unable to (get|verify)|issuer/i.test(message)) {
    return `its certificate is not signed by a CA the suite trusts${network?.tls?.ca ? ' (nor by --ca-file)' : ': give that CA with --ca-file PATH (PEM)'}`;
  }
  if (/CERTIFICATE_REQUIRED|certificate required|handshake failure|BAD_CERTIFICATE|UNKNOWN_CA|unknown ca|bad certificate/i.test(message)) {
    return network?.tls?.cert ? 'it refused the client certificate' : 'it asks for a client certificate: give --client-cert and --client-key';
  }
  return 'the TLS handshake failed';
}

/**
 * The one line for a preflight request that got no answer: the URL (or, for TLS, the host) and the
 * reason, naming the proxy when one was in the way. A reset, or bytes that are not HTTP (a wrong
 * port, a non-HTTP service), is no answer to judge either.
 */
async function unreachableLine(exchange: Exchange, config: SuiteConfig): Promise<string> {
  const url = new URL(exchange.request.url);
  let failure = exchange.failure!;
  if (failure.kind === 'reset' || failure.kind === 'other') {
    // A TLS server that refuses the client (certificate) may just close the connection: ask it why.
    const reason = await tlsFailure(url, config.network, config.timeoutMs);
    if (reason) failure = { kind: 'tls', message: reason };
  }
  const proxy = proxyFor(url, config.network?.proxy);
  const via = proxy ? `; through the proxy ${shownProxy(proxy)}` : '';
  const shown = `${url.origin}${url.pathname}`;
  const proxyStatus = /Proxy.*\((\d{3})\)/.exec(failure.message)?.[1];
  if (proxy && proxyStatus) {
    const why = proxyStatus === '407' ? ': check the credentials in the proxy URL' : '';
    return `cannot reach ${shown}: the proxy ${shownProxy(proxy)} refused it with ${proxyStatus}${why}`;
  }
  if (failure.kind === 'tls') return `${url.host}: TLS failed, ${tlsHint(failure.message, config.network)}; ${failure.message}${via}`;
  const reasons: Partial<Record<string, string>> = {
    refused: proxy ? 'connection refused (by the proxy)' : 'connection refused',
    dns: 'host name not found',
    timeout: `no answer within ${config.timeoutMs} ms`,
  };
  return `cannot reach ${shown}: ${reasons[failure.kind] ?? 'no HTTP answer'} (${failure.message})${via}`;
}

interface Target {
  baseUrl: string;
  messagesBaseUrl?: string;
  apiKey: string;
  env: TargetEnv;
  embedded: boolean;
  close(): Promise<void>;
}

async function resolveTarget(settings: Settings): Promise<Target> {
  if (!settings.baseUrl) {
    const apiKey = `embedded-${randomBytes(12).toString('hex')}`;
    const { startReference } = await import('../reference/server.ts');
    const reference = await startReference({ apiKey });
    return { baseUrl: reference.baseUrl, messagesBaseUrl: reference.messagesBaseUrl, apiKey, env: 'local', embedded: true, close: () => reference.close() };
  }
  const env: TargetEnv = settings.env ?? (isLoopbackUrl(settings.baseUrl) ? 'local' : 'production');
  const target: Target = { baseUrl: settings.baseUrl, apiKey: settings.apiKey ?? '', env, embedded: false, close: async () => {} };
  if (settings.messagesBaseUrl) target.messagesBaseUrl = settings.messagesBaseUrl;
  return target;
}

/** What runs this run again, with the target and the key taken from the same settings. */
function replayOf(settings: Settings): string {
  const args = ['--seed', String(settings.seed), '--runs', String(settings.runs)];
  if (settings.env) args.push('--env', settings.env);
  if (settings.nowGiven) args.push('--now', settings.now.toISOString());
  if (settings.only.length) args.push('--only', settings.only.join(','));
  if (settings.skip.length) args.push('--skip', settings.skip.join(','));
  if (settings.categoryIds.length) args.push('--category-ids', settings.categoryIds.join(','));
  if (settings.failOn !== 'must') args.push('--fail-on', settings.failOn);
  return ['npx animal-store-conformance', ...args.map((arg) => (/^[\w.,:+-]+$/.test(arg) ? arg : shellQuote(arg)))].join(' ');
}

/** The network settings for this target: none for the embedded server; gateway headers go to the configured hosts only. */
function targetNetwork(settings: Settings, target: Target): NetworkOptions | undefined {
  if (target.embedded) return undefined;
  const network: NetworkOptions = { ...settings.network };
  if (network.headers) network.headerOrigins = [...new Set([target.baseUrl, target.messagesBaseUrl].filter((url) => url !== undefined).map((url) => new URL(url).origin))];
  return network;
}

function suiteConfig(settings: Settings, target: Target, started: number, contract: Contract, clauses: Clause[]): SuiteConfig {
  const writes = target.env !== 'production' || settings.allowWrites;
  const config: SuiteConfig = {
    contract,
    clauses,
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    targetEnv: target.env,
    writes,
    seed: settings.seed,
    runs: settings.runs,
    now: settings.now.toISOString(),
    nowGiven: settings.nowGiven,
    timeoutMs: settings.timeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    concurrency: settings.concurrency,
    pipelineDepth: pipelineDepth(undefined, settings.concurrency),
    maxRps: settings.maxRps > 0 ? Math.max(1, Math.floor(settings.maxRps / settings.workers)) : 0,
    only: settings.only,
    skip: settings.skip,
    categoryIds: settings.categoryIds,
    deadline: started + settings.maxDurationMs,
  };
  if (!writes) config.writesReason = 'writes are off against production (give --allow-writes, or --env staging)';
  if (target.messagesBaseUrl) config.messagesBaseUrl = target.messagesBaseUrl;
  const network = targetNetwork(settings, target);
  if (network) config.network = network;
  // A shared store gets a list of what the run made there; the embedded one is gone when the run ends.
  if (!target.embedded && writes && !settings.dryRun) config.trailFile = join(settings.reportsDir, TRAIL_FILE);
  return config;
}

/** Per clause: whether some scenario would judge it, else why every scenario that would is skipped. */
function plannedClauses(plans: ScenarioPlan[]): Map<string, { runs: boolean; reasons: Set<string> }> {
  const byClause = new Map<string, { runs: boolean; reasons: Set<string> }>();
  for (const plan of plans) {
    for (const { clause, skipReason } of plan.checks) {
      const entry = byClause.get(clause) ?? { runs: false, reasons: new Set<string>() };
      if (skipReason === undefined) entry.runs = true;
      else entry.reasons.add(skipReason);
      byClause.set(clause, entry);
    }
  }
  return byClause;
}

function plan(settings: Settings, target: Target, writes: boolean, io: Io, clauses: Clause[], plans: ScenarioPlan[]): void {
  io.out(`Dry run: nothing is sent.\n  target   ${target.baseUrl}/v1  [${target.env}${target.embedded ? ', the embedded reference server' : ''}]\n`);
  io.out(`  messages ${target.messagesBaseUrl ?? '(not configured: message checks skipped)'}\n`);
  const network = targetNetwork(settings, target);
  const proxy = network?.proxy ? proxyFor(new URL(target.baseUrl), network.proxy) : undefined;
  const reach = [
    proxy ? `proxy ${shownProxy(proxy)}` : '',
    network?.headers ? `headers ${network.headers.map((h) => h.name).join(', ')}` : '',
    network?.tls?.ca ? 'extra CA (--ca-file)' : '',
    network?.tls?.cert ? 'client certificate' : '',
  ].filter(Boolean);
  if (reach.length) io.out(`  network  ${reach.join(' · ')}\n`);
  io.out(`  runs     ${settings.runs} per property, seed ${settings.seed}\n`);
  // Measured against the reference server with its message host: about 345 requests of set-up and fixed probes, 22 per run (each distinct invalid case sent once).
  const fewer = [target.messagesBaseUrl ? '' : 'the message checks', writes ? '' : 'the writes'].filter(Boolean).join(' and ');
  io.out(`  requests roughly ${345 + 22 * settings.runs}${fewer ? `, less ${fewer}` : ''}, at most ${settings.concurrency} in flight per worker × ${settings.workers} workers\n`);
  if (writes) {
    io.out('  writes   POST /v1/pets: valid NewPets (§4.2, §4.3), invalid ones (§4.2, §5, §7), up to 105 set-up pets so listings can be paged (§4.1, §8)\n');
    io.out(`           POST /messages: valid and invalid messages (§4.5, §5)${target.messagesBaseUrl ? '' : ', skipped: no MESSAGES_BASE_URL'}\n`);
    const categories = settings.categoryIds.length
      ? `${settings.categoryIds.join(', ')} (--category-ids)`
      : `those of the animals the listing shows; with none, the first of ${PROBE_CATEGORY_IDS.join(', ')} taken`;
    io.out(`           a NewPet that must get 201 carries a categoryId the target is known to accept: ${categories}\n`);
    if (!target.embedded) io.out(`           every animal and message created is listed, for clean-up, in ${join(settings.reportsDir, 'created.json')}\n`);
  } else {
    io.out('  writes   none: every POST is skipped (production without --allow-writes)\n');
  }
  const planned = plannedClauses(plans);
  const reasons: string[] = [];
  const lines: string[] = [];
  let anyRuns = false;
  for (const clause of clauses.sort((a, b) => compareSections(a.section, b.section))) {
    const entry = planned.get(clause.id);
    let mark = '-';
    let why = '';
    if (isSelected(clause, settings.only, settings.skip)) {
      mark = entry?.runs ? '•' : '○';
      anyRuns ||= entry?.runs === true;
      if (!entry?.runs) {
        const keys = [...(entry?.reasons ?? ['no scenario judges it with these settings'])].map((reason) => {
          if (!reasons.includes(reason)) reasons.push(reason);
          return `[${reasons.indexOf(reason) + 1}]`;
        });
        why = `  skipped ${keys.join(' ')}`;
      }
    }
    lines.push(`  ${mark} §${clause.section.padEnd(4)} ${clause.level.padEnd(7)} ${clause.id}  ${clause.title}${why}\n`);
  }
  io.out('\nClauses (• runs, ○ skipped, - deselected):\n');
  for (const line of lines) io.out(line);
  if (reasons.length > 0) io.out(`\n${reasons.map((reason, i) => `  [${i + 1}] ${reason}\n`).join('')}`);
  if (!anyRuns) io.out('\nNothing would run with these settings: every selected clause is skipped or deselected.\n');
}

/**
 * Creates the reports folder and writes a file into it before anything is sent, so a folder that
 * cannot take the reports is one line (exit 2), not a crash after the whole run. Made one level at
 * a time: mkdir's recursive mode never returns for a path under /proc.
 */
async function prepareReportsDir(dir: string): Promise<void> {
  const missing: string[] = [];
  try {
    for (let at = resolve(dir); ; at = dirname(at)) {
      const found = await stat(at).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (found) {
        if (!found.isDirectory()) throw Object.assign(new Error(`${at} is not a folder`), { code: 'ENOTDIR' });
        break;
      }
      missing.unshift(at);
      if (dirname(at) === at) break;
    }
    for (const folder of missing) await mkdir(folder);
    const probe = join(dir, `.write-test-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe);
  } catch (error) {
    throw new UsageError(`--reports: cannot write the reports to ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

async function run(settings: Settings, io: Io): Promise<number> {
  const started = Date.now();
  const catalogue = loadClauses();
  const unknown = unknownSelectors([...settings.only, ...settings.skip], catalogue);
  if (unknown.length) throw new UsageError(`--only/--skip: ${unknown.map((t) => JSON.stringify(t)).join(', ')} names no section, operation or clause (see --dry-run for the list)`);
  const baseline = settings.baseline
    ? await loadBaseline(settings.baseline).catch((error: Error) => {
        throw new UsageError(`--baseline: ${error.message}`);
      })
    : undefined;
  // A dry run writes no reports.
  if (!settings.dryRun) await prepareReportsDir(settings.reportsDir);
  const target = await resolveTarget(settings);
  const secrets = target.embedded ? [] : [...keyForms(target.apiKey), ...settings.otherSecrets.flatMap(secretForms)];
  const say = (text: string) => io.out(redactText(text, secrets));
  if (settings.targetNote && !target.embedded) say(`animal-store-conformance: ${settings.targetNote}\n`);
  if (!target.embedded && target.apiKey.length < SHORT_SECRET_LENGTH) {
    io.err(`animal-store-conformance: note: the API key has fewer than ${SHORT_SECRET_LENGTH} characters, so outputs replace it only where it stands as a whole token\n`);
  }
  try {
    const [{ loadContract }, { runSuite }] = await Promise.all([import('./contract/load.ts'), import('./run/vitest.ts')]);
    const contract = await loadContract();
    const config = suiteConfig(settings, target, started, contract, catalogue);
    if (settings.dryRun) {
      // Every scenario is visited in plan mode: it works out whether it would be skipped and sends nothing.
      const suite = await runSuite({ ...config, plan: true }, { maxWorkers: 1 });
      const errors = [...suite.fileErrors, ...suite.scenarios.flatMap((s) => s.engineError ?? s.meta?.engineError ?? [])];
      if (suite.timedOut) errors.push('the visit overran --max-duration');
      if (suite.scenarios.length === 0) errors.push('no scenario was found in tests/');
      if (errors.length > 0) throw new Error(`the dry run could not visit every scenario: ${errors.join('; ')}`);
      plan(settings, target, config.writes, io, catalogue, suite.scenarios.flatMap((s) => s.meta?.plan ?? []));
      return 0;
    }
    const { roundTripMs } = await preflight(config, settings.keySource);
    config.pipelineDepth = pipelineDepth(roundTripMs, config.concurrency);
    const proxy = proxyFor(new URL(target.baseUrl), config.network?.proxy);
    say(`animal-store-conformance: ${target.embedded ? 'embedded reference server' : target.baseUrl} [${target.env}] · seed ${settings.seed} · runs ${settings.runs}${proxy ? ` · via ${shownProxy(proxy)}` : ''}\n`);
    if (config.trailFile) await rm(config.trailFile, { force: true });
    const suite = await runSuite(config, {
      maxWorkers: settings.workers,
      onProgress: ({ title, state, done }) => {
        if (settings.quiet) return;
        if (io.isTty) io.out(`\r\x1b[2K[${done}] ${title.slice(0, 100)}`);
        else if (state !== 'skipped') say(`${state === 'failed' ? 'FAIL' : 'ok  '} ${title}\n`);
      },
    });
    if (io.isTty && !settings.quiet) io.out('\r\x1b[2K');
    const collected = collect(catalogue, suite.scenarios, {
      isSelected: (clause) => isSelected(clause, settings.only, settings.skip),
      leftOut: operationsLeftOut(config),
      enumValues: (name) => enumValues(contract, name),
    });
    const engineErrors = [...suite.fileErrors, ...collected.engineErrors];
    if (suite.timedOut) engineErrors.push('the run overran --max-duration and was cancelled');
    const failing = collected.summary.fail + (settings.failOn === 'should' ? collected.summary.warn : 0);
    const report: RunReport = {
      tool: { name: 'animal-store-conformance', version: PACKAGE_VERSION },
      spec: { title: contract.title, version: contract.version },
      target: { baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl ?? '', env: target.env, embedded: target.embedded },
      seed: settings.seed,
      runs: settings.runs,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      now: settings.now.toISOString(),
      nowGiven: settings.nowGiven,
      failOn: settings.failOn,
      replay: replayOf(settings),
      pipeline: { depth: config.pipelineDepth, ...(roundTripMs === undefined ? {} : { roundTripMs: Math.round(roundTripMs * 10) / 10 }) },
      summary: collected.summary,
      clauses: collected.clauses,
      capabilities: collected.capabilities,
      engineErrors,
      verdict: failing > 0 ? 'fail' : 'pass',
      exitCode: 0,
    };
    const causes = likelyCauses(report.clauses);
    if (causes.length) report.causes = causes;
    let gateFailures = failing;
    if (baseline) {
      const result = applyBaseline(report, baseline, settings.now);
      markKnown(report, result);
      gateFailures = result.newFailures.length + (settings.failOn === 'should' ? collected.summary.warn : 0);
      say(`${renderBaselineResult(result)}\n`);
    }
    // A gate must not pass a target it could not judge for a cause on the target's side.
    const blocked = (cause: BlockedBy) =>
      report.clauses.filter(
        (c) => c.level === 'MUST' && ((c.outcome === 'skip' && c.checks.some((k) => k.blockedBy === cause)) || (c.outcome === 'partial' && c.shortfalls?.some((s) => s.blockedBy === cause))),
      ).length;
    const rateLimited = blocked('rate-limit');
    const unknownCategory = blocked('unknown-category');
    const outOfTime = blocked('budget');
    const noAnswer = blocked('no-answer');
    const unvouched = rateLimited || unknownCategory || outOfTime || noAnswer;
    report.exitCode = engineErrors.length ? 4 : gateFailures > 0 ? 1 : unvouched ? 3 : 0;
    report.verdict = gateFailures > 0 || unvouched ? 'fail' : 'pass';
    const written: Record<string, string> = { ...(await writeReports(report, settings.reportsDir, { secrets })) };
    const created = config.trailFile
      ? await writeCreated(settings.reportsDir, { target: { baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl ?? '', env: target.env }, seed: settings.seed, startedAt: report.startedAt }, secrets)
      : undefined;
    if (created) {
      written.created = created.path;
      await appendFile(written.summary!, `\n${createdText(created)}\n`);
    }
    const terminal = renderTerminal(report, { color: io.isTty, secrets, usualPipelineDepth: PIPELINE_DEPTH });
    if (settings.quiet) {
      const gating = (outcome: Outcome) => isFailing(outcome) || (outcome === 'warn' && settings.failOn === 'should');
      const failing = report.clauses.filter((c) => gating(c.outcome)).map((c) => `§${c.section} ${c.id}${c.known ? ' (known)' : ''}`);
      if (failing.length) say(`Failing: ${failing.join(', ')}\n`);
    }
    say(`${settings.quiet && terminal.includes('Verdict') ? terminal.slice(terminal.indexOf('Verdict')) : terminal}\n`);
    if (!target.embedded && !settings.keyExported && (report.summary.fail > 0 || report.summary.warn > 0)) {
      const file = settings.apiKeyFile;
      const from = file ? `the key came from ${settings.keySource}` : 'API_KEY came from .env';
      const how = file ? `export API_KEY="$(cat ${shellQuote(file)})"` : 'export API_KEY=<the key>';
      say(`Note: the curl lines read the key from $API_KEY, which this shell does not export (${from}): run ${how} before pasting them.\n`);
    }
    const variables = config.network?.headers?.map((h) => `$${h.variable}`) ?? [];
    if (variables.length && (report.summary.fail > 0 || report.summary.warn > 0)) {
      say(`Note: the curl lines read the gateway header${variables.length > 1 ? 's' : ''} from ${variables.join(', ')}: export ${variables.length > 1 ? 'them' : 'it'} before pasting them.\n`);
    }
    if (created) say(`${createdText(created)}\n`);
    const unchecked = uncheckedMustText(report);
    if (unchecked) say(`Note: ${unchecked} (${settings.quiet ? 'report.json or summary.md gives the skip reasons' : 'see the skip reasons above'}).\n`);
    const clauses = (n: number) => `${n} MUST clause${n === 1 ? ' was' : 's were'}`;
    if (rateLimited && report.exitCode === 3) {
      io.err(`animal-store-conformance: rate limited: ${clauses(rateLimited)} skipped where the target answered 429, so the run cannot vouch for them (exit 3); lower --max-rps or raise the target's limit\n`);
    }
    if (outOfTime && report.exitCode === 3) {
      io.err(`animal-store-conformance: out of time: ${clauses(outOfTime)} skipped, or judged only in part, because --max-duration (${settings.maxDurationMs} ms) ran out before they ran, so the run cannot vouch for them (exit 3); raise --max-duration or lower --runs\n`);
    }
    if (noAnswer && report.exitCode === 3) {
      io.err(`animal-store-conformance: no answer: ${clauses(noAnswer)} left unjudged, in whole or in part, because requests of an operation went unanswered and its later ones were not sent (exit 3); see the shortfalls in summary.md or report.json\n`);
    }
    if (unknownCategory && report.exitCode === 3) {
      io.err(`animal-store-conformance: no categoryId accepted: ${clauses(unknownCategory)} skipped because the target refused every categoryId tried, so the run cannot vouch for them (exit 3); name categoryIds it accepts with --category-ids\n`);
    }
    const usage = process.resourceUsage();
    const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    say(`Requests sent: ${collected.requests} · CPU ${cpuSeconds.toFixed(1)} s · peak RSS ${Math.round(usage.maxRSS / 1024)} MB · reports: ${Object.values(written).sort().join(', ')}\n`);
    return report.exitCode;
  } finally {
    await target.close();
  }
}

function createdText(created: { animals: number; messages: number }): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  return `Created on the target: ${count(created.animals, 'animal')} and ${count(created.messages, 'message')}; their ids are in created.json, for clean-up.`;
}

/** The whole command line; returns the exit code. */
export async function main(argv: string[], io: Io = processIo, environment: NodeJS.ProcessEnv = process.env): Promise<number> {
  let secrets: string[] = [];
  try {
    const settings = resolveSettings(argv, environment);
    if (settings.apiKey) secrets = keyForms(settings.apiKey);
    secrets.push(...settings.otherSecrets.flatMap(secretForms));
    switch (settings.command) {
      case 'help':
        io.out(helpText());
        return 0;
      case 'version':
        io.out(`${PACKAGE_VERSION}\n`);
        return 0;
      case 'compare': {
        const [oldPath, newPath] = settings.compareFiles as [string, string];
        const read = async (path: string): Promise<RunReport> => {
          let report: RunReport;
          try {
            report = JSON.parse(readCapped(path, MAX_REPORT_BYTES)) as RunReport;
          } catch (error) {
            const why = error instanceof CappedReadError ? error.message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
            throw new UsageError(`compare: cannot read ${path} as JSON (${why})`);
          }
          if (!Array.isArray(report?.clauses)) throw new UsageError(`compare: ${path} is not a report.json of animal-store-conformance`);
          return report;
        };
        const [before, after] = [await read(oldPath), await read(newPath)];
        const result = compareReports(before, after);
        if (before.target.baseUrl !== after.target.baseUrl) io.out(`Note: the two reports checked different targets (${before.target.baseUrl}, ${after.target.baseUrl}).\n`);
        io.out(`${renderComparison(result)}\n`);
        return result.exitCode;
      }
      default:
        return await run(settings, io);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = exitCodeOf(error);
    const detail = code === 4 && error instanceof Error && error.stack ? `\n${error.stack}` : '';
    io.err(redactText(`animal-store-conformance: ${message}${detail}\n`, secrets));
    return code;
  }
}
