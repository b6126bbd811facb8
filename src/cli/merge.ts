import { join } from 'node:path';
import { loadClauses } from '../contract/clauses.ts';
import { UsageError } from '../errors.ts';
import { fleetExitCode, fleetVerdict, writeFleet, type FleetEntry } from '../report/fleet.ts';
import { renderTerminal, writeReports } from '../report/index.ts';
import { gateOnBaseline, loadBaseline } from '../report/baseline.ts';
import { checkShards, mergeShards, targetKey } from '../report/merge.ts';
import type { RunReport } from '../report/model.ts';
import type { Io } from './io.ts';
import { readReport } from './read-report.ts';
import { prepareReportsDir } from './reports-dir.ts';

/** A folder name for a target: its environment, host and path. */
function slug(report: RunReport): string {
  const url = new URL(report.target.baseUrl);
  return `${report.target.env}-${url.host}${url.pathname}`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/-+$/, '');
}

/** The values of the contract's enums, for a clause's minimum.each. */
async function contractEnums(): Promise<(name: string) => string[]> {
  const [{ loadContract }, { enumValues }] = await Promise.all([import('../contract/load.ts'), import('../run/coverage.ts')]);
  const contract = await loadContract();
  return (name) => enumValues(contract, name);
}

/**
 * `merge A.json B.json …`: the shards of a run as one report (verdict and exit code as one
 * machine's run), and reports of several targets side by side in a target × clause matrix.
 * `baseline`: a file of known failures, applied to each merged report as a run applies it.
 */
export async function merge(files: string[], reportsDir: string, io: Io, options: { baseline?: string; now: Date } = { now: new Date() }): Promise<number> {
  const baseline = options.baseline
    ? await loadBaseline(options.baseline).catch((error: Error) => {
        throw new UsageError(`--baseline: ${error.message}`);
      })
    : undefined;
  const reports = files.map((path) => ({ path, report: readReport(path, 'merge') }));
  const first = reports[0]!;
  for (const { path, report } of reports) {
    for (const [what, value, expected] of [
      ['tool', `${report.tool.name} ${report.tool.version}`, `${first.report.tool.name} ${first.report.tool.version}`],
      ['spec', `${report.spec.title} ${report.spec.version}`, `${first.report.spec.title} ${first.report.spec.version}`],
    ] as const) {
      if (value !== expected) throw new UsageError(`merge: ${path} was written by ${what} ${value} and ${first.path} by ${expected}: merge reports of one ${what} version only`);
    }
  }
  const groups = new Map<string, typeof reports>();
  for (const entry of reports) groups.set(targetKey(entry.report), [...(groups.get(targetKey(entry.report)) ?? []), entry]);
  for (const group of groups.values()) checkShards(group);
  await prepareReportsDir(reportsDir);
  const catalogue = loadClauses();
  // The contract is read only where a clause's minimum names an enum.
  const enumValues = catalogue.some((clause) => clause.minimum?.each) ? await contractEnums() : () => [];
  const merged = [...groups.values()].map((group) => mergeShards(group.map((g) => g.report), { catalogue, enumValues }));
  if (merged.length === 1) {
    const report = merged[0]!;
    const judged = baseline && gateOnBaseline(report, baseline, options.now).account;
    const written = await writeReports(report, reportsDir);
    io.out(`${renderTerminal(report, { color: io.isTty })}\n`);
    if (judged) io.out(`${judged}\n`);
    io.out(`Merged ${reports.length} report${reports.length === 1 ? '' : 's'}: ${Object.values(written).sort().join(', ')}\n`);
    return report.exitCode;
  }
  const used = new Set<string>();
  const entries: FleetEntry[] = [];
  for (const report of merged) {
    if (baseline) io.out(`${report.target.env} ${report.target.baseUrl}: ${gateOnBaseline(report, baseline, options.now).account}\n`);
    let dir = join('targets', slug(report));
    for (let n = 2; used.has(dir); n++) dir = join('targets', `${slug(report)}-${n}`);
    used.add(dir);
    await writeReports(report, join(reportsDir, dir));
    entries.push({ label: `${report.target.env} ${report.target.baseUrl}`, dir, report });
  }
  const written = await writeFleet(entries, reportsDir);
  io.out(`${fleetVerdict(entries)}\nMerged ${reports.length} reports of ${entries.length} deployments: ${written.sort().join(', ')}; each deployment's own reports under ${join(reportsDir, 'targets')}\n`);
  return fleetExitCode(entries);
}
