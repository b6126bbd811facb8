import { CappedReadError, readCapped } from '../config/read-capped.ts';
import { UsageError } from '../errors.ts';
import type { RunReport } from '../report/model.ts';

/** A report.json of a long run with many failures is a few MB. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** Reads a report.json for `command` (compare, merge); a file that is none is a usage error (exit 2). */
export function readReport(path: string, command: string): RunReport {
  let report: RunReport;
  try {
    report = JSON.parse(readCapped(path, MAX_REPORT_BYTES)) as RunReport;
  } catch (error) {
    const why = error instanceof CappedReadError ? error.message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    throw new UsageError(`${command}: cannot read ${path} as JSON (${why})`);
  }
  if (!Array.isArray(report?.clauses)) throw new UsageError(`${command}: ${path} is not a report.json of animal-store-conformance`);
  return report;
}
