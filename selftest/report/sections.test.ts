import { describe, expect, it } from 'vitest';
import { compareSections } from '../../src/contract/clauses.ts';
import { parseSectionTitles, sectionLabel, sectionTitle } from '../../src/report/sections.ts';

/** The headings the reports showed while they were a hand copy of spec/service-spec.md's. */
const SHOWN_BEFORE: Readonly<Record<string, string>> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '2.1': 'Animal (Pet) as returned',
  '2.2': 'Animal input (NewPet)',
  '2.3': 'List of animals (Pets)',
  '2.4': 'Error',
  '2.5': 'Gaps',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '4.1': 'List animals: GET /pets',
  '4.2': 'Add an animal: POST /pets',
  '4.3': 'Get an animal: GET /pets/{petId} (deprecated)',
  '4.4': 'Store orders: GET /store/orders',
  '4.5': 'Quickstart message operation',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

describe('section titles, read from the spec', () => {
  it('are the headings of spec/service-spec.md as the reports showed them', () => {
    for (const [section, title] of Object.entries(SHOWN_BEFORE)) expect(sectionTitle(section), section).toBe(title);
    expect(sectionLabel('4.1')).toBe('§4.1 List animals: GET /pets');
  });

  it('show an unknown section by its number', () => {
    expect(sectionTitle('4.9')).toBe('');
    expect(sectionLabel('4.9')).toBe('§4.9');
  });

  it('take only numbered headings, with or without a dot after the number', () => {
    const titles = parseSectionTitles('# Title\n\n## 10. Later `thing`\ntext ## 11 not a heading\n#### 10.2 Deep — removed\n');
    expect([...titles]).toEqual([
      ['10', 'Later thing'],
      ['10.2', 'Deep (removed)'],
    ]);
  });
});

describe('compareSections', () => {
  it('orders section numbers naturally, a section before its subsections', () => {
    expect(['10', '4.10', '4', '2.5', '4.1', '4.2'].sort(compareSections)).toEqual(['2.5', '4', '4.1', '4.2', '4.10', '10']);
  });

  it('compares a part that is not a number as text (a report.json of another version)', () => {
    expect(['4.b', '4.a', '4.1'].sort(compareSections)).toEqual(['4.1', '4.a', '4.b']);
    expect(compareSections('4.a', '4.a')).toBe(0);
  });
});
