import { appendFile, rm } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { PACKAGE_ROOT, PACKAGE_VERSION } from '../paths.ts';
import { loadClauses } from '../contract/clauses.ts';
import type { Settings } from '../config/settings.ts';
import { UsageError } from '../errors.ts';
import { shellQuote, shellWord } from '../http/curl.ts';
import { proxyFor, shownProxy } from '../http/proxy.ts';
import { isWaitedOut } from '../http/retry-after.ts';
import { gateOnBaseline, loadBaseline } from '../report/baseline.ts';
import { likelyCauses } from '../report/causes.ts';
import { uncheckedMustText } from '../report/format.ts';
import { failsGate, isDeselected, partialMust, uncheckedMust } from '../report/grouping.ts';
import { keyForms, redactText, secretForms, SHORT_SECRET_LENGTH } from '../secrets.ts';
import { writeCreated } from '../report/created.ts';
import { nameStoryScripts, writeRegressions } from '../report/regressions.ts';
import { renderTerminal, writeReports } from '../report/index.ts';
import type { RunReport } from '../report/model.ts';
import { collect } from '../run/collect.ts';
import { enumValues } from '../run/coverage.ts';
import { isBodyPastCap } from '../suite/body-cap.ts';
import { operationsLeftOut } from '../suite/plan.ts';
import { concurrencyFor, isRemote, PIPELINE_DEPTH, pipelineDepth } from '../suite/config.ts';
import { isSelected, leftOutByOnly, onlyFocus, skippedOperations, unknownSelectors } from '../suite/selection.ts';
import { Trail } from '../suite/trail.ts';
import { plan } from './dry-run.ts';
import { settleVerdict, unvouchedLines, type Unvouched } from './exit-code.ts';
import type { Io } from './io.ts';
import { preflight } from './preflight.ts';
import { prepareReportsDir } from './reports-dir.ts';
import { resolveTarget, suiteConfig } from './target.ts';

/**
 * What runs this run again, with the target and the key taken from the same settings; `concurrent`,
 * the schedule the run took: pinned either way, so that a replay from nearer or farther, or on a
 * machine more or less loaded (which moves loopback's round trip past 1 ms), takes it too.
 */
function replayOf(settings: Settings, concurrent: boolean): string {
  // Regression tests replay their own calls: no seed draws anything there.
  const args = settings.replay.length ? settings.replay.flatMap((file) => ['--replay', file]) : ['--seed', String(settings.seed), '--runs', String(settings.runs)];
  // The target too, wherever it was set (a URL carries no credentials: settings refuse them), so the line pasted elsewhere checks the same deployment.
  if (settings.baseUrl) args.push(settings.env === 'staging' ? '--staging-base-url' : '--base-url', settings.baseUrl);
  if (settings.messagesBaseUrl) args.push('--messages-base-url', settings.messagesBaseUrl);
  if (settings.allowWrites) args.push('--allow-writes');
  if (settings.allowInsecureHttp) args.push('--allow-insecure-http');
  if (!settings.stateful) args.push('--stateful', 'off');
  // The schedule orders the sequences' lanes and what meets a slow operation first: the stories a seed tells hang on it.
  args.push('--schedule', concurrent ? 'concurrent' : 'sequential');
  if (settings.shard) args.push('--shard', `${settings.shard.index}/${settings.shard.count}`);
  if (settings.env) args.push('--env', settings.env);
  if (settings.nowGiven) args.push('--now', settings.now.toISOString());
  if (settings.only.length) args.push('--only', settings.only.join(','));
  if (settings.skip.length) args.push('--skip', settings.skip.join(','));
  if (settings.categoryIds.length) args.push('--category-ids', settings.categoryIds.join(','));
  if (settings.failOn !== 'must') args.push('--fail-on', settings.failOn);
  return ['npx animal-store-conformance', ...args.map(shellWord)].join(' ');
}

/** A path under the working directory as a relative one (`reports`), any other as it is. */
function shownPath(path: string): string {
  const near = relative(process.cwd(), path);
  return near && !near.startsWith('..') && !isAbsolute(near) ? near : path;
}

/** Where the reasons for the MUST clauses a run left unchecked are: --only/--skip, the terminal or the reports. */
function whereSkipsAre(report: RunReport, quiet: boolean): string {
  const unchecked = uncheckedMust(report);
  const deselected = unchecked.filter(isDeselected).length;
  const reasons = quiet ? 'report.json or summary.md gives the skip reasons' : 'see the skip reasons above';
  if (deselected === 0) return reasons;
  if (deselected === unchecked.length && partialMust(report).length === 0) return `${deselected === 1 ? 'it was' : 'all were'} deselected by --only/--skip`;
  return `${deselected} of them deselected by --only/--skip; for the rest, ${reasons}`;
}

