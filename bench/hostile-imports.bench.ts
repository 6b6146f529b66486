// `npm run bench -- hostile-imports`: the turn-3 audit's hostile and large imports against a real server process,
// started as `npm start` runs it (the server built to JavaScript), with the load sent from this separate process.
// For each package: the answer and its time, the server's largest event-loop delay meanwhile (measured inside it by
// bench/support/event-loop-monitor.mjs, preloaded), the slowest /healthz answer (polled every 10 ms by a process of
// its own), and the peak RSS of the server and of the import's reading processes. Then how long SIGTERM takes to end
// the server while an import is being read.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  basic,
  buildPackage,
  type TestNote,
  type TestPackage,
  zipFiles,
} from '../apps/server/test/support/anki-packages';
import { endlessCte, oneNote, zstdDeclaring, zstdZeros } from '../apps/server/test/support/hostile-packages';
import { childrenOf, commandOf, rssOf } from '../apps/server/test/support/processes';
import {
  type BenchServer,
  eventLoopDelays,
  largestEventLoopDelay,
  MB,
  mb,
  newUser,
  postFile,
  startBenchServer,
  stopBenchServer,
  whileWatched,
} from './support/server-process';
import { percentile } from './support/study-account';

/** The 100 ms windows between `from` and `to` whose largest delay passed 100 ms: "+offset s: delay ms". */
function stalls(server: BenchServer, from: number, to: number): string {
  return eventLoopDelays(server, from, to)
    .filter(({ ms }) => ms > 100)
    .map(({ at, ms }) => `+${((at - from) / 1000).toFixed(1)} s: ${ms.toFixed(0)} ms`)
    .join(', ');
}

async function importFile(server: BenchServer, headers: Record<string, string>, bytes: Buffer, filename: string) {
  const reply = await postFile(server, '/import', headers, bytes, filename);
  return { ...reply, answer: reply.json.code ?? `${reply.json.cards_imported} cards` };
}

/** `count` Basic notes of short text in one deck (the audit's t-many-notes.mjs). */
function manyNotes(count: number): TestPackage {
  const notes: TestNote[] = [];
  for (let i = 0; i < count; i++) {
    notes.push({
      id: i + 1,
      guid: `n${i}`,
      notetypeId: basic.id,
      fields: [`front ${i}`, `back ${i}`],
      cards: [{ ord: 0, deckId: 1 }],
    });
  }
  return { notetypes: [basic], decks: { 1: 'Many' }, notes };
}

const cases: { name: string; make: () => Promise<Buffer> }[] = [
  {
    name: 'view over an endless recursive CTE',
    make: () =>
      buildPackage(
        oneNote(['q', 'a'], {
          sql: `drop table fields; create view fields as ${endlessCte} select 1 as ntid, 0 as ord, 'x' as name, x'' as config from r where i < 0`,
        }),
        'anki21b',
      ),
  },
  {
    name: 'view of 8 × zeroblob(256 MB)',
    make: () =>
      buildPackage(
        oneNote(['q', 'a'], {
          sql: `drop table decks; create view decks as with recursive r(i) as (select 1 union all select i + 1 from r where i < 8)
            select i as id, zeroblob(256 * 1048576) as name, 0 as mtime_secs, 0 as usn, x'' as common, x'' as kind from r`,
        }),
        'anki21b',
      ),
  },
  {
    name: 'zstd frame declaring 2 GB',
    make: () => zipFiles([['collection.anki21b', zstdDeclaring(Buffer.from('0123456789'), 2_000_000_000)]]),
  },
  {
    name: 'zip 500 MB + zstd 500 MB (each under the cap)',
    make: () =>
      zipFiles([
        ['filler', Buffer.alloc(500 * MB)],
        ['collection.anki21b', zstdZeros(500 * MB)],
      ]),
  },
  { name: 'zstd RLE bomb of 600 MB', make: () => zipFiles([['collection.anki21b', zstdZeros(600 * MB)]]) },
  { name: '1,000,000 notes (over MAX_CARDS_PER_USER)', make: () => buildPackage(manyNotes(1_000_000)) },
  { name: '199,000 notes (under the cap)', make: () => buildPackage(manyNotes(199_000)) },
];

const server = await startBenchServer();
const { child } = server;
try {
  const pid = child.pid ?? 0;
  console.log(
    `server idle RSS ${mb(rssOf(pid))}; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores\n`,
  );
  console.log(
    'package                                        size      answer              time   event loop  /healthz max  server RSS  reader RSS',
  );
  // BENCH_ONLY=199 runs only the cases whose name contains it.
  for (const { name, make } of cases.filter((c) => c.name.includes(process.env.BENCH_ONLY ?? ''))) {
    const bytes = await make();
    const headers = await newUser(server);
    const watched = await whileWatched(server, () => importFile(server, headers, bytes, 'bench.apkg'));
    const { result: reply, from, to, times, memory } = watched;
    const reader = Math.max(
      0,
      ...memory.processes.filter((one) => one.parentCommand.includes('import-broker')).map((one) => one.peak),
    );
    console.log(
      `${name.padEnd(46)}${`${(bytes.length / 1024).toFixed(0)} KB`.padStart(9)}  ${`${reply.status} ${reply.answer}`.padEnd(18)}` +
        `${`${(reply.ms / 1000).toFixed(1)} s`.padStart(8)}${`${largestEventLoopDelay(server, from, to).toFixed(0)} ms`.padStart(13)}` +
        `${`${(times.at(-1) ?? 0).toFixed(0)} ms`.padStart(14)}${mb(memory.server).padStart(12)}${mb(reader).padStart(12)}` +
        `   (/healthz median ${percentile(times, 50).toFixed(0)} ms of ${times.length})`,
    );
    const over = stalls(server, from, to);
    if (over) console.log(`  event-loop delays over 100 ms: ${over}`);
  }

  // SIGTERM while an import is being read (the 600 MB RLE bomb keeps a reading process busy for many seconds).
  const headers = await newUser(server);
  const bomb = await zipFiles([['collection.anki21b', zstdZeros(500 * MB)]]);
  const pending = importFile(server, headers, bomb, 'spin.apkg').catch(() => null);
  const started = Date.now();
  while (!childrenOf(pid).some((c) => commandOf(c).includes('import-broker') && childrenOf(c).length > 0)) {
    if (Date.now() - started > 30_000) throw new Error('no reading process appeared');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const killedAt = performance.now();
  child.kill('SIGTERM');
  await exited;
  console.log(
    `\nSIGTERM during an import: the server exited after ${(performance.now() - killedAt).toFixed(0)} ms (goal ≤ 10 s)`,
  );
  await pending;
} finally {
  await stopBenchServer(server);
}
