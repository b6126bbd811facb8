import { OPTIONS, VARIABLES } from '../config/options.ts';

export function helpText(): string {
  const lines = [
    'Usage: animal-store-conformance [run] [options]',
    '       animal-store-conformance compare OLD.json NEW.json',
    '       animal-store-conformance merge A.json B.json ... [--reports DIR] [--baseline FILE]   (shards of a run as one report; several targets as a matrix)',
    '       animal-store-conformance reference [--port N] [--deviation ID] ...   (the reference server; reference --help)',
    '',
    'Checks a deployment of the Animal Store Service against its specification.',
    'With no base URL configured, it starts the embedded reference server and checks that.',
    '',
    'Options (flags win over the environment, which wins over .env):',
  ];
  const row = (left: string, help: string) => lines.push(left.length < 50 ? left.padEnd(50) + help : `${left}\n${' '.repeat(50)}${help}`);
  for (const [flag, option] of Object.entries(OPTIONS)) {
    row(`  --${flag}${option.type === 'string' ? ' VALUE' : ''}${'env' in option ? ` [${option.env}]` : ''}`, option.help);
  }
  lines.push('', 'Set in the environment or .env only:');
  for (const [name, help] of Object.entries(VARIABLES)) row(`  ${name}`, help);
  lines.push(
    '',
    'Exit codes:',
    '  0  conformant',
    '  1  a clause failed (MUST; SHOULD too with --fail-on should; with --baseline, only new failures)',
    '  2  bad usage: one line naming the setting',
    '  3  the target is unreachable (one line, before any test runs), or a MUST clause went unjudged through',
    "     the target's doing: it got only 429 answers, no categoryId it accepts was known and it refused every",
    '     one tried (name some with --category-ids), an operation went unanswered, answers were longer than',
    "     --max-body or JSON past the suite's own bounds (nesting, members, digits), a listing filtered by a",
    '     status showed none of the animals of it the run created, or --max-duration ran out before the',
    '     clause ran; one line on stderr says which',
    '     (blockedBy in report.json)',
    '  4  the engine itself broke',
    '',
  );
  return lines.join('\n');
}
