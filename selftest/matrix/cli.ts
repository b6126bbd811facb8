import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { renderMatrix, runMatrix } from './matrix.ts';

// `npm run matrix`: the CLI against every deviation of the reference server, as a table.
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, seed: { type: 'string', default: '424242' }, parallel: { type: 'string', default: '3' }, only: { type: 'string', multiple: true } },
});
const started = performance.now();
const rows = await runMatrix({ runs: Number(values.runs), seed: Number(values.seed), parallel: Number(values.parallel), ids: values.only ?? [] });
const table = renderMatrix(rows);
await mkdir('reports', { recursive: true });
await writeFile('reports/matrix.md', `${table}\n`);
process.stderr.write(`wall ${((performance.now() - started) / 1000).toFixed(1)} s · written to reports/matrix.md\n`);
process.stdout.write(`${table}\n`);
process.exitCode = rows.every((row) => row.ok) ? 0 : 1;
