import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEVIATIONS } from '../../reference/deviations.ts';
import { HOSTILE_MODES } from '../../reference/hostile.ts';
import { fromPackage } from '../../src/paths.ts';
import { MATRIX_DOC, withMatrix } from './doc.ts';
import { renderMatrix, runMatrix, scheduleOf } from './matrix.ts';

// `npm run matrix`: the CLI against every deviation of the reference server, as a table, written to
// reports/matrix.md and, for a whole matrix (no --only, no --delay, --schedule sequential or none), into docs/fault-matrix.md.
// --only ID (repeated, or IDS separated by commas) runs those rows alone.
// --schedule concurrent runs every row with the scenarios side by side, as across a network.
// --delay MS puts every row that far away (a TCP proxy holding every answer) and, unless --schedule
// says otherwise, lets each run choose its schedule from the round trip, as a CI gate against staging does.
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, seed: { type: 'string', default: '424242' }, parallel: { type: 'string', default: '3' }, only: { type: 'string', multiple: true }, schedule: { type: 'string' }, delay: { type: 'string' } },
});
const started = performance.now();
/** A setting the matrix cannot take: one line, no stack trace. */
function usage(message: string): never {
  process.stderr.write(`npm run matrix: ${message}\n`);
  process.exit(2);
}
const ids = (values.only ?? []).flatMap((only) => only.split(',')).filter(Boolean);
const unknown = ids.filter((id) => !DEVIATIONS.some((d) => d.id === id) && !HOSTILE_MODES.some((m) => m.id === id));
if (unknown.length) usage(`--only: no deviation or hostile mode ${unknown.join(', ')} (npm run reference -- --list-deviations)`);
const delayMs = values.delay === undefined ? undefined : Number(values.delay);
if (delayMs !== undefined && !(Number.isInteger(delayMs) && delayMs > 0)) usage(`--delay: a whole number of ms above 0, not ${values.delay}`);
const schedule = values.schedule;
if (schedule !== undefined && schedule !== 'sequential' && schedule !== 'concurrent' && schedule !== 'auto') usage(`--schedule: sequential, concurrent or auto, not ${schedule}`);
const rows = await runMatrix({ runs: Number(values.runs), seed: Number(values.seed), parallel: Number(values.parallel), ids, ...(schedule ? { schedule } : {}), ...(delayMs ? { delayMs } : {}) });
const table = renderMatrix(rows);
await mkdir('reports', { recursive: true });
await writeFile('reports/matrix.md', `${table}\n`);
const written = ['reports/matrix.md'];
if (ids.length === 0 && scheduleOf({ schedule, delayMs }) === 'sequential' && !delayMs) {
  const doc = fromPackage(...MATRIX_DOC);
  await writeFile(doc, withMatrix(await readFile(doc, 'utf8'), table));
  written.push(MATRIX_DOC.join('/'));
}
process.stderr.write(`wall ${((performance.now() - started) / 1000).toFixed(1)} s · written to ${written.join(' and ')}\n`);
process.stdout.write(`${table}\n`);
process.exitCode = rows.every((row) => row.ok) ? 0 : 1;
