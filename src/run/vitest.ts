import { BUNDLE_SOURCES, isFresh } from '../../bin/fresh.mjs';
import { PACKAGE_ROOT } from '../paths.ts';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { BaseSequencer, createVitest, type TestSpecification } from 'vitest/node';
import type { SuiteConfig } from '../suite/config.ts';
import type { ScenarioOutcome } from './collect.ts';

export { PACKAGE_ROOT };

export interface SuiteRun {
  scenarios: ScenarioOutcome[];
  /** Test files that could not run at all (syntax or import errors): engine errors. */
  fileErrors: string[];
  timedOut: boolean;
}

/** A scenario ended: `failed`, the clauses it failed (a scenario fails when any clause it judges does). */
export type ProgressListener = (event: { title: string; state: string; done: number; failed: string[] }) => void;

/**
 * The conformance tests as the build bundled them (dist/tests) while that is fresh, else their
 * sources; `concurrent`: the one module that imports every section (tests/sections.ts).
 */
export function testFiles(concurrent = false): string[] {
  const bundled = isFresh(PACKAGE_ROOT, 'dist/tests', BUNDLE_SOURCES.tests);
  if (concurrent) return [bundled ? 'dist/tests/sections.js' : 'tests/sections.ts'];
  return bundled ? ['dist/tests/*.test.js'] : ['tests/*.test.ts'];
}

/**
 * The section files in the order of their names (§4.1 first, the sequences of calls last), on every
 * run: vitest's own order follows the durations it cached from earlier runs, so which scenario met a
 * clause first, and what the report tells of it, would change from one run of a seed to the next.
 */
class FileOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId, 'en', { numeric: true }));
  }
}

/** Runs the tests of tests/ through vitest, in-process, against the target the config names. */
export async function runSuite(config: SuiteConfig, options: { onProgress?: ProgressListener; graceMs?: number; maxWorkers?: number; files?: readonly string[] }): Promise<SuiteRun> {
  let done = 0;
  const progress: Reporter = {
    onTestCaseResult(testCase: TestCase) {
      done++;
      const failed = [...new Set(testCase.meta().conformance?.checks.filter((check) => check.outcome === 'fail').map((check) => check.clause))];
      options.onProgress?.({ title: testCase.name, state: testCase.result().state, done, failed });
    },
  };
  const include = options.files?.length ? [...options.files] : testFiles(config.concurrent);
  const vitest = await createVitest(
    'test',
    {
      root: PACKAGE_ROOT,
      config: false,
      include,
      exclude: ['**/node_modules/**'],
      watch: false,
      reporters: [progress],
      provide: { suite: config },
      pool: 'threads',
      isolate: false,
      // Far from the target, scenarios wait side by side; the one client caps what is in flight.
      sequence: { concurrent: config.concurrent === true, sequencer: FileOrder },
      maxConcurrency: config.concurrent ? 64 : 1,
      maxWorkers: options.maxWorkers ?? 1,
      testTimeout: 0,
      hookTimeout: 30_000,
      passWithNoTests: true,
      silent: true,
      // The bundles are plain JavaScript: Node imports them as they are, without Vite's transform or
      // its source-mapped stack traces (which every connection the client closes would pay for).
      // No module mocking or in-source tests: no loader hooks (Node 20 has none to register).
      experimental: { viteModuleRunner: !include.every((file) => file.endsWith('.js')), nodeLoader: false },
    },
    { logLevel: 'silent', clearScreen: false },
  );
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    void vitest.cancelCurrentRun('keyboard-input');
  }, Math.max(0, config.deadline - Date.now()) + (options.graceMs ?? 30_000));
  const exits = new WorkerExits();
  try {
    const result = await vitest.start();
    const scenarios: ScenarioOutcome[] = [];
    const fileErrors = result.unhandledErrors.map(workerErrorText);
    if (exits.unexplained(fileErrors)) fileErrors.push(`the suite's worker thread exited unexpectedly`);
    for (const module of result.testModules as TestModule[]) {
      for (const error of module.errors()) fileErrors.push(`${module.relativeModuleId}: ${error.message}`);
      if (!timedOut && (module.state() === 'pending' || module.state() === 'queued')) fileErrors.push(`${module.relativeModuleId}: stopped before its scenarios ended`);
      for (const testCase of module.children.allTests()) {
        const meta = testCase.meta().conformance;
        const result = testCase.result();
        const outcome: ScenarioOutcome = {};
        if (meta) outcome.meta = meta;
        if (result.state === 'failed' && !meta?.checks.some((check) => check.outcome === 'fail')) {
          const message = result.errors?.[0]?.message ?? 'failed';
          if (!meta?.engineError) outcome.engineError = `${testCase.name}: ${message}`;
        }
        scenarios.push(outcome);
      }
    }
    return { scenarios, fileErrors, timedOut };
  } finally {
    exits.stop();
    clearTimeout(watchdog);
    await vitest.close();
  }
}

const WORKER_EXITED = 'Worker exited unexpectedly';

/**
 * vitest's pool hands a worker's error (a heap out of memory) to the test file it ran, then emits
 * the worker's exit as a second error no one listens to, which would end this process with a
 * stack: that second one is taken here, once the first has told the cause. Any other uncaught
 * error is thrown again, as if no one listened.
 */
class WorkerExits {
  private seen = 0;
  private readonly onUncaught = (error: unknown) => {
    if (error instanceof Error && error.message === WORKER_EXITED) {
      this.seen++;
      return;
    }
    this.stop();
    process.nextTick(() => {
      throw error;
    });
  };

  constructor() {
    process.on('uncaughtException', this.onUncaught);
  }

  /** Whether a worker exited while no error of the run tells why. */
  unexplained(errors: readonly string[]): boolean {
    return this.seen > 0 && errors.length === 0;
  }

  stop(): void {
    process.off('uncaughtException', this.onUncaught);
  }
}

/** An error no test file caught, as an engine error: a worker out of memory says what to change. */
function workerErrorText(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return `the suite's worker thread ran out of memory (${(cause as Error).message}): lower --runs, or give Node a larger heap (NODE_OPTIONS=--max-old-space-size=<MB>)`;
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return `an error the suite's tests did not catch: ${message}`;
}
