import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { DEVIATIONS } from '../../reference/deviations.ts';
import { loadClauses } from '../../src/contract/clauses.ts';
import { nearMissKeys } from '../../src/secrets.ts';
import { HOSTILE_MODES, startHostile } from '../../reference/hostile.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { failedClauses, runCli, type CliResult } from '../support/run-cli.ts';
import { startTcpDelayProxy, type TcpDelayProxy } from '../support/tcp-delay-proxy.ts';

export type RowKind = 'fault' | 'allowed' | 'hostile';

export interface MatrixRow {
  id: string;
  kind: RowKind;
  /** The clause a fault breaks. */
  expected?: string;
  /** Caught (fault), passed (allowed) or handled (hostile). */
  ok: boolean;
  failed: string[];
  warned: string[];
  exitCode: number | null;
  ms: number;
  /** Hostile rows: the CLI's peak resident set. */
  peakRssMb?: number;
  /** Hostile answers: what the server did, in one line of the run's output. */
  said?: string;
  problem?: string;
}

export interface MatrixOptions {
  runs: number;
  seed: number;
  parallel: number;
  /** Only these ids (all when empty). */
  ids?: string[];
  /**
   * --schedule for every run. Default: auto with `delayMs` (each run chooses from its round trip),
   * else sequential (several runs side by side on a loaded machine could otherwise measure a round
   * trip over 1 ms and switch some runs to concurrent).
   */
  schedule?: 'sequential' | 'concurrent' | 'auto';
  /** Each row's hosts behind a TCP proxy that holds every answer this long (ms): the server as a CI gate meets staging. */
  delayMs?: number;
}

/** The key each matrix run uses; it must appear in no output. `numeric`: 15 digits, as a fault of numeric keys asks. */
function secretKey(kind?: 'numeric'): string {
  if (kind === 'numeric') return `9${randomBytes(8).readBigUInt64BE().toString().padStart(14, '0').slice(-14)}`;
  return `Matrix-Secret-${randomBytes(16).toString('hex')}`;
}

/**
 * The key, or a wrong key the suite derives from it, in an output (the key minus its last character
 * is found in the key too), or the key in another case, base64 or hex.
 */
function leaks(result: CliResult, key: string): string | undefined {
  const forms = [...Object.values(nearMissKeys(key)), key.toLowerCase(), key.toUpperCase(), Buffer.from(key).toString('base64').replace(/=+$/, ''), Buffer.from(key).toString('hex')];
  const outputs: [string, string][] = [['stdout', result.stdout], ['stderr', result.stderr], ...Object.entries(result.files)];
  for (const [where, text] of outputs) {
    if (forms.some((form) => text.includes(form))) return `key in ${where}`;
  }
  return undefined;
}

/** The --schedule every run of the matrix gets (see MatrixOptions.schedule). */
export function scheduleOf(options: Pick<MatrixOptions, 'schedule' | 'delayMs'>): 'sequential' | 'concurrent' | 'auto' {
  return options.schedule ?? (options.delayMs ? 'auto' : 'sequential');
}

function args(server: Hosts, options: MatrixOptions, extra: string[] = []): string[] {
  return ['--base-url', server.baseUrl, '--messages-base-url', server.messagesBaseUrl, '--runs', String(options.runs), '--seed', String(options.seed), '--workers', '1', '--schedule', scheduleOf(options), '--quiet', ...extra];
}

/** A failure whose evidence is a request the suite did not send, or cut short: never evidence (issue 17). */
function unsentEvidence(report: CliResult['report']): string | undefined {
  for (const clause of report?.clauses ?? []) {
    for (const check of clause.checks) {
      for (const failure of [...(check.failures ?? []), ...(check.warnings ?? []), check]) {
        const kind = failure.evidence?.transportError?.split(':')[0];
        if (kind === 'not-sent' || kind === 'cut-short' || kind === 'lost-kept-alive') return `${clause.id} failed on a request ${kind === 'not-sent' ? 'not sent' : kind === 'cut-short' ? 'cut short' : 'lost to an idle close'}`;
      }
    }
  }
  return undefined;
}

