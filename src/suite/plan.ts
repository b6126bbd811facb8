import { COMMON_CHECKS, type CheckName } from '../checks/registry.ts';
import { clockAgainst, mayBeRemoved, removalOf } from '../contract/removal.ts';
import type { SuiteConfig } from './config.ts';
import type { WorkerContext } from './worker.ts';

export interface ScenarioOptions {
  /** The checks this scenario judges (clause ids), besides the common ones applied to every exchange. */
  checks: readonly CheckName[];
  /** Creates pets or sends messages: skipped where writes are not allowed. */
  writes?: boolean;
  /**
   * The writes it sends only where writes are allowed, as the dry run lists them (set-up animals, a
   * body that is not JSON); without them it judges what it can. A scenario that declares neither
   * this nor `writes` and sends one is an engine error (Scenario.send).
   */
  writesIfAllowed?: string;
  /** Random sequences of calls: skipped with --stateful off. */
  stateful?: boolean;
  /**
   * Its requests take a free slot under the in-flight cap before other scenarios' waiting ones: it
   * holds the run's longest chain of dependent requests, which side by side would otherwise wait
   * behind the properties' many independent ones at every step.
   */
  critical?: boolean;
  /** Talks to the message operation: skipped when its base URL is not configured. */
  messages?: boolean;
  /**
   * The operations its stimulus goes to, where writes, messages and deprecated do not say: skipped
   * when --skip leaves out every one of them.
   */
  operations?: readonly string[];
  /** Operations it cannot do without besides its stimulus (a listing to find ids): skipped when --skip leaves out any. */
  needs?: readonly string[];
  /**
   * Checks judged only on what one of `anyOf` provides (an animal a listing shows, or one a write
   * makes): skipped, in the dry run as in the run, where these settings send none of them.
   */
  checksNeed?: { checks: readonly CheckName[]; anyOf: readonly string[] };
  /** Its stimulus is this deprecated operation: skipped once the clock is past its removal date. */
  deprecated?: string;
  /**
   * Checks that apply on one side of a deprecated operation's removal date only (§9): `before`
   * ones are skipped once the clock is past it, `after` ones until then; the dry run reads the same.
   */
  removal?: { operationId: string; before?: readonly CheckName[]; after?: readonly CheckName[] };
  /**
   * `inputs`: with --shard, runs in every shard, each taking its share of the properties' inputs;
   * its other requests (set-up) go in every shard. Unset: runs whole in one shard.
   */
  shard?: 'inputs';
}

export interface ScenarioPlan {
  /**
   * Its selected checks, the common ones included (they judge every exchange a scenario makes), each
   * with why it would be skipped, if it would.
   */
  checks: { check: string; clause: string; skipReason?: string }[];
  /** Set where it would run: the writes it would send (NewPets it judges, set-up animals, messages, sequences of calls). */
  sends?: { creates: boolean; alsoWrites?: string; messages: boolean; sequences: boolean };
}

function clockOf(ctx: WorkerContext): { now: string; given: boolean } {
  return { now: ctx.config.now, given: ctx.config.nowGiven };
}

/** Why the whole scenario is skipped with these settings: every reason that applies, or undefined. */
export function skipReason(ctx: WorkerContext, options: ScenarioOptions): string | undefined {
  const reasons: string[] = [];
  if (options.writes && !ctx.config.writes) reasons.push(ctx.config.writesReason ?? 'writes are not allowed');
  const deprecated = options.deprecated;
  const removal = deprecated ? removalOf(ctx.contract, deprecated) : undefined;
  if (deprecated && removal && mayBeRemoved(ctx.env.now, removal)) reasons.push(clockAgainst(clockOf(ctx), removal, deprecated));
  if (options.messages && !ctx.config.messagesBaseUrl) reasons.push('MESSAGES_BASE_URL is not configured');
  if (options.stateful && !ctx.config.stateful) reasons.push('sequences of calls are off (--stateful off)');
  const left = leftOutBySkip(ctx, options);
  if (left.length > 0) reasons.push(`left out by --skip ${left.join(', ')}`);
  return reasons.length > 0 ? reasons.join('; and ') : undefined;
}

/** The operations --skip leaves out that the scenario cannot do without: its whole stimulus, or one it needs. */
function leftOutBySkip(ctx: WorkerContext, options: ScenarioOptions): string[] {
  const skipped = (operationId: string) => ctx.config.skip.includes(operationId);
  // What it writes it cannot do without: creations, sequences of calls, messages.
  const needs = [
    ...((options.writes && !options.messages) || options.stateful ? writeOperations(ctx, false) : []),
    ...(options.messages ? writeOperations(ctx, true) : []),
    ...(options.needs ?? []),
  ];
  const stimulus = [...(options.deprecated ? [options.deprecated] : []), ...(options.operations ?? [])];
  const left = stimulus.length > 0 && stimulus.every(skipped) ? stimulus : [];
  return [...new Set([...left, ...needs.filter(skipped)])];
}

/**
 * The operations a scenario's own requests go to, as its options say (none: they do not say): a
 * clause that --only confines to some operations is judged by it only where one of them is among these.
 */
export function stimulusOf(ctx: WorkerContext, options: ScenarioOptions): string[] {
  const writes = (options.writes && !options.messages) || options.stateful ? writeOperations(ctx, false) : [];
  const sequences = options.stateful ? (options.needs ?? []) : [];
  const messages = options.messages ? writeOperations(ctx, true) : [];
  return [...new Set([...(options.deprecated ? [options.deprecated] : []), ...(options.operations ?? []), ...writes, ...sequences, ...messages])];
}

