// `npm run bench`: runs every benchmark in bench/ (TypeScript through tsx, or plain .mjs), one after another,
// so that each prints figures measured in one run on this machine. `npm run bench -- NAME` runs the matching ones.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const filter = process.argv[2];
const files = readdirSync(path.join(root, 'bench'))
  .filter((name) => /\.bench\.(ts|mjs)$/.test(name))
  .filter((name) => !filter || name.includes(filter))
  .sort();

let failed = 0;
for (const name of files) {
  console.log(`\n== ${name}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join('bench', name)], {
    cwd: root,
    stdio: 'inherit',
  });
  if (run.status !== 0) failed++;
}
if (files.length === 0) console.log('No benchmarks matched.');
process.exit(failed ? 1 : 0);
