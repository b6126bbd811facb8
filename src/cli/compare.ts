import { compareReports, renderComparison } from '../report/compare.ts';
import type { Io } from './io.ts';
import { readReport } from './read-report.ts';

/** `compare OLD.json NEW.json`: what changed between two runs; returns the exit code. */
export async function compare([oldPath, newPath]: [string, string], io: Io): Promise<number> {
  const [before, after] = [readReport(oldPath, 'compare'), readReport(newPath, 'compare')];
  const result = compareReports(before, after);
  if (before.target.baseUrl !== after.target.baseUrl) io.out(`Note: the two reports checked different targets (${before.target.baseUrl}, ${after.target.baseUrl}).\n`);
  io.out(`${renderComparison(result)}\n`);
  return result.exitCode;
}