/** Whether every failure of the report is a real timeout on one operation (a fault that hangs it). */
function onlyTimeoutsOn(report: CliResult['report'], operation: string): boolean {
  const failing = (report?.clauses ?? []).filter((c) => c.outcome === 'fail').flatMap((c) => c.checks.filter((check) => check.outcome === 'fail'));
  const failures = failing.flatMap((check) => check.failures?.length ? check.failures : [{ operation, evidence: check.evidence }]);
  return failures.length > 0 && failures.every((f) => f.evidence?.transportError?.startsWith('timeout') === true && f.operation === operation);
}

const LEVELS = new Map(loadClauses().map((clause) => [clause.id, clause.level]));

async function judgeDeviation(id: string, options: MatrixOptions): Promise<MatrixRow> {
  const deviation = DEVIATIONS.find((d) => d.id === id)!;
  // A fault of a SHOULD clause is caught when it warns, and with --fail-on should the run fails.
  const should = deviation.kind === 'fault' && LEVELS.get(deviation.breaks ?? '') === 'SHOULD';
  const key = secretKey(deviation.key);
  const server = await startReference({ apiKey: key, deviations: [id] });
  let far: FarAway | undefined;
  try {
    far = await farAway(server, options);
    const result = await runCli(args(far.hosts, options, [...(should ? ['--fail-on', 'should'] : []), ...(deviation.args ?? [])]), { API_KEY: key });
    const failed = failedClauses(result.report);
    const warned = result.report?.clauses.filter((c) => c.outcome === 'warn').map((c) => c.id) ?? [];
    const row: MatrixRow = { id, kind: deviation.kind, failed, warned, exitCode: result.code, ms: result.ms, ok: false };
    if (deviation.breaks) row.expected = deviation.breaks;
    const leak = leaks(result, key);
    const missing = ['junit.xml', 'report.json', 'report.html', 'summary.md'].filter((name) => !(name in result.files));
    const unsent = unsentEvidence(result.report);
    if (leak) row.problem = leak;
    else if (missing.length) row.problem = `no ${missing.join(', ')} written`;
    else if (unsent) row.problem = unsent;
    else if (deviation.kind === 'fault') {
      const caught = (should ? warned : failed).includes(deviation.breaks ?? '') || (deviation.hangs !== undefined && failed.length > 0 && onlyTimeoutsOn(result.report, deviation.hangs));
      row.ok = result.code === 1 && caught;
      if (!row.ok) row.problem = `exit ${result.code}, failed [${failed.join(', ')}]${result.stderr ? `; stderr: ${result.stderr.slice(0, 300)}` : ''}`;
    } else {
      // A warning is allowed only where the variant does not follow an RFC's SHOULD (its `warns`).
      const unexpected = warned.filter((clause) => !(deviation.warns ?? []).includes(clause));
      row.ok = result.code === 0 && failed.length === 0 && unexpected.length === 0;
      if (!row.ok) row.problem = `exit ${result.code}, failed [${failed.join(', ')}]${unexpected.length ? `, warned [${unexpected.join(', ')}]` : ''}${result.stderr ? `; stderr: ${result.stderr.slice(0, 300)}` : ''}`;
    }
    return row;
  } finally {
    await far?.close();
    await server.close();
  }
}

type Hosts = Pick<RunningReference, 'baseUrl' | 'messagesBaseUrl'>;

interface FarAway {
  hosts: Hosts;
  close(): Promise<void>;
}

/** The server's hosts, or with `delayMs` a TCP delay proxy in front of each. */
async function farAway(server: Hosts, { delayMs }: MatrixOptions): Promise<FarAway> {
  if (!delayMs) return { hosts: server, close: async () => undefined };
  const started = await Promise.allSettled([startTcpDelayProxy(server.baseUrl, delayMs), startTcpDelayProxy(server.messagesBaseUrl, delayMs)]);
  const proxies = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    // The one that started is stopped, not left listening for the rest of the matrix.
    await Promise.all(proxies.map((proxy) => proxy.close()));
    throw failed.reason;
  }
  const [main, messages] = proxies as [TcpDelayProxy, TcpDelayProxy];
  return {
    hosts: { baseUrl: main.url, messagesBaseUrl: messages.url },
    close: async () => {
      await Promise.all([main.close(), messages.close()]);
    },
  };
}

