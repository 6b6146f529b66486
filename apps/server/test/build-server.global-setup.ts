import { buildServer, serverBuildIsStale } from '../../../scripts/build-server.mjs';

/**
 * Builds the server once, before any test file runs, when there is no build or the sources changed: the tests that run
 * the built server (`npm start`'s) or `npm run worker` run in parallel and must not each rebuild (and so delete)
 * apps/server/dist under the others.
 */
export async function setup(): Promise<void> {
  if (serverBuildIsStale()) await buildServer();
}
