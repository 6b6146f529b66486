import { defineConfig } from 'vitest/config';

// The server tests that `npm run mutate` (stryker.config.mjs) runs against mutants: the files of the chosen groups,
// on SQLite, one file at a time, without the built-server setup (no group's tests start a server process).

const files: string[] = JSON.parse(process.env.STRYKER_TEST_FILES ?? '[]');
const left = (process.env.MUTATE_EXCLUDE_TESTS ?? '')
  .split(',')
  .map((file) => file.trim())
  .filter(Boolean);

export default defineConfig({
  test: {
    name: 'mutation',
    environment: 'node',
    include: files,
    exclude: ['**/node_modules/**', '**/*.redis.test.ts', ...left],
    fileParallelism: false,
    // Stryker switches mutants at run time, so the modules can stay loaded between runs: much less work per mutant.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
