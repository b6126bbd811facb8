import { Pool } from 'undici';
import { loadContract } from '../src/contract/load.ts';
import { createValidators } from '../src/contract/validator.ts';
import type { RequestBody } from '../src/http/body-bytes.ts';
import { DEFAULT_CLIENT_OPTIONS, HttpClient } from '../src/http/client.ts';
import { jsonBody } from '../src/http/exchange.ts';

// The floors under the suite's request rate on autocannon's GET: how fast this process sends the
// same GET at the same number in flight with nothing of the suite around it. "undici" is a bare
// Pool.dispatch loop that reads each body and judges nothing; "client" is the suite's own
// HttpClient with the body parsed losslessly and validated against Pets, the least the suite
// does with an answer. What lies between the client floor and the property phases is generation,
// judging and evidence. mixFloorRate is that client sending the suite's own requests instead
// (recorded from a run: POSTs with bodies, big listings, refusals), each answer parsed and
// validated as its status and operation show: the same floor for the suite's own mix.

export type FloorKind = 'undici' | 'client';

export interface FloorRate {
  rps: number;
  requests: number;
  /** This process's CPU per request, µs. */
  cpuUs: number;
}

const validators = createValidators(await loadContract());

function bareGet(pool: Pool, path: string, authorization: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pool.dispatch(
      { path, method: 'GET', headers: { authorization } },
      {
        onRequestStart() {},
        onResponseStart() {},
        onResponseData(_controller, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          resolve(Buffer.concat(chunks));
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}

/** `inFlight` lanes, each calling `once` again when its last call is done, for `seconds`: the rate, and this process's CPU per call. */
async function lanesRate(inFlight: number, seconds: number, once: () => Promise<void>): Promise<FloorRate> {
  let requests = 0;
  const end = performance.now() + seconds * 1000;
  const lane = async () => {
    while (performance.now() < end) {
      await once();
      requests++;
    }
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, lane));
  const elapsedS = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { rps: requests / elapsedS, requests, cpuUs: (used.user + used.system) / requests };
}

/** `inFlight` lanes, each sending the next GET when its answer is in, for `seconds`. */
export async function floorRate(kind: FloorKind, baseUrl: string, key: string, inFlight: number, seconds: number): Promise<FloorRate> {
  const path = '/v1/pets?limit=20';
  const authorization = `Bearer ${key}`;
  const pool = new Pool(baseUrl, { connections: inFlight, keepAliveTimeout: 10_000 });
  const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, concurrency: inFlight });
  const once =
    kind === 'undici'
      ? async () => {
          await bareGet(pool, path, authorization);
        }
      : async () => {
          const exchange = await client.send({ method: 'GET', url: `${baseUrl}${path}`, authorization: { value: authorization, shown: 'Bearer $API_KEY' } });
          const body = jsonBody(exchange);
          if (!body.ok) throw new Error(`GET ${path}: ${body.problem}`);
          const problems = validators.validate('Pets', body.value);
          if (problems.length) throw new Error(`GET ${path}: ${problems[0]}`);
        };
  try {
    return await lanesRate(inFlight, seconds, once);
  } finally {
    await pool.destroy();
    await client.close();
  }
}

/** One of the suite's requests, as recorded, to replay: its host's base URL, method, path, headers and body. */
export interface MixRequest {
  base: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: RequestBody;
}

/** The schema an answer to this request is validated against, where the contract shows one. */
function schemaOf(request: MixRequest, status: number, value: unknown): string | undefined {
  if (status >= 400) return 'Error';
  if (Array.isArray(value)) return 'Pets';
  if (request.path.startsWith('/messages')) return status < 300 ? 'Message' : undefined;
  return status === 200 || status === 201 ? 'Pet' : undefined;
}

/** `inFlight` lanes sending the recorded requests in turn (round and round) through the suite's client, for `seconds`; every JSON answer parsed and validated. */
export async function mixFloorRate(mix: readonly MixRequest[], inFlight: number, seconds: number): Promise<FloorRate> {
  const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, concurrency: inFlight });
  let next = 0;
  const once = async () => {
    const request = mix[next++ % mix.length]!;
    const exchange = await client.send({ method: request.method, url: `${request.base}${request.path}`, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) });
    const status = exchange.response?.status;
    const body = jsonBody(exchange);
    const schema = status !== undefined && body.ok ? schemaOf(request, status, body.value) : undefined;
    if (schema && body.ok) validators.validate(schema, body.value);
  };
  try {
    return await lanesRate(inFlight, seconds, once);
  } finally {
    await client.close();
  }
}