/** The checks ScenarioOptions.removal keeps from being judged with this clock, and why. */
export function clockExclusions(ctx: WorkerContext, options: ScenarioOptions): Map<CheckName, string> {
  const excluded = new Map<CheckName, string>();
  const side = options.removal;
  const removal = side ? removalOf(ctx.contract, side.operationId) : undefined;
  if (!side || !removal) return excluded;
  const past = mayBeRemoved(ctx.env.now, removal);
  for (const name of (past ? side.before : side.after) ?? []) excluded.set(name, clockAgainst(clockOf(ctx), removal, side.operationId));
  return excluded;
}

/**
 * With --dry-run: what a scenario would judge, and why a check would be skipped. A check whose every
 * operation these settings leave out (create.id-unique without writes, create.invalid-400 in §7's
 * scenario) judges nothing.
 */
export function planOf(
  ctx: WorkerContext,
  options: ScenarioOptions,
  declared: readonly CheckName[],
  selected: (name: CheckName) => boolean,
  reason: string | undefined,
  excluded: ReadonlyMap<CheckName, string>,
): ScenarioPlan {
  const checks = [...new Set([...declared, ...COMMON_CHECKS.filter(selected)])];
  const leftOut = operationsLeftOut(ctx.config);
  const notSent = operationsNotSent(ctx.config);
  const unreached = (check: CheckName) => {
    const clause = ctx.clauses.get(check);
    // A clause judged on the exchanges of some of its operations (a Location followed with GET) needs those.
    const operations = clause?.minimum?.operations ?? clause?.operations ?? [];
    // An operation still sent (a deprecated one past its removal, to see that it is gone) is judged by the scenario's own checks alone.
    const out = (operation: string) => leftOut.has(operation) && !(declared.includes(check) && !notSent.has(operation));
    if (operations.length > 0 && operations.every(out)) return leftOut.get(operations[0]!);
    const made = clause?.minimum?.made;
    return made !== undefined && notSent.has(made) ? `judged only on what ${made} makes, which is sent nothing: ${notSent.get(made)}` : undefined;
  };
  const unmet = (check: CheckName) => {
    const need = options.checksNeed;
    if (!need?.checks.includes(check) || need.anyOf.some((operation) => !notSent.has(operation))) return undefined;
    return `needs ${need.anyOf.join(' or ')}, and these settings send neither (${need.anyOf.map((operation) => notSent.get(operation)).join('; ')})`;
  };
  return {
    checks: checks.map((check) => {
      const why = reason ?? excluded.get(check) ?? unreached(check) ?? unmet(check);
      return why === undefined ? { check, clause: check } : { check, clause: check, skipReason: why };
    }),
    ...(reason === undefined ? { sends: sendsOf(ctx, options) } : {}),
  };
}

function sendsOf(ctx: WorkerContext, options: ScenarioOptions): NonNullable<ScenarioPlan['sends']> {
  // Writes off, or the write operations left out one by one (--skip createPet).
  const notSent = operationsNotSent(ctx.config);
  const writesTo = (messages: boolean) => writeOperations(ctx, messages).some((id) => !notSent.has(id));
  const pets = writesTo(false);
  return {
    creates: pets && options.writes === true && !options.messages && !options.stateful,
    ...(pets && options.writesIfAllowed ? { alsoWrites: options.writesIfAllowed } : {}),
    messages: writesTo(true) && options.messages === true,
    sequences: pets && options.stateful === true,
  };
}

/** The operations that write on the main host (createPet) or, with `messages`, on the message host (sendMessage). */
function writeOperations(ctx: WorkerContext, messages: boolean): string[] {
  return Object.entries(ctx.contract.operations)
    .filter(([, op]) => isWrite(op) && (op.server === 'messages') === messages)
    .map(([id]) => id);
}

/** Whether an operation writes (creates an animal or sends a message): what writes off leaves out. */
export function isWrite(operation: { method: string } | undefined): boolean {
  return operation?.method.toUpperCase() === 'POST';
}

type LeftOutSettings = Pick<SuiteConfig, 'contract' | 'writes' | 'writesReason' | 'messagesBaseUrl' | 'now' | 'skip'>;

/** The operations these settings send nothing to: --skip, writes off, no message host; with why. */
export function operationsNotSent(config: Omit<LeftOutSettings, 'now'>): Map<string, string> {
  const left = new Map<string, string>();
  for (const [id, operation] of Object.entries(config.contract.operations)) {
    if (config.skip.includes(id)) left.set(id, `left out by --skip ${id}`);
    else if (operation.server === 'messages' && !config.messagesBaseUrl) left.set(id, 'MESSAGES_BASE_URL is not configured');
    else if (!config.writes && isWrite(operation)) left.set(id, config.writesReason ?? 'writes are not allowed');
  }
  return left;
}

/**
 * The operations whose answers these settings keep from judging the clauses they share: those sent
 * nothing (operationsNotSent), and a deprecated one past the start of its removal, which is still
 * sent, to see that it is gone, but judged by nothing else.
 */
export function operationsLeftOut(config: LeftOutSettings): Map<string, string> {
  const left = operationsNotSent(config);
  for (const { operationId, removal } of config.contract.deprecations) {
    if (config.skip.includes(operationId)) continue;
    if (mayBeRemoved(new Date(config.now), new Date(removal))) left.set(operationId, `the clock (${config.now.slice(0, 10)}) is past the start of its ${removal.slice(0, 10)} removal`);
  }
  return left;
}