const HOSTILE_BOUND_MS = 60_000;

/**
 * A hostile answer (a faithful server behind a proxy that rewrites one kind of answer, run with the
 * default settings) ends with this exit and one line of its output saying what the
 * server did: the Actual of `clause`'s failure in report.json (or why it left the clause unjudged), or a line of stderr.
 */
interface AnswerOutcome {
  exit: number;
  clause?: string;
  said: RegExp;
}

const ANSWER_OUTCOMES: Record<string, AnswerOutcome> = {
  // Past a bound of the suite's own reading: the spec fixes none (an extra member may hold anything), so unjudged, not failed.
  'hostile-nesting-bomb': { exit: 3, clause: 'list.200-pets', said: /bound of the suite's own reading \(the body nests deeper than 64 levels \(the suite reads at most 64\)\)/ },
  'hostile-many-keys': { exit: 3, clause: 'list.200-pets', said: /bound of the suite's own reading \(an object with 200,00\d members \(the suite reads at most 1,000\)\)/ },
  'hostile-long-numbers': { exit: 3, clause: 'create.201-pet', said: /bound of the suite's own reading \(a number of 1,000,000 digits \(the suite reads at most 1,000\)\)/ },
  'hostile-429-every-other': { exit: 3, said: /^animal-store-conformance: rate limited: .*answered 429/ },
  // Past the suite's own cap on headers: the spec fixes none, so unjudged, not failed.
  'hostile-huge-headers': { exit: 3, clause: 'orders.exists', said: /^the answer's headers were longer than 128 KiB, the suite's own cap/ },
  'hostile-unasked-101': { exit: 1, clause: 'orders.exists', said: /^malformed: 101 Switching Protocols to a request that asked for no upgrade/ },
  // A filter that lists nothing of what the store holds gives list.status-filter nothing to judge: the gate cannot vouch for it.
  'hostile-filtered-empty': { exit: 3, said: /^animal-store-conformance: nothing listed: 1 MUST clause was left unjudged/ },
  'hostile-400-unread-post': { exit: 1, clause: 'messages.accepted', said: /^400 \{"code":"bad_request","message":"refused before reading","status":400\}$/ },
};
/** What every hostile answer's run stays under (issue 23), on a machine with a core to spare. */
const ANSWER_BOUND_MS = 30_000;
const ANSWER_BOUND_RSS_MB = 400;

/**
 * How much slower than an idle machine this one runs now: runnable tasks per core, at least 1. Other
 * work on a shared 2-core VM (a load of 14 was seen) stretches even the quickest hostile row past 40 s.
 */
function slowdown(): number {
  return Math.max(1, loadavg()[0]! / availableParallelism());
}

/** The line of the run's output the outcome expects, if it is there. */
function saidLine(result: CliResult, outcome: AnswerOutcome): string | undefined {
  if (!outcome.clause) return result.stderr.split('\n').find((line) => outcome.said.test(line));
  const clause = result.report?.clauses.find((c) => c.id === outcome.clause);
  const actuals = [...(clause?.checks.filter((c) => c.outcome === 'fail').map((c) => c.actual ?? '') ?? []), ...Object.values(clause?.coverage?.unjudged ?? {}).map((entry) => entry.reason)];
  return actuals.find((actual) => outcome.said.test(actual)) ?? actuals[0];
}

async function judgeHostile(id: string, options: MatrixOptions): Promise<MatrixRow> {
  const key = secretKey();
  const server = await startHostile(id, { apiKey: key });
  const answer = ANSWER_OUTCOMES[id];
  const load = slowdown();
  const bound = (answer ? ANSWER_BOUND_MS : HOSTILE_BOUND_MS) * load;
  // A hostile answer runs as a user would (the default --timeout, --max-body and --max-duration) and must end by itself.
  const flags = answer ? [] : ['--timeout', '1000', '--max-body', '65536', '--max-duration', '30000'];
  let far: FarAway | undefined;
  try {
    far = await farAway(server, options);
    const result = await runCli(args(far.hosts, options, flags), { API_KEY: key }, { timeoutMs: bound + 40_000, measureRss: true });
    const row: MatrixRow = { id, kind: 'hostile', failed: failedClauses(result.report), warned: [], exitCode: result.code, ms: result.ms, ok: false };
    if (result.peakRssMb !== undefined) row.peakRssMb = result.peakRssMb;
    const problems: string[] = [];
    const leak = leaks(result, key);
    if (leak) problems.push(leak);
    if (answer) {
      const said = saidLine(result, answer);
      if (said !== undefined) row.said = said;
      if (result.code !== answer.exit) problems.push(`exit ${result.code} (expected ${answer.exit})`);
      if (said === undefined || !answer.said.test(said)) problems.push(`no line saying what the server did (${answer.clause ?? 'stderr'}: ${said ?? 'nothing'})`);
      if ((row.peakRssMb ?? Infinity) > ANSWER_BOUND_RSS_MB) problems.push(`peak RSS ${Math.round(row.peakRssMb ?? 0)} MB`);
    } else if (result.code !== 1 && result.code !== 3) problems.push(`exit ${result.code} (expected 1, a failed check, or 3, unreachable)`);
    if (result.ms > bound) problems.push(`took ${Math.round(result.ms)} ms${load > 1 ? ` (bound ${Math.round(bound)} ms: ${answer ? ANSWER_BOUND_MS : HOSTILE_BOUND_MS} ms × a load of ${load.toFixed(1)} per core)` : ''}`);
    if (/\n\s+at .+:\d+:\d+/.test(result.stderr)) problems.push(`stack trace on stderr: ${result.stderr.slice(0, 300)}`);
    // Unreachable before any test, or left unanswered during the run: either is one line on stderr.
    if (!answer && result.code === 3 && !/^animal-store-conformance: (cannot reach|no answer:)/m.test(result.stderr)) problems.push('exit 3 without a one-line diagnosis');
    if (server.authorizationLeaked()) problems.push('Authorization was sent to another origin');
    row.ok = problems.length === 0;
    if (problems.length) row.problem = problems.join('; ');
    return row;
  } finally {
    await far?.close();
    await server.close();
  }
}

async function pool<T, R>(items: T[], parallel: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

/** Runs the CLI against every deviation and hostile mode of the reference server. */
export async function runMatrix(options: MatrixOptions): Promise<MatrixRow[]> {
  const wanted = (id: string) => !options.ids?.length || options.ids.includes(id);
  const jobs: { id: string; hostile: boolean }[] = [
    ...DEVIATIONS.filter((d) => wanted(d.id)).map((d) => ({ id: d.id, hostile: false })),
    ...HOSTILE_MODES.filter((m) => wanted(m.id)).map((m) => ({ id: m.id, hostile: true })),
  ];
  return pool(jobs, options.parallel, (job) => (job.hostile ? judgeHostile(job.id, options) : judgeDeviation(job.id, options)));
}

export function renderMatrix(rows: MatrixRow[]): string {
  const lines = ['| deviation | kind | expected clause | result | failed (warned) clauses | exit | time | peak RSS |', '|---|---|---|---|---|---|---|---|'];
  for (const row of rows) {
    const handled = row.said ? `handled: ${row.said.replaceAll('|', '\\|')}` : 'handled';
    const verdict = row.ok ? { fault: 'caught', allowed: 'passed', hostile: handled }[row.kind] : `**MISSED** ${row.problem ?? ''}`;
    const clauses = [...row.failed, ...row.warned.map((id) => `(${id})`)].join(', ') || '-';
    const rss = row.peakRssMb === undefined ? '-' : `${Math.round(row.peakRssMb)} MB`;
    lines.push(`| ${row.id} | ${row.kind} | ${row.expected ?? '-'} | ${verdict} | ${clauses} | ${row.exitCode} | ${(row.ms / 1000).toFixed(1)} s | ${rss} |`);
  }
  const count = (kind: RowKind) => `${rows.filter((r) => r.kind === kind && r.ok).length}/${rows.filter((r) => r.kind === kind).length}`;
  lines.push('', `faults caught ${count('fault')} · allowed passed ${count('allowed')} · hostile handled ${count('hostile')}`);
  return lines.join('\n');
}
