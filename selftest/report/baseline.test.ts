import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaseline, loadBaseline, markKnown, parseBaseline, renderBaselineResult, type Baseline } from '../../src/report/baseline.ts';
import { makeReport } from './fixture.ts';
import { tempDir } from './helpers.ts';

const dir = tempDir('baseline-');
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text, 'utf8');
  return path;
}

describe('loadBaseline', () => {
  it('reads YAML and JSON', async () => {
    const yamlPath = file(
      'baseline.yaml',
      `# known failures\nknown:\n  - clause: list.limit-max\n    reason: clamps instead of rejecting (PETS-123)\n    expires: 2025-12-31\n  - clause: "create.invalid-400"\n    reason: fix scheduled\n`,
    );
    expect(await loadBaseline(yamlPath)).toEqual({
      known: [
        { clause: 'list.limit-max', reason: 'clamps instead of rejecting (PETS-123)', expires: '2025-12-31' },
        { clause: 'create.invalid-400', reason: 'fix scheduled' },
      ],
    });
    const jsonPath = file('baseline.json', JSON.stringify({ known: [{ clause: 'auth.required', reason: 'flaky proxy' }] }));
    expect(await loadBaseline(jsonPath)).toEqual({ known: [{ clause: 'auth.required', reason: 'flaky proxy' }] });
    expect(await loadBaseline(file('empty-list.yml', 'known: []\n'))).toEqual({ known: [] });
  });

  it('says which file and what is wrong for a malformed file', async () => {
    const cases: [string, string, RegExp][] = [
      ['missing.yaml', '', /the file is empty/],
      ['syntax.json', '{"known": [', /not valid JSON/],
      ['syntax.yaml', 'known: [\n  - clause: x', /not valid YAML/],
      ['top.yaml', '- clause: x\n  reason: y\n', /top level must be an object, got a list/],
      ['noknown.yaml', 'known_failures: []\n', /unknown top-level key "known_failures"/],
      ['notlist.yaml', 'known: true\n', /"known" must be a list, got boolean true/],
      ['noclause.yaml', 'known:\n  - reason: y\n', /known entry 1 \(known\[0\]\) has no clause: give the id of the clause whose failure it accepts/],
      ['noreason.yaml', 'known:\n  - clause: list.limit-max\n', /known entry 1 \(known\[0\]\) \(clause list\.limit-max\) has no reason: say why its failure is accepted/],
      ['nullreason.yaml', 'known:\n  - clause: list.limit-max\n    reason:\n', /known entry 1 \(known\[0\]\): reason must be a non-empty string .*clause list\.limit-max\), got null/],
      ['baddate.yaml', 'known:\n  - clause: a\n    reason: b\n    expires: 2025-13-01\n', /known entry 1 \(known\[0\]\): expires must be a date written YYYY-MM-DD \(clause a\), got "2025-13-01"/],
      ['baddate2.json', '{"known":[{"clause":"a","reason":"b","expires":"31/12/2025"}]}', /expires must be a date written YYYY-MM-DD/],
      ['extra.yaml', 'known:\n  - clause: a\n    reason: b\n    owner: me\n', /known entry 1 \(known\[0\]\) has an unknown key "owner"/],
      ['dup.yaml', 'known:\n  - clause: a\n    reason: b\n  - clause: a\n    reason: c\n', /clause "a" is listed twice: known entry 1 \(known\[0\]\) and known entry 2 \(known\[1\]\)\./],
    ];
    for (const [name, text, message] of cases) {
      const path = file(name, text);
      const err = await loadBaseline(path).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err, name).toBeInstanceOf(Error);
      expect(err!.message, name).toContain(path);
      expect(err!.message, name).toMatch(message);
      expect(err!.message, name).not.toMatch(/undefined/);
    }
    const gone = join(dir, 'does-not-exist.yaml');
    await expect(loadBaseline(gone)).rejects.toThrow(`Cannot read baseline file ${gone}: no such file`);
  });

  it('names an entry as a person counts the list, from 1, with its 0-based index beside it, in every message', () => {
    const good = { clause: 'a', reason: 'r' };
    const fourth = (entry: unknown) => () => parseBaseline({ known: [good, { ...good, clause: 'b' }, { ...good, clause: 'c' }, entry] }, 'list.yaml');
    expect(fourth('x')).toThrow('known entry 4 (known[3]) must be an object, got "x"');
    expect(fourth({ ...good, clause: 'd', owner: 'me' })).toThrow('known entry 4 (known[3]) has an unknown key "owner"');
    expect(fourth({ reason: 'r' })).toThrow('known entry 4 (known[3]) has no clause');
    expect(fourth({ clause: 'd' })).toThrow('known entry 4 (known[3]) (clause d) has no reason');
    expect(fourth({ clause: 'd', reason: '' })).toThrow('known entry 4 (known[3]): reason must be a non-empty string saying why the failure is accepted (clause d), got ""');
    expect(fourth({ ...good, clause: 'd', expires: 'soon' })).toThrow('known entry 4 (known[3]): expires must be a date written YYYY-MM-DD (clause d), got "soon"');
    expect(fourth({ ...good, clause: 'b' })).toThrow('clause "b" is listed twice: known entry 2 (known[1]) and known entry 4 (known[3]).');
  });

  it('parseBaseline names its source', () => {
    expect(() => parseBaseline(42, 'inline')).toThrow('Invalid baseline file inline: the top level must be an object, got number 42');
  });
});

