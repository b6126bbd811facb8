import { CappedReadError, readCapped } from '../config/read-capped.ts';
import { UsageError } from '../errors.ts';
import { compareReports, renderComparison } from '../report/compare.ts';
import type { RunReport } from '../report/model.ts';
import type { Io } from './io.ts';

/** A report.json of a long run with many failures is a few MB. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** `compare OLD.json NEW.json`: what changed between two runs; returns the exit code. */
export async function compare([oldPath, newPath]: [string, string], io: Io): Promise<number> {
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
