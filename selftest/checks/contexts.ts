/** One plausible context for every check of the registry, for judging arbitrary bodies with each: the default context of its canned cases. */
import { CHECKS, type CheckName, type ContextOf } from '../../src/checks/registry.ts';

export const CONTEXTS = Object.fromEntries(Object.entries(CHECKS).map(([name, check]) => [name, check.cases.ctx])) as { [N in CheckName]: ContextOf<N> };
