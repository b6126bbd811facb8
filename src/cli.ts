import { resolveSettings } from './config/settings.ts';
import { exitCodeOf } from './errors.ts';
import { PACKAGE_VERSION } from './paths.ts';
import { keyForms, redactText, secretForms } from './secrets.ts';
import { compare } from './cli/compare.ts';
import { helpText } from './cli/help.ts';
import { processIo, type Io } from './cli/io.ts';
import { merge } from './cli/merge.ts';
import { run } from './cli/run.ts';

export type { Io };

/** The whole command line; returns the exit code. */
export async function main(argv: string[], io: Io = processIo, environment: NodeJS.ProcessEnv = process.env): Promise<number> {
  let secrets: string[] = [];
  try {
    const settings = resolveSettings(argv, environment);
    if (settings.apiKey) secrets = keyForms(settings.apiKey);
    secrets.push(...settings.otherSecrets.flatMap(secretForms));
    switch (settings.command) {
      case 'help':
        io.out(helpText());
        return 0;
      case 'version':
        io.out(`${PACKAGE_VERSION}\n`);
        return 0;
      case 'compare':
        return await compare(settings.compareFiles as [string, string], io);
      case 'merge':
        return await merge(settings.mergeFiles, settings.reportsDir, io, { ...(settings.baseline ? { baseline: settings.baseline } : {}), now: settings.now });
      default:
        return await run(settings, io);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = exitCodeOf(error);
    const detail = code === 4 && error instanceof Error && error.stack ? `\n${error.stack}` : '';
    io.err(redactText(`animal-store-conformance: ${message}${detail}\n`, secrets));
    return code;
  }
}
