import { defineConfig } from 'vitest/config';

/** `npm run e2e`: browser tests against the real server (see support/global-setup.ts). One file at a time. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: 'e2e',
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    reporters: ['default', '../scripts/summary-reporter.ts'],
  },
});
