/**
 * The headings of the service specification (spec/service-spec.md) by section number, read from the
 * spec on first use. The report model carries only a clause's section number; the writers name the
 * section with these (`§4.1 List animals: GET /pets`). An unknown section is shown by its number.
 */
import { readFileSync } from 'node:fs';
import { fromPackage } from '../paths.ts';

export const SERVICE_SPEC_PATH = fromPackage('spec', 'service-spec.md');

/**
 * A heading as the reports show it: code marks dropped, the operation's name left to the clause
 * (`List animals: GET /pets`), a trailing `— deprecated` put in parentheses.
 */
function headingTitle(heading: string): string {
  return heading
    .replace(/\s*\(operation name `[^`]*`\)/g, '')
    .replace(/\s+[—–]\s+(.+)$/, ' ($1)')
    .replace(/`/g, '')
    .trim();
}

/** Every numbered heading of a Markdown text (`## 1. What…`, `### 4.1 List…`): section number to title. */
export function parseSectionTitles(markdown: string): ReadonlyMap<string, string> {
  const titles = new Map<string, string>();
  for (const [, section, heading] of markdown.matchAll(/^#{2,6}[ \t]+(\d+(?:\.\d+)*)\.?[ \t]+(.+)$/gm)) {
    titles.set(section!, headingTitle(heading!));
  }
  return titles;
}

let titles: ReadonlyMap<string, string> | undefined;

/** The heading text of a section, without its number; '' when unknown. */
export function sectionTitle(section: string): string {
  titles ??= parseSectionTitles(readFileSync(SERVICE_SPEC_PATH, 'utf8'));
  return titles.get(section) ?? '';
}

/** `§4.1 List animals: GET /pets`, or `§4.1` for an unknown section. */
export function sectionLabel(section: string): string {
  const title = sectionTitle(section);
  return title ? `§${section} ${title}` : `§${section}`;
}
