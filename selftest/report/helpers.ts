/** Shared helpers for the report writers' self-tests. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { validateXML } from 'xmllint-wasm';
import type { RunReport } from '../../src/report/model.ts';
import { tempDir } from '../support/temp-dir.ts';

export const XSD = fileURLToPath(new URL('./junit.xsd', import.meta.url));
export const SCHEMA = fileURLToPath(new URL('../../spec/report.schema.json', import.meta.url));
/** What npm test writes for a human or for .ci/run (git-ignored); reports/ is a conformance run's. */
export const SELFTEST_DIR = fileURLToPath(new URL('../../.selftest/', import.meta.url));

export { tempDir };

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin = ((addFormatsModule as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

/** A strict validator of spec/report.schema.json, formats included. */
export function reportValidator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
}

/**
 * Validates a document against the JUnit XSD with libxml2's xmllint compiled to WebAssembly (the
 * xmllint-wasm devDependency, so no system xmllint is needed); bounded by a timeout. `ok` is true
 * only when xmllint exits 0; `output` is what it printed ("junit.xml validates" or the errors).
 */
export async function xmllint(xml: string): Promise<{ ok: boolean; output: string }> {
  const run = validateXML({ xml: { fileName: 'junit.xml', contents: xml }, schema: { fileName: 'junit.xsd', contents: readFileSync(XSD, 'utf8') } }).then(
    (res) => ({ ok: res.valid, output: res.rawOutput }),
    (error: unknown) => {
      // Another non-zero exit of xmllint (an unreadable document or schema): not valid, as before.
      if (error instanceof Error && typeof (error as { code?: unknown }).code === 'number') return { ok: false, output: error.message };
      throw error;
    },
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('xmllint (wasm) took longer than 20 s')), 20_000);
  });
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Characters a hostile server (or a broken engine) can produce. */
const HOSTILE_UNITS = fc.oneof(
  fc.constantFrom(
    '\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u007f', '\u0085', '\u009b',
    '\ud800', '\udbff', '\udc00', '\udfff', '\ufffe', '\uffff', '\u2028', '\u202e',
    '\r', '\n', '\t', ']]>', '<', '>', '&', '"', "'", '`', '|', '<script>', '</pre>', '-->', '$(rm -rf ~)',
    '🐶', '\ud83d\udc08', 'é', '\u0301',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

/** Deterministic hostile strings (fast-check sample, fixed seed). */
export function hostileStrings(count: number, seed = 4242): string[] {
  return fc.sample(fc.string({ unit: HOSTILE_UNITS, minLength: 1, maxLength: 24 }), { seed, numRuns: count });
}

/** Puts hostile strings into every free-text field of every clause, check, failure and evidence. */
export function poison(report: RunReport, seed = 4242): RunReport {
  const pool = hostileStrings(400, seed);
  let i = 0;
  const next = (): string => pool[i++ % pool.length]!;
  const r = structuredClone(report);
  r.spec.title = `Spec ${next()}`;
  r.target.baseUrl = `https://example.test/${next()}`;
  r.engineErrors = r.engineErrors.concat([next(), next()]);
  r.capabilities.push({ id: next(), title: next(), value: next(), detail: next() });
  for (const c of r.clauses) {
    c.id = `${c.id}${next()}`;
    c.title = next();
    c.sentence = next();
    c.operations = [next()];
    for (const k of c.checks) {
      k.check = next();
      k.note = next();
      for (const f of [k, ...(k.failures ?? [])]) {
        if ('operation' in f) f.operation = next();
        f.expected = next();
        f.actual = next();
        f.counterexample = next();
        f.path = next();
        if (f.evidence) {
          f.evidence.request.url = next();
          f.evidence.request.headers = { [next()]: next() };
          f.evidence.request.body = next();
          f.evidence.curl = next();
          if (f.evidence.response) {
            f.evidence.response.headers = { [next()]: next() };
            f.evidence.response.bodyExcerpt = pool.slice(0, 40).join('');
          }
        }
      }
    }
  }
  return r;
}

/** True when the string contains a UTF-16 code unit that is an unpaired surrogate. */
export function hasLoneSurrogate(s: string): boolean {
  return /(?:[\ud800-\udbff](?![\udc00-\udfff]))|(?:(?<![\ud800-\udbff])[\udc00-\udfff])/.test(s);
}

/** Characters not allowed in XML 1.0 documents. */
export function hasXmlIllegal(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s) || hasLoneSurrogate(s);
}
