// Mutation testing of the business-rule modules (`npm run mutate`, on demand: never part of `npm test` or CI).
// StrykerJS changes one rule at a time (a `>=` into `>`, a filter removed…) and runs the tests that cover it; a
// change no test notices is a rule the suite does not hold. `MUTATE=quota-billing,auth-limits npm run mutate` runs
// some groups only; `MUTATE_EXCLUDE_TESTS=<paths, comma-separated>` leaves test files out (to measure what they add).
// The groups' test files are handed to vitest.mutation.config.ts through the environment of Stryker's workers.

const server = 'apps/server/src';

/** Each group: the rule modules it mutates, and the test files that hold those rules. */
export const groups = {
  'study-core': {
    mutate: [
      `${server}/modules/study-core/*.ts`,
      `${server}/modules/stats/study-day.ts`,
      `${server}/modules/review/queue.ts`,
      `${server}/modules/review/scheduler.ts`,
    ],
    tests: [
      `${server}/modules/review/*.test.ts`,
      `${server}/modules/stats/*.test.ts`,
      `${server}/modules/cards/card-counters.test.ts`,
      `${server}/modules/decks/decks.test.ts`,
      'apps/server/test/next-due.test.ts',
      'apps/server/test/access-control.test.ts',
      'apps/server/test/cross-user-reads.test.ts',
    ],
  },
  review: {
    mutate: [`${server}/modules/review/review.service.ts`],
    tests: [`${server}/modules/review/*.test.ts`, 'apps/server/test/cross-user-reads.test.ts'],
  },
  'quota-billing': {
    mutate: [
      `${server}/modules/quota/quota.service.ts`,
      `${server}/modules/quota/quota.repo.ts`,
      `${server}/modules/billing/billing.service.ts`,
    ],
    tests: [
      `${server}/modules/quota/*.test.ts`,
      `${server}/modules/billing/*.test.ts`,
      `${server}/adapters/payments/*.test.ts`,
    ],
  },
  'auth-limits': {
    mutate: [`${server}/modules/auth/auth.service.ts`, `${server}/adapters/rate-limit/rate-limiter.ts`],
    tests: [`${server}/modules/auth/*.test.ts`],
  },
  'import-guards': {
    mutate: [
      `${server}/adapters/anki/zstd.ts`,
      `${server}/adapters/anki/anki-package.ts`,
      `${server}/adapters/extract/safe-zip.ts`,
    ],
    tests: [`${server}/adapters/anki/*.test.ts`, `${server}/modules/interop/*.test.ts`],
  },
};

const chosen = (process.env.MUTATE ?? Object.keys(groups).join(','))
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
for (const name of chosen) {
  if (!groups[name]) throw new Error(`MUTATE: unknown group "${name}" (groups: ${Object.keys(groups).join(', ')})`);
}
const selected = chosen.map((name) => groups[name]);
process.env.STRYKER_TEST_FILES = JSON.stringify([...new Set(selected.flatMap((group) => group.tests))]);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
// biome-ignore lint/style/noDefaultExport: Stryker reads its configuration from the default export.
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: [...new Set(selected.flatMap((group) => group.mutate))],
  // One test process at a time: the machine is shared, and each mutant already runs only the tests that cover it.
  concurrency: 1,
  coverageAnalysis: 'perTest',
  // Mutants in module-level code would need every test re-run with a fresh import: too slow to run on demand.
  ignoreStatic: true,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['apps/web', 'e2e', 'bench', 'docs', 'reports', 'apps/server/dist', 'data', 'test-results'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
