import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['apps/server'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
