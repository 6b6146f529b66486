// Mutation testing of the business-rule modules (`npm run mutate`, on demand: never part of `npm test` or CI).
// StrykerJS changes one rule at a time (a `>=` into `>`, a filter removed…) and runs the tests that cover it; a
// change no test notices is a rule the suite does not hold. `MUTATE=quota-billing,auth-limits npm run mutate` runs
// some groups only; `MUTATE_EXCLUDE_TESTS=<paths, comma-separated>` leaves test files out (to measure what they add);
// `MUTATE_TESTS=fast` runs each group's fast rule tests only (minutes instead of hours on a busy machine: the full
// lists start an app per file and hash passwords). docs/testing.md has the commands and the latest scores.
// The groups' test files are handed to vitest.mutation.config.ts through the environment of Stryker's workers.

const server = 'apps/server/src';

/** Each group: the rule modules it mutates, the test files that hold those rules, and the fast ones among them. */
export const groups = {
  'study-core': {
    mutate: [`${server}/modules/study-core/*.ts`, `!${server}/modules/study-core/*.test.ts`],
    tests: [
      `${server}/modules/study-core/*.test.ts`,
      `${server}/modules/review/*.test.ts`,
      `${server}/modules/stats/*.test.ts`,
      `${server}/modules/cards/card-counters.test.ts`,
      `${server}/modules/decks/decks.test.ts`,
      'apps/server/test/next-due.test.ts',
      'apps/server/test/access-control.test.ts',
      'apps/server/test/cross-user-reads.test.ts',
      'apps/server/test/study-rules.test.ts',
    ],
    fast: [`${server}/modules/study-core/*.test.ts`],
  },
  review: {
    mutate: [
      `${server}/modules/review/scheduler.ts`,
      `${server}/modules/review/review.service.ts`,
      `${server}/modules/review/review-sync.service.ts`,
    ],
    tests: [`${server}/modules/review/*.test.ts`, 'apps/server/test/cross-user-reads.test.ts'],
    fast: [
      `${server}/modules/review/scheduler.test.ts`,
      `${server}/modules/review/review-rules.test.ts`,
      `${server}/modules/review/review-sync-rules.test.ts`,
    ],
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
    fast: [
      `${server}/modules/quota/quota.test.ts`,
      `${server}/modules/quota/quota-service-rules.test.ts`,
      `${server}/modules/billing/checkout-rules.test.ts`,
      `${server}/modules/billing/billing-service-rules.test.ts`,
    ],
  },
  'auth-limits': {
    mutate: [`${server}/modules/auth/auth.service.ts`, `${server}/adapters/rate-limit/rate-limiter.ts`],
    tests: [`${server}/modules/auth/*.test.ts`, `${server}/adapters/rate-limit/*.test.ts`],
    fast: [
      `${server}/modules/auth/login-limit-keys.test.ts`,
      `${server}/modules/auth/auth-service-rules.test.ts`,
      `${server}/adapters/rate-limit/rate-limiter.test.ts`,
    ],
  },
  notes: {
    mutate: [
      'packages/shared/src/notes.ts',
      `${server}/modules/notes/notes.service.ts`,
      `${server}/modules/notes/notes.repo.ts`,
      `${server}/modules/study-core/siblings.ts`,
    ],
    tests: ['apps/server/test/notes-render.test.ts', `${server}/modules/notes/*.test.ts`],
    fast: ['apps/server/test/notes-render.test.ts'],
  },
  'import-guards': {
    mutate: [
      `${server}/adapters/anki/zstd.ts`,
      `${server}/adapters/anki/anki-package.ts`,
      `${server}/adapters/extract/safe-zip.ts`,
      `${server}/adapters/uploads/upload-dir.ts`,
    ],
    tests: [
      `${server}/adapters/anki/*.test.ts`,
      `${server}/adapters/uploads/*.test.ts`,
      `${server}/adapters/extract/safe-zip.test.ts`,
      `${server}/modules/interop/*.test.ts`,
    ],
    fast: [
      `${server}/adapters/anki/zstd-budget.test.ts`,
      `${server}/adapters/anki/zstd.test.ts`,
      `${server}/adapters/anki/anki-package.test.ts`,
      `${server}/adapters/anki/anki.test.ts`,
      `${server}/adapters/uploads/*.test.ts`,
      `${server}/adapters/extract/safe-zip.test.ts`,
    ],
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
// Each run's reports and sandboxes are named after its groups, so runs of different groups do not overwrite each other.
const label = `${chosen.length === Object.keys(groups).length ? 'all' : chosen.join('+')}${process.env.MUTATE_TESTS === 'fast' ? '-fast' : ''}`;
const testList = process.env.MUTATE_TESTS === 'fast' ? 'fast' : 'tests';
process.env.STRYKER_TEST_FILES = JSON.stringify([...new Set(selected.flatMap((group) => group[testList]))]);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
// biome-ignore lint/style/noDefaultExport: Stryker reads its configuration from the default export.
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // Each group names its test files (vitest.mutation.config.ts): vitest's search for related files is not needed.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [...new Set(selected.flatMap((group) => group.mutate))],
  // One test process at a time: the machine is shared, and each mutant already runs only the tests that cover it.
  concurrency: 1,
  coverageAnalysis: 'perTest',
  // Mutants in module-level code would need every test re-run with a fresh import: too slow to run on demand.
  ignoreStatic: true,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${label}.html` },
  jsonReporter: { fileName: `reports/mutation/${label}.json` },
  ignorePatterns: [
    '.stryker-tmp',
    'apps/web',
    'e2e',
    'bench',
    'docs',
    'reports',
    'apps/server/dist',
    'data',
    'test-results',
  ],
  tempDirName: `.stryker-tmp/${label}`,
  cleanTempDir: true,
};
