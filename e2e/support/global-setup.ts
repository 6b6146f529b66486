import type { TestProject } from 'vitest/node';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** One real server for the whole end-to-end run. */
export async function setup(project: TestProject) {
  // E2E_PORT pins its port (where each person on a shared machine has a band of ports); otherwise any free one.
  const server = await startServer({}, { port: process.env.E2E_PORT ? Number(process.env.E2E_PORT) : undefined });
  project.provide('baseUrl', server.url);
  return async () => {
    await server.stop();
  };
}
