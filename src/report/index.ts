/** The report writers: one pure renderer per artifact, and writeReports to put them on disk. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RunReport } from './model.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderSummary } from './summary.ts';
import type { RenderOptions } from './format.ts';

export type * from './model.ts';
export { renderJunit } from './junit.ts';
export { renderJson, toCanonicalJson } from './json.ts';
export { renderHtml } from './html.ts';
export { renderSummary, SUMMARY_MAX_FAILURES } from './summary.ts';
export { renderTerminal, type TerminalOptions } from './terminal.ts';
export {
  compareReports,
  renderComparison,
  type ClauseChange,
  type ClauseCategory,
  type ReportComparison,
} from './compare.ts';
export {
  applyBaseline,
  loadBaseline,
  markKnown,
  parseBaseline,
  renderBaselineResult,
  type Baseline,
  type BaselineEntry,
  type BaselineResult,
} from './baseline.ts';
export { redactReport, redactText, SECRET_PLACEHOLDER } from '../secrets.ts';
export type { RenderOptions } from './format.ts';
export { sanitizeText } from './sanitize.ts';
export { sectionLabel, sectionTitle } from './sections.ts';

export interface WriteReportsOptions extends RenderOptions {
  /** File names inside dir; defaults junit.xml, report.json, report.html, summary.md. */
  names?: Partial<Record<'junit' | 'json' | 'html' | 'summary', string>>;
}

/** The four reports' file names inside the reports folder. */
export const REPORT_FILES = { junit: 'junit.xml', json: 'report.json', html: 'report.html', summary: 'summary.md' } as const;

export interface WrittenReports {
  junit: string;
  json: string;
  html: string;
  summary: string;
}

/**
 * Renders the four file artifacts and writes them into dir (created if missing).
 * Returns the absolute paths written. Every secret in options.secrets is replaced with $API_KEY.
 */
export async function writeReports(
  report: RunReport,
  dir: string,
  options: WriteReportsOptions = {},
): Promise<WrittenReports> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const names = {
    junit: options.names?.junit ?? REPORT_FILES.junit,
    json: options.names?.json ?? REPORT_FILES.json,
    html: options.names?.html ?? REPORT_FILES.html,
    summary: options.names?.summary ?? REPORT_FILES.summary,
  };
  const render = { secrets: options.secrets };
  const files: [keyof WrittenReports, string][] = [
    ['junit', renderJunit(report, render)],
    ['json', renderJson(report, render)],
    ['html', renderHtml(report, render)],
    ['summary', renderSummary(report, render)],
  ];
  const paths = {} as WrittenReports;
  await Promise.all(
    files.map(async ([kind, text]) => {
      const path = join(root, names[kind]);
      await writeFile(path, text, 'utf8');
      paths[kind] = path;
    }),
  );
  return paths;
}
