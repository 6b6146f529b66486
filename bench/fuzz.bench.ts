// `npm run bench -- fuzz`: the route fuzzer of apps/server/test/fuzz-routes.test.ts, longer: FUZZ_RUNS cases per
// route (default 300) from FUZZ_SEED (default: the time, printed so a failure can be replayed), on SQLite, or on
// PostgreSQL when DATABASE_URL is set. Prints the cases sent, the time, and the first failure if any.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = process.env.FUZZ_RUNS ?? '300';
const seed = process.env.FUZZ_SEED ?? String(Date.now() % 1_000_000);
process.stdout.write(`fuzzing every route: ${runs} cases each, seed ${seed} (FUZZ_SEED=${seed} replays it)\n`);
const started = performance.now();
const run = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', 'apps/server/test/fuzz-routes.test.ts'],
  { cwd: root, env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed }, encoding: 'utf8' },
);
const output = `${run.stdout}${run.stderr}`;
const failure = /Caused by: Error: (.*)/.exec(output)?.[1];
process.stdout.write(
  `${run.status === 0 ? 'no failure' : `FAILED: ${failure ?? 'see vitest output'}`} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
);
if (run.status !== 0) process.stdout.write(output.slice(-4000));
process.exit(run.status ?? 1);
