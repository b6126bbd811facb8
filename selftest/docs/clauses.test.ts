import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromPackage } from '../../src/paths.ts';
import { renderClausesDoc, specHeadings } from './clauses.ts';

const read = (...parts: string[]) => readFileSync(fromPackage(...parts), 'utf8');

describe('docs/clauses.md', () => {
  it('is what npm run docs writes from spec/clauses.yaml today (run npm run docs after editing the catalogue)', () => {
    const expected = renderClausesDoc(read('spec', 'clauses.yaml'), read('spec', 'service-spec.md'));
    expect(read('docs', 'clauses.md') === expected, 'docs/clauses.md is stale: run npm run docs').toBe(true);
  });

  it('groups the clauses under the spec headings, in section order, each with its level and quoted sentence', () => {
    const yaml = [
      'clauses:',
      '  - { id: b.two, section: "4.10", level: SHOULD, title: Second, sentence: "Line one.\\n\\n| a | b |", operations: [listPets] }',
      "  - { id: a.one, section: '4.2', level: MUST, title: First, sentence: 'Quoted.', basis: 'RFC 1 §2', operations: [createPet] }",
      "  - { id: c.three, section: '9', level: OBSERVE, title: Third, sentence: 'Silent.', operations: [getPet] }",
    ].join('\n');
    const spec = '# T\n\n## 4. Endpoints\n\n### 4.2 Add an animal: `POST /pets`\n\n### 4.10 Later\n';
    const text = renderClausesDoc(yaml, spec);
    expect(text.indexOf('## §4.2 Add an animal: `POST /pets`')).toBeLessThan(text.indexOf('## §4.10 Later'));
    expect(text.indexOf('## §4.10 Later')).toBeLessThan(text.indexOf('## §9\n'));
    expect(text).toContain('### `a.one` · MUST\n\nFirst · `createPet`\n\n> Quoted.\n\nBasis: RFC 1 §2');
    expect(text).toContain('> Line one.\n>\n> | a | b |');
    expect(text).toContain('3 clauses: 1 MUST');
  });

  it('marks a clause judged on every answer of its operations (COMMON_CHECKS), and no other', () => {
    const yaml = [
      'clauses:',
      "  - { id: messages.status-queued, section: '4.5', level: MUST, title: Queued, sentence: 'Q.', operations: [sendMessage] }",
      "  - { id: messages.echo, section: '4.5', level: MUST, title: Echo, sentence: 'E.', operations: [sendMessage] }",
    ].join('\n');
    const text = renderClausesDoc(yaml, '# T\n');
    expect(text).toContain('Queued · `sendMessage` · *every answer*\n');
    expect(text).toContain('Echo · `sendMessage`\n');
  });

  it('reads every numbered heading of the spec', () => {
    const headings = specHeadings(read('spec', 'service-spec.md'));
    expect(headings.get('4.1')).toMatch(/^List animals/);
    expect(headings.get('9')).toBe('Versioning');
  });
});
