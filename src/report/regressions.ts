import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { shellQuote } from '../http/curl.ts';
import { stringifyJson } from '../json/lossless.ts';
import { redactText } from '../secrets.ts';
import { failuresOf } from './failures.ts';
import type { RunReport, StoryEvidence } from './model.ts';

/** Where the replay function a regression test calls lives, from the package root. */
const REPLAY_MODULE = 'tests/support/sequence/regression.ts';

/** A file name from a clause id and a seed: `state.id-keeps-naming-1234`. */
function baseName(clause: string, seed: number): string {
  return `${clause.replace(/[^a-z0-9.-]/gi, '_')}-${seed}`;
}

const CREATED_ID = /^2\d\d\b[^{]*\{.*?"id"\s*:\s*"?(\d+)/;

/**
 * The story's curl lines as a shell script: each echoed before it runs, as shown (the key stays
 * `$API_KEY`: no `set -x`, which would print it), and each id an answer gave to a created animal
 * read from that answer and used in the steps after it, so the story runs on the ids it is given now.
 */
export function storyScript(clauseId: string, story: StoryEvidence): string {
  const answers = story.steps.flatMap((step) => step.requests.map((request) => request.answer));
  const ids: { id: string; variable: string }[] = [];
  const lines = story.curl.flatMap((line, i) => {
    let command = line;
    for (const { id, variable } of ids) command = command.replace(new RegExp(`/pets/${id}(?=['?/#])`, 'g'), `/pets/'"$${variable}"'`);
    const created = /^(?:printf '[^']*' \| )?curl .* -X POST '[^']*\/pets'/.test(line) ? CREATED_ID.exec(answers[i] ?? '')?.[1] : undefined;
    if (!created) return [`echo ${shellQuote(`+ ${command}`)}`, command];
    const variable = `id${ids.length + 1}`;
    ids.push({ id: created, variable });
    return [`echo ${shellQuote(`+ ${command}`)}`, `answer=$(${command})`, 'printf \'%s\\n\' "$answer"', `${variable}=$(printf '%s' "$answer" | sed -n 's/.*"id"[[:space:]]*:[[:space:]]*"\\{0,1\\}\\([0-9][0-9]*\\).*/\\1/p' | head -n 1)`];
  });
  const header = `# The story that broke ${clauseId}, as this run sent it; reads the key from $API_KEY.${ids.length ? ' Each animal it creates is asked for by the id its answer gives now.' : ''}`;
  return ['#!/bin/sh', header, ...lines, ''].join('\n');
}

/** Each check's first failure told as a story: the one its regression files are written for. */
function storiesToWrite(report: RunReport): { clause: RunReport['clauses'][number]; story: StoryEvidence }[] {
  return report.clauses.flatMap((clause) =>
    clause.checks.flatMap((check) => {
      const story = failuresOf(check).find((failure) => failure.story)?.story;
      return story ? [{ clause, story }] : [];
    }),
  );
}

/** Names in each story the script writeRegressions will write for it, so every report can point to it. */
export function nameStoryScripts(report: RunReport): void {
  for (const { clause, story } of storiesToWrite(report)) story.script = `regressions/${baseName(clause.id, report.seed)}.sh`;
}

/**
 * For every failure told as a story (a sequence of calls), two files in `<reports>/regressions/`:
 * a vitest test that replays the steps through the suite (`--replay <file>`), for an implementer to
 * keep in CI, and a shell script of the story's curl lines. Returns the test files written.
 */
export async function writeRegressions(report: RunReport, reportsDir: string, packageRoot: string, secrets: readonly string[]): Promise<string[]> {
  const written: string[] = [];
  const dir = join(reportsDir, 'regressions');
  for (const { clause, story } of storiesToWrite(report)) {
    await mkdir(dir, { recursive: true });
    const name = baseName(clause.id, report.seed);
    const testFile = join(dir, `${name}.test.ts`);
    let module = relative(dirname(testFile), join(packageRoot, REPLAY_MODULE)).split(sep).join('/');
    if (!module.startsWith('.')) module = `./${module}`;
    const test = [
      `// Regression test written by animal-store-conformance: the story that broke ${clause.id} (§${clause.section}, ${clause.level}),`,
      `// met with --seed ${report.seed} against ${report.target.baseUrl} on ${report.startedAt.slice(0, 10)}.`,
      `// Replays its ${story.steps.length === 1 ? 'one step' : `${story.steps.length} steps`} through the suite (fresh ids, the same calls): it fails while the bug is there.`,
      `// Run it: npx animal-store-conformance --replay ${testFile.split(sep).join('/')}`,
      `import { regression } from '${module}';`,
      '',
      `regression(${JSON.stringify(clause.id)}, ${report.seed}, ${JSON.stringify(stringifyJson(story.calls))});`,
      '',
    ].join('\n');
    const script = storyScript(clause.id, story);
    await writeFile(testFile, redactText(test, secrets));
    await writeFile(join(dir, `${name}.sh`), redactText(script, secrets), { mode: 0o755 });
    written.push(testFile);
  }
  return written;
}
