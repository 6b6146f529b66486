// `npm start`: builds the web app and the server (apps/server/dist, scripts/build-server.mjs) when there is no build
// (or the sources changed since), then runs the built server as a supervised child process (scripts/supervise.mjs):
// restarted if it ever dies while serving, SIGTERM and SIGINT passed on to its graceful shutdown.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverBuildIsStale, serverEntry, serverNodeOptions } from './build-server.mjs';
import { supervise } from './supervise.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');
const webSources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/scripts',
  'packages/shared/src',
].map((p) => path.join(root, p));

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestChange(path.join(target, name))), 0);
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
if (builtAt === 0 || Math.max(...webSources.map(newestChange)) > builtAt) {
  console.log(builtAt === 0 ? 'Building the web app (first start)…' : 'Web app sources changed: rebuilding…');
  const build = spawnSync('npm', ['run', 'build', '--workspace', '@flashcards/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (serverBuildIsStale()) {
  console.log('Building the server…');
  await buildServer();
}

process.exit(await supervise(serverEntry, serverNodeOptions));
