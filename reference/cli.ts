// Standalone entry point: node bin/reference.mjs [options]

import { DEVIATIONS } from './deviations.ts';
import { HOSTILE_MODES, hostileMode, startHostile } from './hostile.ts';
import { startReference, type RunningReference } from './server.ts';

const USAGE = `Usage: npx animal-store-conformance reference [options]
       (or node bin/reference.mjs [options] in a clone)

Starts the hand-written Animal Store reference server.

Options:
  --port N             main port, operations under /v1 (default 8080; 0 = any free port)
  --messages-port N    port of POST /messages (default 8081; 0 = any free port)
  --host HOST          address to listen on (default 127.0.0.1)
  --api-key KEY        accepted bearer token (default: $API_KEY, else "dev-key")
  --deviation ID       switch on a deviation (repeatable); see --list-deviations
  --no-seed            start with an empty store
  --hostile MODE       start a hostile transport server instead, on the same host and ports
                       (see --list-deviations; the hostile- prefix may be left out)
  --list-deviations    print the deviation catalogue and hostile modes, then exit
  --help               print this help and exit
`;

interface Args {
  port: number;
  messagesPort: number;
  host: string;
  apiKey: string;
  deviations: string[];
  seed: boolean;
  hostile?: string;
  list: boolean;
  help: boolean;
}

class UsageError extends Error {}

function parsePort(flag: string, value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UsageError(`${flag}: not a port number: ${JSON.stringify(value)}`);
  return Number(value);
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): Args {
  const args: Args = {
    port: 8080,
    messagesPort: 8081,
    host: '127.0.0.1',
    apiKey: env['API_KEY'] || 'dev-key',
    deviations: [],
    seed: true,
    list: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string => {
      if (eq !== -1) return arg.slice(eq + 1);
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      i += 1;
      return next;
    };
    switch (flag) {
      case '--port':
        args.port = parsePort(flag, value());
        break;
      case '--messages-port':
        args.messagesPort = parsePort(flag, value());
        break;
      case '--host':
        args.host = value();
        break;
      case '--api-key':
        args.apiKey = value();
        if (args.apiKey === '') throw new UsageError('--api-key must not be empty');
        break;
      case '--deviation':
        args.deviations.push(value());
        break;
      case '--hostile':
        try {
          args.hostile = hostileMode(value()).id;
        } catch (error) {
          throw new UsageError(`--hostile: ${(error as Error).message}`);
        }
        break;
      case '--no-seed':
        args.seed = false;
        break;
      case '--list-deviations':
        args.list = true;
        break;
      case '--help':
      case '-h':
        args.help = true;
        break;
      default:
        throw new UsageError(`unknown option: ${arg}`);
    }
  }
  return args;
}

function listCatalogue(): string {
  const lines = DEVIATIONS.map((d) => `${d.id}\t${d.kind}${d.breaks ? `\tbreaks ${d.breaks}` : ''}\t${d.description}`);
  const hostile = HOSTILE_MODES.map((m) => `${m.id}\thostile\t${m.description}`);
  return [...lines, ...hostile].join('\n') + '\n';
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`reference: ${error.message} (see --help)\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.list) {
    process.stdout.write(listCatalogue());
    return;
  }

  let running: RunningReference;
  try {
    running = args.hostile
      ? await startHostile(args.hostile, { apiKey: args.apiKey, host: args.host, port: args.port, messagesPort: args.messagesPort })
      : await startReference({
          apiKey: args.apiKey,
          deviations: args.deviations,
          seedPets: args.seed,
          host: args.host,
          port: args.port,
          messagesPort: args.messagesPort,
        });
  } catch (error) {
    process.stderr.write(`reference: ${(error as Error).message}\n`);
    process.exit(2);
  }

  const what = args.hostile ?? (args.deviations.length > 0 ? `deviations: ${args.deviations.join(', ')}` : 'faithful (no deviations)');
  process.stdout.write(
    `reference server listening (${what})\n` +
      `  baseUrl:         ${running.baseUrl}   (operations under /v1)\n` +
      `  messagesBaseUrl: ${running.messagesBaseUrl}   (POST /messages)\n`,
  );

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
