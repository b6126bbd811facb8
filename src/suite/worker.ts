import { inject } from 'vitest';
import type { Clause, Level } from '../contract/clauses.ts';
import type { Contract } from '../contract/model.ts';
import { createValidators } from '../contract/validator.ts';
import { HttpClient } from '../http/client.ts';
import type { JudgeEnv } from '../checks/types.ts';
import type { Exchange } from '../http/exchange.ts';
import type { SuiteConfig } from './config.ts';
import { animalOf, createdBy, Trail, unsettledCreation } from './trail.ts';
import { ShownIds } from './shown-ids.ts';
import type { CreatedAnimal } from '../checks/state.ts';

/** Built once per worker: the parsed contract, compiled validators and the one HTTP client. */
export interface WorkerContext {
  config: SuiteConfig;
  contract: Contract;
  clauses: Map<string, Clause>;
  env: JudgeEnv;
  /** The context of a check that needs nothing but the env, shared rather than built per exchange. */
  envOnly: { env: JudgeEnv };
  /** Per clause, whether --only/--skip keep it and its level, worked out once. */
  gates: Map<string, ClauseGate>;
  client: HttpClient;
  /** What the run created, appended as it goes (where the CLI asked for it). */
  trail?: Trail;
  /** Every animal this worker's scenarios created, as its 201 showed it. */
  createdAnimals: CreatedAnimals;
}

/** By id, every animal a worker's scenarios created, and the highest id among them. */
export class CreatedAnimals {
  private readonly byId = new Map<string, CreatedAnimal>();
  highest = 0n;

  add(animal: CreatedAnimal): void {
    this.byId.set(animal.id, animal);
    const id = BigInt(animal.id);
    if (id > this.highest) this.highest = id;
  }

  get(id: string): CreatedAnimal | undefined {
    return this.byId.get(id);
  }
}

export interface ClauseGate {
  selected: boolean;
  level: Level;
  /** The operations --only confines it to (src/suite/selection.ts onlyFocus): judged on their exchanges alone. */
  focus?: ReadonlySet<string>;
}

let shared: Promise<WorkerContext> | undefined;

async function build(): Promise<WorkerContext> {
  const config = inject('suite');
  if (!config) throw new Error('tests/ is the conformance suite: run it with `npm run conformance`, not vitest directly');
  const contract = config.contract;
  const validators = createValidators(contract);
  const trail = config.trailFile ? new Trail(config.trailFile) : undefined;
  const createdAnimals = new CreatedAnimals();
  const shownIds = new ShownIds(`${config.baseUrl}/v1/pets`);
  const client = new HttpClient({
    timeoutMs: config.timeoutMs,
    maxBodyBytes: config.maxBodyBytes,
    concurrency: config.concurrency,
    maxRps: config.maxRps,
    breakAfter: 4,
    retries429: 2,
    maxRetryAfterMs: 5_000,
    watchIdleCloses: true,
    sendBefore: config.deadline,
    ...(config.network ? { network: config.network } : {}),
    observe: (exchange: Exchange) => {
      shownIds.observe(exchange);
      const item = createdBy(exchange, config);
      if (!item) return;
      trail?.record(item);
      const animal = animalOf(item, exchange);
      if (animal) createdAnimals.add(animal);
    },
    unsettled: (request) => {
      const item = unsettledCreation(request, config);
      if (item) trail?.record(item);
    },
  });
  const env: JudgeEnv = { contract, validators, now: new Date(config.now), createdIds: new Set(), messageIds: new Map(), createdAnimals, shownIds };
  return {
    config,
    contract,
    clauses: new Map(config.clauses.map((clause) => [clause.id, clause])),
    env,
    envOnly: { env },
    gates: new Map(),
    client,
    ...(trail ? { trail } : {}),
    createdAnimals,
  };
}

export function workerContext(): Promise<WorkerContext> {
  shared ??= build();
  return shared;
}
