import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/build-server.global-setup.ts'],
    // Redis-backed tests run only where a Redis is given (CI sets REDIS_URL); they are not collected otherwise.
    exclude: process.env.REDIS_URL ? [] : ['**/*.redis.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
