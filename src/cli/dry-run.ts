import { join } from 'node:path';
import { compareSections, type Clause } from '../contract/clauses.ts';
import type { Settings } from '../config/settings.ts';
import { proxyFor, shownProxy } from '../http/proxy.ts';
import { PROBE_CATEGORY_IDS } from '../suite/categories.ts';
import type { ScenarioPlan } from '../suite/scenario.ts';
import { isSelected } from '../suite/selection.ts';
import type { Io } from './io.ts';
import { targetNetwork, type Target } from './target.ts';
import { MAX_SEQUENCE_STEPS, sequenceCount } from '../suite/config.ts';

/** The writes the scenarios that would run send: only those --only/--skip keep. */
function writesPlanned(settings: Settings, target: Target, io: Io, plans: ScenarioPlan[]): void {
  const sends = plans.flatMap((plan) => plan.sends ?? []);
  const any = (kind: 'creates' | 'messages' | 'sequences') => sends.some((s) => s[kind]);
  const also = [...new Set(sends.flatMap((s) => s.alsoWrites ?? []))];
  if (!sends.some((s) => s.creates || s.messages || s.sequences) && also.length === 0) {
    io.out('  writes   none: no scenario of the selected clauses creates animals or sends messages\n');
    return;
  }
  const pets = [any('creates') ? 'valid NewPets (§4.2, §4.3), invalid ones (§4.2, §5)' : '', ...also].filter(Boolean);
  const lines: string[] = [];
  if (pets.length) lines.push(`POST /v1/pets: ${pets.join(', ')}`);
  if (any('messages')) lines.push('POST /messages: valid and invalid messages (§4.5, §5)');
  if (any('sequences')) {
    lines.push(`${sequenceCount(settings.runs)} random sequences of up to ${MAX_SEQUENCE_STEPS} calls (creates, listings, fetches${target.messagesBaseUrl ? ', messages' : ''}; refused and invalid ones among them), each ending with a GET of every animal it created (docs/stateful.md; --stateful off skips them)`);
  } else if (!settings.stateful) lines.push('no sequences of calls (--stateful off)');
  if (any('creates') || any('sequences') || also.length) {
    const categories = settings.categoryIds.length
      ? `${settings.categoryIds.join(', ')} (--category-ids)`
      : `those of the animals the listing shows; with none, the first of ${PROBE_CATEGORY_IDS.join(', ')} taken`;
    lines.push(`a NewPet that must get 201 carries a categoryId the target is known to accept: ${categories}`);
  }
  if (!target.embedded) lines.push(`every animal and message created is listed, for clean-up, in ${join(settings.reportsDir, 'created.json')}`);
  io.out(lines.map((line, i) => `${i === 0 ? '  writes   ' : '           '}${line}\n`).join(''));
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

export function plan(settings: Settings, target: Target, writes: boolean, io: Io, clauses: Clause[], plans: ScenarioPlan[]): void {
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
  // Measured against the reference server with its message host: about 345 requests of set-up and
  // fixed probes, 22 per run (each distinct invalid case sent once), about 9 per sequence of calls.
  const fewer = [target.messagesBaseUrl ? '' : 'the message checks', writes ? '' : 'the writes'].filter(Boolean).join(' and ');
  const sequences = writes && settings.stateful ? 9 * sequenceCount(settings.runs) : 0;
  const selection = settings.only.length || settings.skip.length ? ' for the whole suite (--only/--skip send fewer)' : '';
  io.out(`  requests roughly ${345 + 22 * settings.runs + sequences}${selection}${fewer ? `, less ${fewer}` : ''}, at most ${settings.concurrency} in flight per worker × ${settings.workers} workers\n`);
  if (writes) writesPlanned(settings, target, io, plans);
  else io.out('  writes   none: every POST is skipped (production without --allow-writes)\n');
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
