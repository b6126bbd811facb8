import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { PIPELINE_DEPTH } from '../src/suite/config.ts';
import { floorRate, mixFloorRate, type FloorKind, type FloorRate, type MixRequest } from './floor.ts';
import { startRecordingProxy, type RecordedRequest, type RecordingProxy } from '../selftest/support/recording-proxy.ts';
import { startReferenceProcess, type ReferenceProcess } from '../selftest/support/reference-process.ts';
import { runCli } from '../selftest/support/run-cli.ts';

// `npm run bench`: the full run against the reference server in its own process, as a user's server
// would be, for several --runs; and autocannon on GET /v1/pets?limit=20 at the same concurrency for
// the raw client rate. Two settings: the default (properties keep PIPELINE_DEPTH requests in flight)
// and --concurrency 1 (one at a time). Every run and every autocannon measurement gets a fresh
// server: a store that earlier runs filled with long names answers that listing with bigger bodies.
// The suite's requests cost the server more than that GET (most are POSTs, most of them refused),
// so autocannon also sends the suite's own requests, recorded through a proxy in one extra run: the
// share of that rate is the suite's own overhead, with the server's work held equal.
// autocannon measures a server it has warmed for 2 s, so each suite run gets a server warmed the same
// way, by 2 s per host of the suite's recorded requests (--cold: a fresh server straight away; its
// JIT warm-up then costs it ~60 µs more per request over a --runs 400 run).
// Options: --runs=25,100,400 (the rows), --repeat=3 (rounds; medians are shown), --settings=default,c1,
// --cold.
// Measured as users run them: the bundles, never the sources through tsx (which adds ~170 MB).
execFileSync(process.execPath, [fileURLToPath(new URL('../bin/build.mjs', import.meta.url))], { stdio: 'inherit' });
const KEY = 'bench-key-0123456789';
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = (option('runs') ?? '25,100,400').split(',').map(Number);
const REPEAT = Number(option('repeat') ?? 3);
const WORKERS = 1;
const COLD = process.argv.includes('--cold');
const SETTINGS = [
  { name: 'default', args: [] as string[], connections: PIPELINE_DEPTH },
  { name: '--concurrency 1', args: ['--concurrency', '1'], connections: 1 },
].filter((s) => !option('settings') || option('settings')!.split(',').includes(s.name === 'default' ? 'default' : 'c1'));
if (SETTINGS.length === 0) throw new Error(`--settings=${option('settings')}: name default, c1 or both (comma-separated)`);

const startServer = () => startReferenceProcess(['--port', '0', '--messages-port', '0', '--api-key', KEY]);

