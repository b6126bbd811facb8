import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromPackage } from '../../src/paths.ts';
import { MATRIX_DOC, withMatrix } from './doc.ts';

describe('the fault matrix page', () => {
  it('replaces only what lies between the markers', () => {
    const doc = 'intro\n<!-- matrix:start -->\nold table\n<!-- matrix:end -->\nafter\n';
    expect(withMatrix(doc, '| new |\n')).toBe('intro\n<!-- matrix:start -->\n| new |\n<!-- matrix:end -->\nafter\n');
  });

  it('refuses a page without the markers', () => {
    expect(() => withMatrix('no markers', '| t |')).toThrow(/matrix:start/);
  });

  it('holds a table between its markers, and one pair only', () => {
    const doc = readFileSync(fromPackage(...MATRIX_DOC), 'utf8');
    expect(doc.split('<!-- matrix:start -->')).toHaveLength(2);
    expect(withMatrix(doc, doc.slice(doc.indexOf('<!-- matrix:start -->') + 21, doc.indexOf('<!-- matrix:end -->')))).toBe(doc);
    expect(doc).toMatch(/<!-- matrix:start -->\n\| deviation \| kind \|/);
  });
});