describe('applyBaseline', () => {
  // Fixture failing clauses, in report order: create.invalid-400 (fail), auth.required (error), list.limit-max (fail).
  const report = makeReport();
  const baseline: Baseline = {
    known: [
      { clause: 'list.limit-max', reason: 'clamps (PETS-123)', expires: '2025-06-30' },
      { clause: 'create.invalid-400', reason: 'fix scheduled', expires: '2025-05-31' },
      { clause: 'errors.shape', reason: 'used to fail' },
      { clause: 'messages.status-queued', reason: 'messages host down' },
      { clause: '4.9-renamed', reason: 'typo or renamed' },
    ],
  };

  // The fixture's own ids, and one that the catalogue has but the report does not hold.
  const catalogue = [...report.clauses.map((c) => ({ id: c.id })), { id: '4.9-renamed' }];

  it('sorts failures into known, expired and new; reports entries that can go', () => {
    const result = applyBaseline(report, baseline, new Date('2025-06-01T12:00:00Z'), catalogue);
    expect(result.known).toEqual([{ clause: 'list.limit-max', reason: 'clamps (PETS-123)', expires: '2025-06-30' }]);
    expect(result.expired).toEqual([{ clause: 'create.invalid-400', reason: 'fix scheduled', expires: '2025-05-31' }]);
    expect(result.newFailures).toEqual(['create.invalid-400', 'auth.required']);
    expect(result.nowPassing).toEqual([{ clause: 'errors.shape', reason: 'used to fail' }]);
    expect(result.notJudged).toEqual([{ clause: 'messages.status-queued', reason: 'messages host down' }]);
    expect(result.unknownClauses).toEqual([{ clause: '4.9-renamed', reason: 'typo or renamed' }]);
    expect(result.noSuchClause).toEqual([]);
  });

  it('says "no such clause" for an entry naming no clause of spec/clauses.yaml, with the id it most likely meant', async () => {
    const { loadClauses } = await import('../../src/contract/clauses.ts');
    const run = makeReport({ clauses: loadClauses().map((c) => ({ ...c, outcome: c.id === 'create.echo' ? 'fail' : 'pass', checks: [] })) });
    const typo: Baseline = { known: [{ clause: 'create.ecko', reason: 'echoes trimmed names (PETS-7)' }, { clause: 'no-such-thing', reason: 'r' }] };
    // By default the catalogue is spec/clauses.yaml, as the CLI calls it.
    const result = applyBaseline(run, typo, new Date('2025-06-01T12:00:00Z'));
    expect(result.noSuchClause).toEqual([{ clause: 'create.ecko', reason: 'echoes trimmed names (PETS-7)', didYouMean: 'create.echo' }, { clause: 'no-such-thing', reason: 'r' }]);
    expect(result.unknownClauses).toEqual([]);
    expect(result.newFailures).toEqual(['create.echo']);
    const text = renderBaselineResult(result);
    expect(text).toContain('Entries naming no such clause (not in spec/clauses.yaml; they accept nothing) (2):');
    expect(text).toContain('- create.ecko: no such clause (did you mean create.echo?); its reason: echoes trimmed names (PETS-7)');
    expect(text).toContain('- no-such-thing: no such clause; its reason: r');
    expect(text).not.toContain('not in this run');
  });

  it('an entry covers its expiry day and expires the day after (UTC)', () => {
    const onDay = applyBaseline(report, baseline, new Date('2025-06-30T23:59:59Z'), catalogue);
    expect(onDay.known.map((e) => e.clause)).toEqual(['list.limit-max']);
    const after = applyBaseline(report, baseline, new Date('2025-07-01T00:00:00Z'), catalogue);
    expect(after.known).toEqual([]);
    expect(after.expired.map((e) => e.clause)).toEqual(['create.invalid-400', 'list.limit-max']);
    expect(after.newFailures).toEqual(['create.invalid-400', 'auth.required', 'list.limit-max']);
  });

  it('with an empty baseline every failing clause is new', () => {
    const result = applyBaseline(report, { known: [] }, new Date('2025-06-01'));
    expect(result.newFailures).toEqual(['create.invalid-400', 'auth.required', 'list.limit-max']);
    expect(result.known).toEqual([]);
  });

  it('marks the clauses it accepts, with reason and expiry, and no other', () => {
    const marked = makeReport();
    markKnown(marked, applyBaseline(marked, { known: [...baseline.known, { clause: 'auth.required', reason: 'proxy resets' }] }, new Date('2025-06-01T12:00:00Z')));
    const known = marked.clauses.filter((c) => c.known).map((c) => [c.id, c.known]);
    expect(known).toEqual([
      ['auth.required', { reason: 'proxy resets' }],
      ['list.limit-max', { reason: 'clamps (PETS-123)', expires: '2025-06-30' }],
    ]);
  });

  it('renders an account of the result', () => {
    const text = renderBaselineResult(applyBaseline(report, baseline, new Date('2025-06-01T12:00:00Z'), catalogue));
    expect(text).toContain('Baseline: 2 new failures: create.invalid-400, auth.required');
    expect(text).toContain('Known failures (accepted by the baseline) (1):\n- list.limit-max: clamps (PETS-123) (expires 2025-06-30)');
    expect(text).toContain('Now passing: remove these entries from the baseline (1):\n- errors.shape: used to fail');
    expect(text).toContain('Expired entries, failing again (1)');
  });
});
