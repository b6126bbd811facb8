import { defineConfig } from 'vitest/config';

// `npm test`: the suite's own self-tests. The conformance suite in tests/ is run by the CLI
// (src/cli.ts) against a target, never by this config.
export default defineConfig({
  test: {
    include: ['selftest/**/*.test.ts'],
    globalSetup: ['selftest/support/build-first.ts'],
    // The JSON file lets .ci/run print a plain "N passed, N failed" closing line. Not in reports/:
    // that folder is a conformance run's.
    reporters: ['default', 'json'],
    outputFile: { json: '.selftest/selftest.json' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
