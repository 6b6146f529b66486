// Builds the server to JavaScript for `npm start` and `npm run worker`: esbuild bundles apps/server/src (and
// packages/shared, which is TypeScript) into apps/server/dist, one file per process entry: server.js, worker.js (the
// generation worker), and the worker processes' parse-worker.js, offline-worker.js, import-job.js, fsrs-fit-job.js and
// label-worker.js beside them
// (workerEntry and import-runner find them there),
// and the plain-JavaScript workers (the FSRS optimizer's, the WAL checkpointer's) copied there. npm packages are
// bundled too (one file loads far faster than thousands of small modules: start-up and memory), except those that
// must stay files in node_modules: native addons, and packages that find their own files or start their own workers
// at run time.
// `npm run dev` and the tests keep running the TypeScript through tsx.
//
// Usage: node scripts/build-server.mjs            (scripts/start.mjs runs it when the sources changed)
import { copyFileSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
export const serverDist = path.join(serverDir, 'dist');
export const serverEntry = path.join(serverDist, 'server.js');
export const generationWorkerEntry = path.join(serverDist, 'worker.js');
const sources = [
  path.join(serverDir, 'src'),
  path.join(root, 'packages/shared/src'),
  path.join(serverDir, 'package.json'),
  // Dependencies are bundled: an install that changes one (the lock file) makes the build stale too.
  path.join(root, 'package-lock.json'),
];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestChange(path.join(target, name))), 0);
}

/**
 * Node options for the built server: young-generation semi-spaces of at most 8 MB, so that a busy server collects less
 * often and no longer promotes the objects of the requests in flight (at some cost in idle memory); one helper thread
 * for the garbage collector, since two cores are shared with the workers; and no memory reducer, whose full
 * collections in idle spells left the server slower for the rest of its life. What each saved, and how it was
 * measured, is in docs/performance.md ("Node options of the built server").
 */
export const serverNodeOptions = ['--max-semi-space-size=8', '--v8-pool-size=1', '--no-memory-reducer'];

/** True when there is no build or a source file changed after it. */
export function serverBuildIsStale() {
  if (!existsSync(serverEntry)) return true;
  return Math.max(...sources.map(newestChange)) > statSync(serverEntry).mtimeMs;
}

/** Loaded from node_modules at run time, not bundled. */
const keptExternal = [
  // native addons
  'better-sqlite3',
  '@node-rs/argon2',
  '@napi-rs/canvas',
  // find their own files (workers, wasm, data, fonts) next to their code
  'tesseract.js',
  '@tesseract.js-data/eng',
  'pdfjs-dist',
  'tinypool',
  // optional peer dependencies that are never installed
  'pg-native',
];

export async function buildServer() {
  const { build } = await import('esbuild');
  rmSync(serverDist, { recursive: true, force: true });
  await build({
    absWorkingDir: serverDir,
    entryPoints: {
      server: 'src/server.ts',
      worker: 'src/worker.ts',
      'process-broker': 'src/adapters/workers/process-broker.ts',
      'parse-worker': 'src/adapters/extract/parse-worker.ts',
      'offline-worker': 'src/adapters/ai/offline/offline-worker.ts',
      'import-job': 'src/modules/interop/import-job.ts',
      'fsrs-fit-job': 'src/adapters/fsrs/fsrs-fit-job.ts',
      'label-worker': 'src/adapters/occlusion/label-worker.ts',
    },
    outdir: 'dist',
    bundle: true,
    // Code behind a dynamic import() goes to its own chunk, read only when first needed, so the server process does
    // not parse or hold what it may never use (the Stripe SDK, BullMQ, the offline generator of the tests' in-process
    // runner…). Chunks sit beside the entries, so import.meta.url-relative paths hold in them too. A CommonJS
    // package imported dynamically then offers only its `default` export (module.exports): write
    // `(await import('pg')).default`, never a named export, which works under tsx but is undefined in the build.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...keptExternal, ...keptExternal.map((name) => `${name}/*`)],
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    logLevel: 'warning',
    legalComments: 'none',
    minify: process.env.BUILD_MINIFY !== '0',
  });
  // Plain JavaScript workers that the code finds beside itself with new URL('./…', import.meta.url).
  for (const file of ['src/db/wal-checkpoint.worker.mjs']) {
    copyFileSync(path.join(serverDir, file), path.join(serverDist, path.basename(file)));
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(`Built apps/server/dist in ${Math.round(performance.now() - started)} ms`);
}
