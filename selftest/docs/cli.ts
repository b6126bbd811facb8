import { readFileSync, writeFileSync } from 'node:fs';
import { fromPackage } from '../../src/paths.ts';
import { renderClausesDoc } from './clauses.ts';

// `npm run docs`: writes docs/clauses.md from spec/clauses.yaml (selftest/docs/clauses.test.ts fails while it is stale).
const text = renderClausesDoc(readFileSync(fromPackage('spec', 'clauses.yaml'), 'utf8'), readFileSync(fromPackage('spec', 'service-spec.md'), 'utf8'));
writeFileSync(fromPackage('docs', 'clauses.md'), text);
process.stdout.write(`docs/clauses.md written (${text.split('\n').length} lines)\n`);