/** A conformance run (with --dry-run, its plan): checks the target the settings name and writes the reports; returns the exit code. */
/** How many answers the body cap (--max-body) kept from judging, counted once each (the clause that counts the most). */
function bodiesPastCap(report: RunReport): number {
  let most = 0;
  for (const clause of report.clauses) {
    const cut = Object.values(clause.coverage?.unjudged ?? {}).filter((entry) => isBodyPastCap(entry.reason)).reduce((sum, entry) => sum + entry.count, 0);
    most = Math.max(most, cut);
  }
  return most;
}

/** Failures that rest on a 503 naming no time to come back (no Retry-After, or one that reads as none). */
function failuresOn503(report: RunReport): number {
  let count = 0;
  for (const clause of report.clauses) {
    for (const check of clause.checks) {
      if (check.outcome !== 'fail') continue;
      for (const failure of check.failures ?? [check]) {
        const response = failure.evidence?.response;
        if (response?.status === 503 && !isWaitedOut(503, response.headers['retry-after'])) count++;
      }
    }
  }
  return count;
}

export async function run(settings: Settings, io: Io): Promise<number> {
  const started = Date.now();
  const catalogue = loadClauses();
  // Read before the reports folder is cleared: it may be an earlier run's report.json there.
  const baseline = settings.baseline ? await loadBaseline(settings.baseline).catch((error: Error) => new UsageError(`--baseline: ${error.message}`)) : undefined;
  // A dry run writes no reports; a run clears an earlier one's before it can stop.
  if (!settings.dryRun) await prepareReportsDir(settings.reportsDir, { clearStale: true });
  if (baseline instanceof UsageError) throw baseline;
  const unknown = unknownSelectors([...settings.only, ...settings.skip], catalogue);
  if (unknown.length) throw new UsageError(`--only/--skip: ${unknown.map((t) => JSON.stringify(t)).join(', ')} names no section, operation or clause (see --dry-run for the list)`);
  const both = settings.only.filter((token) => settings.skip.includes(token));
  if (both.length) throw new UsageError(`--only and --skip both name ${both.join(', ')}: say which`);
  if (!catalogue.some((clause) => isSelected(clause, settings.only, settings.skip))) throw new UsageError('--only/--skip leave no clause selected: nothing would be checked (see --dry-run for the list)');
  for (const operation of skippedOperations(settings.skip, catalogue)) {
    if (!catalogue.some((clause) => clause.operations.includes(operation) && isSelected(clause, settings.only, settings.skip))) continue;
    // The preflight lists one animal to time the round trip and see the key taken.
    const aside = operation === 'listPets' ? ' but the preflight\'s GET /v1/pets?limit=1' : '';
    io.err(
      `animal-store-conformance: note: --skip ${operation}: nothing${aside} is sent to it; the clauses it shares with other operations are judged on those alone (shown partial, by the settings), and the checks that need it are skipped\n`,
    );
  }
  const confining = settings.only.filter((token) => catalogue.some((clause) => onlyFocus(clause, settings.only)?.has(token)));
  if (confining.length) {
    io.err(
      `animal-store-conformance: note: --only ${confining.join(',')}: the clauses it shares with other operations are judged on it alone (shown partial, by the settings), and only the scenarios that send to it run them; other operations get only the set-up requests those scenarios need\n`,
    );
  }
  const target = await resolveTarget(settings);
  const secrets = target.embedded ? [] : [...(target.apiKey ? keyForms(target.apiKey) : []), ...settings.otherSecrets.flatMap(secretForms)];
  const say = (text: string) => io.out(redactText(text, secrets));
  if (settings.targetNote && !target.embedded) say(`animal-store-conformance: ${settings.targetNote}\n`);
  if (!target.embedded && !target.apiKey) io.err('animal-store-conformance: note: no API key is set: the plan needs none, but the run itself stops at once (API_KEY, .env or --api-key-file)\n');
  if (!target.embedded && target.apiKey && target.apiKey.length < SHORT_SECRET_LENGTH) {
    io.err(`animal-store-conformance: note: the API key has fewer than ${SHORT_SECRET_LENGTH} characters, so outputs replace it only where it stands as a whole token\n`);
  }
  try {
    const [{ loadContract }, { runSuite }] = await Promise.all([import('../contract/load.ts'), import('../run/vitest.ts')]);
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
    const { roundTripMs, note, created: madeByPreflight } = await preflight(config, settings.keySource);
    if (note) io.err(`animal-store-conformance: note: ${redactText(note, secrets)}\n`);
    if (!settings.concurrencyGiven) config.concurrency = concurrencyFor(roundTripMs);
    config.pipelineDepth = pipelineDepth(roundTripMs, config.concurrency);
    config.concurrent = settings.schedule === 'auto' ? isRemote(roundTripMs) : settings.schedule === 'concurrent';
    const proxy = proxyFor(new URL(target.baseUrl), config.network?.proxy);
    const shard = settings.shard ? ` · shard ${settings.shard.index}/${settings.shard.count}` : '';
    say(`animal-store-conformance: ${target.embedded ? 'embedded reference server' : target.baseUrl} [${target.env}] · seed ${settings.seed} · runs ${settings.runs}${shard}${proxy ? ` · via ${shownProxy(proxy)}` : ''}\n`);
    if (config.trailFile) {
      await rm(config.trailFile, { force: true });
      const trail = new Trail(config.trailFile);
      for (const item of madeByPreflight) trail.record(item);
      trail.close();
    }
    const suite = await runSuite(config, {
      files: settings.replay,
      maxWorkers: settings.workers,
      onProgress: ({ title, state, done, failed }) => {
        if (settings.quiet) return;
        if (io.isTty) io.out(`\r\x1b[2K[${done}] ${title.slice(0, 100)}`);
        // A scenario judges several clauses: the line names those that failed, which may not be the one its title tells.
        else if (state !== 'skipped') say(`${state === 'failed' ? 'FAIL' : 'ok  '} ${title}${state === 'failed' && failed.length ? ` — failed: ${failed.join(', ')}` : ''}\n`);
      },
    });
    if (io.isTty && !settings.quiet) io.out('\r\x1b[2K');
    const collected = collect(catalogue, suite.scenarios, {
      isSelected: (clause) => isSelected(clause, settings.only, settings.skip),
      leftOut: operationsLeftOut(config),
      leftOutOf: (clause) => leftOutByOnly(clause, settings.only),
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
      scenarios: collected.scenarios.map(({ title, startedAt, ms, requests }) => ({ title, atMs: startedAt - started, ms, requests })),
      now: settings.now.toISOString(),
      nowGiven: settings.nowGiven,
      failOn: settings.failOn,
      replay: replayOf(settings, config.concurrent === true),
      pipeline: { depth: config.pipelineDepth, ...(roundTripMs === undefined ? {} : { roundTripMs: Math.round(roundTripMs * 10) / 10 }), schedule: config.concurrent ? 'concurrent' : 'sequential' },
      summary: collected.summary,
      clauses: collected.clauses,
      capabilities: collected.capabilities,
      engineErrors,
      verdict: failing > 0 ? 'fail' : 'pass',
      exitCode: 0,
      traffic: collected.traffic,
      ...(settings.shard ? { shard: settings.shard } : {}),
    };
    const causes = likelyCauses(report.clauses);
    if (causes.length) report.causes = causes;
    let unvouched: Unvouched;
    if (baseline) {
      const gated = gateOnBaseline(report, baseline, settings.now);
      say(`${gated.account}\n`);
      unvouched = gated.unvouched;
    } else unvouched = settleVerdict(report, failing);
    if (!settings.replay.length) nameStoryScripts(report);
    const written: Record<string, string> = { ...(await writeReports(report, settings.reportsDir, { secrets })) };
    const regressions = settings.replay.length ? [] : await writeRegressions(report, settings.reportsDir, PACKAGE_ROOT, secrets);
    const created = config.trailFile
      ? await writeCreated(settings.reportsDir, { target: { baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl ?? '', env: target.env }, seed: settings.seed, startedAt: report.startedAt }, secrets)
      : undefined;
    if (created) {
      written.created = created.path;
      await appendFile(written.summary!, `\n${createdText(created)}\n`);
    }
    const terminal = renderTerminal(report, { color: io.isTty, secrets, usualPipelineDepth: PIPELINE_DEPTH, reportsDir: shownPath(settings.reportsDir) });
    if (settings.quiet) {
      const failing = report.clauses.filter((c) => failsGate(c.outcome, settings.failOn)).map((c) => `§${c.section} ${c.id}${c.known ? ' (known)' : ''}`);
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
    for (const file of regressions) say(`Regression test of a failing sequence of calls: ${file} (replay it with --replay ${file}; its curl lines: ${file.replace(/\.test\.ts$/, '.sh')})\n`);
    if (settings.shard) {
      const { index, count } = settings.shard;
      say(`Note: this is shard ${index}/${count} of the run; what other shards judge shows as skipped here: \`animal-store-conformance merge\` of all ${count} shards' report.json gives the run's verdict.\n`);
    }
    const unchecked = uncheckedMustText(report);
    if (unchecked) say(`Note: ${unchecked} (${whereSkipsAre(report, settings.quiet)}).\n`);
    const cut = bodiesPastCap(report);
    if (cut) say(`Note: ${cut} ${cut === 1 ? 'answer' : 'answers'} had a body longer than --max-body (${settings.maxBodyBytes} bytes), the suite's own cap: judged on ${cut === 1 ? 'its' : 'their'} status alone; raise --max-body to judge ${cut === 1 ? 'it' : 'them'} whole.\n`);
    if (report.exitCode === 3) for (const line of unvouchedLines(unvouched, settings.maxDurationMs, settings.maxBodyBytes)) io.err(line);
    const unrequested = collected.traffic.unrequestedAnswers;
    if (unrequested) {
      say(
        `Note: the target sent ${unrequested} ${unrequested === 1 ? 'answer' : 'answers'} on a kept-alive connection to no request (HTTP/1.1 answers each request once, in the order the requests came: RFC 9112 §9.3.2). Such an answer that comes as the next request goes out is taken for its answer, and each later one on that connection for the next request's, so failures before it may quote an answer to another request; after it, each request went on a connection of its own.\n`,
      );
    }
    const overloaded = collected.traffic.overloaded;
    const paced = collected.traffic.pacedRps;
    if (overloaded) {
      const rate = paced ? ` It held the requests to one host, or to one operation on it, to ${paced} a second at the least: --max-rps ${paced} starts there.` : '';
      say(
        `Note: the target answered 503 without Retry-After ${overloaded === 1 ? "once" : `${overloaded} times`} where it had answered calmly before, as a gateway that limits requests in flight or their rate does (nginx's limit_conn and limit_req answer 503 unless told otherwise): the suite sent ${overloaded === 1 ? 'it' : 'each'} again with fewer in flight or after a wait, slowing to the rate at which waiting cured them, and judged the answer that came then (RFC 9110 §15.6.4: "a temporary overload"). To spare such a target, set --concurrency, or --max-rps for a limit on the rate.${rate}\n`,
      );
    }
    const served = collected.traffic.servedConnections;
    if (served) {
      say(
        `Note: the target seemed to serve ${served === 1 ? 'one connection' : `${served} connections`} at a time: the first answer on a new connection came only just after the suite closed an idle one, as from a single-threaded server with keep-alive (or from one slow to answer the first request on each new connection: the suite cannot tell them apart). The suite closed its idle connections and held its requests to that host to ${served === 1 ? 'one connection' : `${served} connections`} (RFC 9112 §9.4), one request at a time on each: the run is slower for it, more so far from the target.\n`,
      );
    }
    const on503 = failuresOn503(report);
    if (on503) {
      say(
        `Note: ${on503} ${on503 === 1 ? 'failure rests' : 'failures rest'} on a 503 without Retry-After. Where a gateway in front of the service limits the rate of requests (nginx's limit_req answers 503 unless told otherwise), --max-rps below that rate spares it: before judging such a 503 the suite sends the request again with fewer in flight, after waits, and once after a second in which it sends nothing else (unless the host never answered otherwise while no other host was limited, the request was one a clause rests on alone, or the operation's 503s went on as often when slowed).\n`,
      );
    }
    const usage = process.resourceUsage();
    const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    const resent = collected.traffic.resent ? ` (${collected.traffic.resent} sent once more: their connection was closed before their answer came, or a 100 Continue they had not asked for came)` : '';
    say(`Requests sent: ${collected.requests}${resent} · CPU ${cpuSeconds.toFixed(1)} s · peak RSS ${Math.round(usage.maxRSS / 1024)} MB · reports: ${Object.values(written).sort().join(', ')}\n`);
    return report.exitCode;
  } finally {
    await target.close();
  }
}

function createdText(created: { animals: number; messages: number; noId: number; unconfirmed: number }): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  // A 2xx says the write was taken even when its body names no id (garbage, or no JSON).
  const where = created.noId === 0 ? 'their ids are in created.json' : `their ids are in created.json, where ${created.noId} ${created.noId === 1 ? 'has' : 'have'} none: the 2xx that took ${created.noId === 1 ? 'it' : 'them'} named none`;
  const unconfirmed = created.unconfirmed
    ? ` ${count(created.unconfirmed, 'more create')} (animals or messages) went out and no answer said what became of ${created.unconfirmed === 1 ? 'it' : 'them'} (lost with the connection, or timed out): the target may hold ${created.unconfirmed === 1 ? 'it' : 'them'}, listed as unconfirmed in created.json by what was sent.`
    : '';
  return `Created on the target: ${count(created.animals, 'animal')} and ${count(created.messages, 'message')}; ${where}, for clean-up.${unconfirmed}`;
}