/** CPU seconds the server process has used (Linux /proc; undefined elsewhere). */
function serverCpuSeconds(server: ReferenceProcess): number | undefined {
  try {
    const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat, in clock ticks of 1/100 s on Linux.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

interface Measured {
  /** The reference server's CPU per request, µs. */
  serverCpuUs?: number;
}

/** Runs `work` and adds the server's CPU per request it made (left out where /proc is missing). */
async function withServerCpu<T extends object>(server: ReferenceProcess, work: () => Promise<T>, requests: (result: T) => number): Promise<T & Measured> {
  const before = serverCpuSeconds(server);
  const result: T = await work();
  const after = serverCpuSeconds(server);
  return before !== undefined && after !== undefined ? { ...result, serverCpuUs: ((after - before) / requests(result)) * 1e6 } : result;
}

/** autocannon against a fresh server, after a warm-up (a cold server's JIT skews the first seconds). */
async function autocannonRate(target: (server: ReferenceProcess) => string, options: Omit<autocannon.Options, 'url' | 'duration'>, seconds: number): Promise<{ rps: number; total: number } & Measured> {
  const server = await startServer();
  try {
    const url = target(server);
    await autocannon({ ...options, url, duration: 2 });
    return await withServerCpu(
      server,
      async () => {
        const result = await autocannon({ ...options, url, duration: seconds });
        if (result.errors > 0 || result.timeouts > 0) throw new Error(`autocannon on ${url}: ${result.errors} errors, ${result.timeouts} timeouts`);
        return { rps: result.requests.average, total: result.requests.total };
      },
      (measured) => measured.total,
    );
  } finally {
    server.child.kill('SIGTERM');
  }
}

/** A floor (bench/floor.ts) against a fresh server, after a 2 s warm-up of the same loop. */
async function floor(kind: FloorKind, connections: number, seconds: number): Promise<FloorRate & Measured> {
  const server = await startServer();
  try {
    await floorRate(kind, server.baseUrl, KEY, connections, 2);
    return await withServerCpu(server, () => floorRate(kind, server.baseUrl, KEY, connections, seconds), (measured) => measured.requests);
  } finally {
    server.child.kill('SIGTERM');
  }
}

/** The recorded mix as the suite's client replays it against this server, in the order the run sent it. */
function mixRequests(server: ReferenceProcess, mix: Mix): MixRequest[] {
  const of = (base: string, requests: RecordedRequest[]) => requests.map((r) => ({ at: r.span?.start ?? 0, request: { base, method: r.method, path: r.path, headers: r.headers ?? {}, ...(r.body ? { body: r.body } : {}) } }));
  return [...of(server.baseUrl, mix.main), ...of(server.messagesBaseUrl, mix.messages)].sort((a, b) => a.at - b.at).map(({ request }) => request);
}

/** The client floor on the suite's own mix (bench/floor.ts), against a fresh server, after a 2 s warm-up of the same loop. */
async function mixFloor(mix: Mix, connections: number, seconds: number): Promise<FloorRate & Measured> {
  const server = await startServer();
  try {
    const requests = mixRequests(server, mix);
    await mixFloorRate(requests, connections, 2);
    return await withServerCpu(server, () => mixFloorRate(requests, connections, seconds), (measured) => measured.requests);
  } finally {
    server.child.kill('SIGTERM');
  }
}

const rawRate = (seconds: number, connections: number) =>
  autocannonRate((server) => `${server.baseUrl}/v1/pets?limit=20`, { connections, headers: { authorization: `Bearer ${KEY}` } }, seconds);

/** The CLI's arguments for a run against these hosts. */
const cliArgs = (baseUrl: string, messagesBaseUrl: string, runs: number, extraArgs: string[]) => [
  ...['--base-url', baseUrl, '--messages-base-url', messagesBaseUrl, '--runs', String(runs), '--seed', '1', '--workers', String(WORKERS), '--quiet'],
  ...extraArgs,
];

/** The requests one run sent, per host, in the order sent. */
interface Mix {
  main: RecordedRequest[];
  messages: RecordedRequest[];
}

async function recordMix(runs: number, extraArgs: string[]): Promise<Mix> {
  const server = await startServer();
  let main: RecordingProxy | undefined;
  let messages: RecordingProxy | undefined;
  try {
    main = await startRecordingProxy(server.baseUrl, undefined, { whole: true });
    messages = await startRecordingProxy(server.messagesBaseUrl, undefined, { whole: true });
    const result = await runCli(cliArgs(main.url, messages.url, runs, extraArgs), { API_KEY: KEY }, { timeoutMs: 600_000 });
    if (result.code !== 0) throw new Error(`the recording run exited ${result.code}: ${result.stderr.slice(0, 300)}`);
    return { main: main.requests, messages: messages.requests };
  } finally {
    await main?.close();
    await messages?.close();
    server.child.kill('SIGTERM');
  }
}

/**
 * The recorded requests as autocannon sends them, HEAD left out: autocannon reads a body after every
 * answer, so the Content-Length of a HEAD answer stalls its connection for the rest of the run.
 */
const replay = (requests: RecordedRequest[]): autocannon.Request[] =>
  requests.filter(({ method }) => method !== 'HEAD').map(({ method, path, headers, body }) => ({ method: method as autocannon.Request['method'], path, headers, body }));

/** The warm-up autocannon's own measurements get: 2 s per host of the suite's recorded requests. */
async function warmUp(server: ReferenceProcess, mix: Mix, connections: number): Promise<void> {
  for (const [url, requests] of [[server.baseUrl, mix.main], [server.messagesBaseUrl, mix.messages]] as const) {
    if (requests.length) await autocannon({ url, connections, requests: replay(requests), duration: 2 });
  }
}

/**
 * autocannon sending a recorded mix again, each host's requests in their order (one cycle per
 * connection), against a fresh server; the two hosts in turn, combined in the mix's proportions.
 * Requests that depend on the store (an id created earlier) may get other statuses than they did.
 */
async function mixRate(mix: Mix, seconds: number, connections: number): Promise<{ rps: number } & Measured> {
  let time = 0;
  let cpu = 0;
  let cpuKnown = true;
  const total = mix.main.length + mix.messages.length;
  for (const [host, requests] of [['main', mix.main], ['messages', mix.messages]] as const) {
    if (requests.length === 0) continue;
    const measured = await autocannonRate((server) => (host === 'main' ? server.baseUrl : server.messagesBaseUrl), { connections, requests: replay(requests) }, seconds);
    time += requests.length / measured.rps;
    if (measured.serverCpuUs !== undefined) cpu += (measured.serverCpuUs / 1e6) * requests.length;
    else cpuKnown = false;
  }
  const measured: { rps: number } & Measured = { rps: total / time };
  if (cpuKnown) measured.serverCpuUs = (cpu / total) * 1e6;
  return measured;
}

interface Sample extends Measured {
  wallS: number;
  requests: number;
  cpuS: number;
  peakRssMb: number;
}

async function runSuite(runs: number, extraArgs: string[], warm: { mix: Mix; connections: number } | undefined): Promise<Sample> {
  const server = await startServer();
  try {
    if (warm) await warmUp(server, warm.mix, warm.connections);
    return await withServerCpu(
      server,
      async (): Promise<Sample> => {
        const result = await runCli(cliArgs(server.baseUrl, server.messagesBaseUrl, runs, extraArgs), { API_KEY: KEY }, { timeoutMs: 600_000 });
        if (result.code !== 0) throw new Error(`the run with --runs ${runs} exited ${result.code}: ${result.stderr.slice(0, 300)}`);
        const figure = (pattern: RegExp) => Number(pattern.exec(result.stdout)?.[1] ?? Number.NaN);
        return { wallS: result.ms / 1000, requests: figure(/Requests sent: (\d+)/), cpuS: figure(/CPU ([\d.]+) s/), peakRssMb: figure(/peak RSS (\d+) MB/) };
      },
      (sample) => sample.requests,
    );
  } finally {
    server.child.kill('SIGTERM');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN;
const medianOf = (values: (number | undefined)[]) => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length ? median(known) : undefined;
};

// Rounds: autocannon, then one run per --runs value, then autocannon again. A shared machine drifts
// over a minute, so each round's property-phase rate is set against the autocannon rate measured
// around it, and the rounds' median is the figure.
// Each round's GET rate is the mean of the measurements around it; shares are taken per round.
const roundGet = (r: Pick<Round, 'autocannon'>) => r.autocannon.reduce((sum, a) => sum + a.rps, 0) / r.autocannon.length;

interface Round {
  autocannon: { rps: number; serverCpuUs?: number }[];
  /** autocannon sending the suite's own requests, after the runs. */
  mix: { rps: number; serverCpuUs?: number };
  /** This process sending autocannon's GET without the suite: bare undici, and the suite's client with parsing and validation. */
  floors: Record<FloorKind | 'mix', FloorRate & Measured>;
  samples: Sample[];
  /** The extra requests of the largest --runs over the smallest: their rate, and the CPU per request they cost the suite and the server. */
  phase?: { rps: number; share: number; mixShare: number; clientShare: number; clientMixShare: number; cpuUsPerRequest: number } & Measured;
}

const lines: string[] = [];
const results = [];
for (const setting of SETTINGS) {
  const rounds: Round[] = [];
  const recorded = await recordMix(Math.max(...RUNS), setting.args);
  for (let i = 0; i < REPEAT; i++) {
    const before = await rawRate(3, setting.connections);
    const samples: Sample[] = [];
    for (const runs of RUNS) samples.push(await runSuite(runs, setting.args, COLD ? undefined : { mix: recorded, connections: setting.connections }));
    const after = await rawRate(3, setting.connections);
    const mix = await mixRate(recorded, 3, setting.connections);
    const floors = { undici: await floor('undici', setting.connections, 3), client: await floor('client', setting.connections, 3), mix: await mixFloor(recorded, setting.connections, 3) };
    const round: Round = { autocannon: [before, after], mix, floors, samples };
    const first = samples[0];
    const last = samples[samples.length - 1];
    if (first && last && last !== first) {
      // The fixed start-up cancels out: what the extra runs cost is the property phases' own rate.
      const extra = last.requests - first.requests;
      const rps = extra / (last.wallS - first.wallS);
      round.phase = {
        rps,
        share: rps / roundGet(round),
        mixShare: rps / mix.rps,
        clientShare: rps / floors.client.rps,
        clientMixShare: rps / floors.mix.rps,
        cpuUsPerRequest: ((last.cpuS - first.cpuS) / extra) * 1e6,
      };
      if (first.serverCpuUs !== undefined && last.serverCpuUs !== undefined) round.phase.serverCpuUs = (last.serverCpuUs * last.requests - first.serverCpuUs * first.requests) / extra;
    }
    rounds.push(round);
  }
  const raw = median(rounds.map(roundGet));
  const rows = RUNS.map((runs, index) => {
    const samples = rounds.map((r) => r.samples[index]!);
    const wallS = median(samples.map((s) => s.wallS));
    const requests = median(samples.map((s) => s.requests));
    return { runs, wallS, requests, rps: requests / wallS, cpuS: median(samples.map((s) => s.cpuS)), peakRssMb: Math.max(...samples.map((s) => s.peakRssMb)) };
  });
  const phases = rounds.flatMap((r) => (r.phase ? [r.phase] : []));
  const phase = phases.length
    ? {
        rps: median(phases.map((p) => p.rps)),
        share: median(phases.map((p) => p.share)),
        mixShare: median(phases.map((p) => p.mixShare)),
        clientShare: median(phases.map((p) => p.clientShare)),
        clientMixShare: median(phases.map((p) => p.clientMixShare)),
        cpuUsPerRequest: median(phases.map((p) => p.cpuUsPerRequest)),
      }
    : undefined;
  const serverCpu = {
    autocannon: medianOf(rounds.flatMap((r) => r.autocannon.map((a) => a.serverCpuUs))),
    suite: medianOf(rounds.map((r) => r.phase?.serverCpuUs)),
    mix: medianOf(rounds.map((r) => r.mix.serverCpuUs)),
  };
  const mixRps = median(rounds.map((r) => r.mix.rps));
  const floorOf = (kind: FloorKind | 'mix') => ({
    rps: median(rounds.map((r) => r.floors[kind].rps)),
    share: median(rounds.map((r) => r.floors[kind].rps / roundGet(r))),
    cpuUs: median(rounds.map((r) => r.floors[kind].cpuUs)),
    serverCpuUs: medianOf(rounds.map((r) => r.floors[kind].serverCpuUs)),
  });
  const floors = { undici: floorOf('undici'), client: floorOf('client'), mix: floorOf('mix') };
  const floorLine = (name: string, f: ReturnType<typeof floorOf>) =>
    `${name}: ${f.rps.toFixed(0)} req/s = ${(f.share * 100).toFixed(0)}% of autocannon's GET; ${f.cpuUs.toFixed(0)} µs of client CPU per request` +
    `${f.serverCpuUs === undefined ? '' : `, the server's ${f.serverCpuUs.toFixed(0)} µs`}`;
  lines.push(
    `## ${setting.name}: at most ${setting.connections} request${setting.connections === 1 ? '' : 's'} in flight in the properties; autocannon with ${setting.connections} connection${setting.connections === 1 ? '' : 's'}`,
    `autocannon GET /v1/pets?limit=20, 3 s before and after each round, a fresh server each time: ` +
      `${rounds.map((r) => r.autocannon.map((a) => a.rps.toFixed(0)).join(' and ')).join('; ')} req/s (median of the rounds' means ${raw.toFixed(0)})`,
    `suite: ${WORKERS} worker, a fresh server per run${COLD ? '' : ", warmed first like autocannon's (2 s per host of the suite's requests)"}; ${REPEAT} rounds, each row their median (peak RSS: the highest)`,
    '',
    '| --runs | wall | requests | req/s (whole run) | share of autocannon | CPU | peak RSS |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.runs} | ${r.wallS.toFixed(1)} s | ${r.requests} | ${r.rps.toFixed(0)} | ${((r.rps / raw) * 100).toFixed(0)}% | ${r.cpuS.toFixed(1)} s | ${r.peakRssMb} MB |`,
    ),
  );
  if (phase) {
    lines.push(
      '',
      `property phases (--runs ${RUNS[0]} -> ${RUNS[RUNS.length - 1]}), per round: ${phases.map((p) => `${(p.share * 100).toFixed(0)}%`).join(', ')} of autocannon; ` +
        `median ${phase.rps.toFixed(0)} req/s = ${(phase.share * 100).toFixed(0)}%; the suite's own CPU: ${phase.cpuUsPerRequest.toFixed(0)} µs per request`,
      `autocannon sending the suite's own requests (${recorded.main.length} to the main host + ${recorded.messages.length} to the message host, preflight included, its ${[...recorded.main, ...recorded.messages].filter((r) => r.method === 'HEAD').length} HEAD left out, recorded at --runs ${Math.max(...RUNS)}), ${setting.connections} connection${setting.connections === 1 ? '' : 's'}: ` +
        `${rounds.map((r) => r.mix.rps.toFixed(0)).join(', ')} req/s (median ${mixRps.toFixed(0)}); the property phases reach, per round: ` +
        `${phases.map((p) => `${(p.mixShare * 100).toFixed(0)}%`).join(', ')}; median ${(phase.mixShare * 100).toFixed(0)}%`,
      `floors, this process sending autocannon's GET at ${setting.connections} in flight without the suite (bench/floor.ts; medians of the rounds):`,
      `- ${floorLine('bare undici (Pool.dispatch, the body read, nothing judged)', floors.undici)}`,
      `- ${floorLine("the suite's HttpClient, the body parsed losslessly and validated as Pets", floors.client)}`,
      `- the property phases reach ${(phase.clientShare * 100).toFixed(0)}% of the second (median of the rounds): the rest is generation, judging and evidence, and what the suite's requests cost more than that GET`,
      `- ${floorLine("the suite's HttpClient sending the suite's own recorded requests instead, each JSON answer parsed and validated", floors.mix)}`,
      `- the property phases reach ${(phase.clientMixShare * 100).toFixed(0)}% of that (median of the rounds): the rest is generation, judging and evidence`,
      `autocannon itself, sending the suite's requests, reaches ${(median(rounds.map((r) => r.mix.rps / roundGet(r))) * 100).toFixed(0)}% of its GET rate (median of the rounds)`,
    );
  }
  if (serverCpu.autocannon !== undefined && serverCpu.suite !== undefined) {
    lines.push(
      `the reference server's CPU per request: ${serverCpu.autocannon.toFixed(0)} µs for autocannon's GET, ` +
        `${serverCpu.mix === undefined ? '' : `${serverCpu.mix.toFixed(0)} µs for autocannon sending the suite's requests, `}` +
        `${serverCpu.suite.toFixed(0)} µs for the suite's in its property phases (--runs ${RUNS[0]} -> ${RUNS[RUNS.length - 1]})`,
    );
  }
  lines.push('');
  results.push({
    setting: setting.name,
    connections: setting.connections,
    autocannonRps: raw,
    autocannonSuiteMixRps: mixRps,
    floors,
    recordedMix: { main: recorded.main.length, messages: recorded.messages.length },
    propertyPhase: phase,
    serverCpuUsPerRequest: serverCpu,
    rows,
    rounds,
  });
}
process.stdout.write(`${lines.join('\n')}`);
await mkdir('reports', { recursive: true });
await writeFile('reports/bench.json', `${JSON.stringify({ node: process.version, workers: WORKERS, results }, null, 2)}\n`);
