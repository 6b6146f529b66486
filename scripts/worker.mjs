// `npm run worker`: a generation worker for GENERATION_QUEUE=redis (apps/server/src/worker.ts), run as `npm start`
// runs the server: built to JavaScript (scripts/build-server.mjs, when there is no build or the sources changed) and
// started with the same Node options. SIGINT and SIGTERM are passed on, so running jobs finish before it exits.
import { spawn } from 'node:child_process';
import { buildServer, generationWorkerEntry, serverBuildIsStale, serverNodeOptions } from './build-server.mjs';

if (serverBuildIsStale()) {
  console.error('Building the server…');
  await buildServer();
}
const child = spawn(process.execPath, [...serverNodeOptions, generationWorkerEntry], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
