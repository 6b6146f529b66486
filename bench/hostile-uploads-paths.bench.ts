// The untrusted paths of the turn-3 security audit (issue 30) against the real server, built to JavaScript and started
// as `npm start` runs it, one fresh process per group of cases, with the load sent from this process: hostile Anki
// imports, a 10^6-note and a 199,000-note package, the big deck's card list, export, single-letter searches and
// deletion, the quadratic-regex export, and a huge image fetched anonymously. Prints for each case the answer, its
// time, the slowest GET /healthz meanwhile (a separate process polling in a tight loop: from outside, the bound on the
// server's event-loop delay), the server process's peak RSS (procfs, every 10 ms) and its workers' (children's), and
// for each group the time SIGTERM takes to end the server (SIGKILL after 20 s). Goals (issue 30): event-loop delay
// ≤ 100 ms, RSS < 400 MB, SIGTERM ≤ 10 s.
// `npm run bench -- hostile-uploads-paths` (`-- hostile-uploads` runs it after hostile-uploads.bench.ts);
// BENCH_GROUPS=imports,big-deck… runs some groups. Every loop has a count and a time limit.
import { cpus, loadavg } from 'node:os';
import { rssOf } from '../apps/server/test/support/processes';
import { hostilePackages } from './support/hostile-packages';
import {
  type BenchServer,
  fileUpload,
  MB,
  newUser,
  probeStalls,
  sampleMemory,
  startBenchServer,
  stopBenchServer,
} from './support/server-process';

const requestLimitMs = 180_000;

interface Answer {
  status: number;
  label: string;
  json?: unknown;
}

async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(requestLimitMs) });
    const bytes = Buffer.from(await response.arrayBuffer());
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      json = undefined;
    }
    const code = (json as { code?: string } | undefined)?.code;
    const size = bytes.byteLength >= 100_000 ? ` ${(bytes.byteLength / MB).toFixed(1)} MB` : '';
    return { status: response.status, label: `${response.status}${code ? ` ${code}` : ''}${size}`, json };
  } catch (error) {
    return { status: 0, label: `no answer (${(error as Error).name})` };
  }
}

function importFile(base: string, headers: Record<string, string>, bytes: Buffer, filename: string) {
  return request(`${base}/import`, fileUpload(headers, bytes, filename));
}

const rows: string[] = [];
const print = (line: string) => {
  rows.push(line);
  console.log(line);
};

/** Runs one case: its answer and time, the slowest /healthz meanwhile, and the peak RSS of the server and workers. */
async function measure(server: BenchServer, name: string, run: () => Promise<Answer | Answer[]>): Promise<Answer[]> {
  const stopMemory = sampleMemory(server);
  const stopProbe = probeStalls(server);
  const started = performance.now();
  const answer = await run();
  const ms = performance.now() - started;
  const stall = await stopProbe();
  const memory = stopMemory();
  const workers = Math.max(0, ...memory.processes.map((one) => one.peak));
  const answers = Array.isArray(answer) ? answer : [answer];
  const labels = [...new Set(answers.map((one) => one.label))].join(', ');
  print(
    `  ${name.padEnd(48)}${labels.slice(0, 34).padEnd(36)}${`${(ms / 1000).toFixed(1)} s`.padStart(8)}` +
      `${`${stall.toFixed(0)} ms`.padStart(14)}${`${(memory.server / MB).toFixed(0)} MB`.padStart(10)}` +
      `${`${(workers / MB).toFixed(0)} MB`.padStart(10)}`,
  );
  return answers;
}

async function group(name: string, env: Record<string, string>, cases: (server: BenchServer) => Promise<void>) {
  const only = process.env.BENCH_GROUPS?.split(',');
  if (only && !only.includes(name)) return;
  const server = await startBenchServer(env);
  print(`\n${name} (a fresh server, idle RSS ${(rssOf(server.child.pid ?? 0) / MB).toFixed(0)} MB)`);
  try {
    await cases(server);
  } finally {
    print(`  SIGTERM ends the server in: ${await stopBenchServer(server)}`);
  }
}

const importTimeout = { IMPORT_TIMEOUT: '20s' };

console.log(`load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`);
console.log(
  `  ${'case'.padEnd(48)}${'answer'.padEnd(36)}${'time'.padStart(8)}${'/healthz max'.padStart(14)}` +
    `${'server'.padStart(10)}${'workers'.padStart(10)}`,
);

await group('imports', importTimeout, async (server) => {
  const headers = await newUser(server);
  const cases: [string, () => Promise<Buffer>][] = [
    ['zeroblob view, 4 x 256 MB (1 KB .apkg)', () => hostilePackages.zeroblobView(4, 256)],
    ['zstd frame declaring 1 GB (171 B)', () => hostilePackages.zstdDeclares(1_000_000_000)],
    ['template sections nested 20,000 deep', () => hostilePackages.nestedSections()],
    ['template {{F}} x 10,000, {{FrontSide}} x 100', () => hostilePackages.amplifiedTemplate()],
  ];
  for (const [name, make] of cases) {
    const bytes = await make();
    await measure(server, name, () => importFile(server.base, headers, bytes, 'hostile.apkg'));
  }
});

await group('sql-loop', importTimeout, async (server) => {
  const headers = await newUser(server);
  const bytes = await hostilePackages.sqlLoopView();
  await measure(server, 'view over an endless recursive CTE (1 KB)', () =>
    importFile(server.base, headers, bytes, 'loop.apkg'),
  );
});

await group('million-notes', { IMPORT_TIMEOUT: '120s' }, async (server) => {
  const headers = await newUser(server);
  const bytes = await hostilePackages.manyNotes(1_000_000);
  await measure(server, `10^6 notes (${(bytes.length / MB).toFixed(1)} MB .apkg)`, () =>
    importFile(server.base, headers, bytes, 'million.apkg'),
  );
});

await group('big-deck', { IMPORT_TIMEOUT: '120s' }, async (server) => {
  const headers = await newUser(server);
  const bytes = await hostilePackages.manyNotes(199_000);
  const [imported] = await measure(server, `199,000 notes (${(bytes.length / MB).toFixed(1)} MB .apkg)`, () =>
    importFile(server.base, headers, bytes, 'big.apkg'),
  );
  const deckId = (imported?.json as { decks?: { _id: string }[] } | undefined)?.decks?.[0]?._id;
  if (!deckId) return;
  await measure(server, 'GET /decks/{id}/cards without limit', () =>
    request(`${server.base}/decks/${deckId}/cards`, { headers }),
  );
  await measure(server, 'GET /decks/{id}/export.apkg (199,000 cards)', () =>
    request(`${server.base}/decks/${deckId}/export.apkg`, { headers }),
  );
  const letters = 'abcdefghijklmnopqrstuvwxyz'.split('').join(' ');
  await measure(server, 'search of 26 single letters', () =>
    request(`${server.base}/cards/search?${new URLSearchParams({ q: letters })}`, { headers }),
  );
  await measure(server, 'the same, 5 at once', () =>
    Promise.all(
      Array.from({ length: 5 }, () =>
        request(`${server.base}/cards/search?${new URLSearchParams({ q: letters })}`, { headers }),
      ),
    ),
  );
  await measure(server, 'search of 10 single digits (another shape)', () =>
    request(`${server.base}/cards/search?${new URLSearchParams({ q: '1 2 3 4 5 6 7 8 9 0' })}`, { headers }),
  );
  await measure(server, 'DELETE /decks/{id} (199,000 cards)', () =>
    request(`${server.base}/decks/${deckId}`, { method: 'DELETE', headers }),
  );
});

await group('export-redos', {}, async (server) => {
  const headers = await newUser(server);
  const question = `<div>${'<'.repeat(19_990)}`;
  const csv = Array.from({ length: 25 }, (_, index) => `"${question}",answer ${index}`).join('\n');
  const imported = await importFile(server.base, headers, Buffer.from(csv), 'cards.csv');
  const deckId = (imported.json as { decks?: { _id: string }[] } | undefined)?.decks?.[0]?._id;
  await measure(server, 'export of 25 cards of `<div>` + 19,990 `<`', () =>
    request(`${server.base}/decks/${deckId}/export.apkg`, { headers }),
  );
});

await group('media', { IMPORT_TIMEOUT: '120s' }, async (server) => {
  const headers = await newUser(server);
  const bytes = await hostilePackages.hugeImage(100);
  const [imported] = await measure(server, `import of a 100 MB "PNG" (${(bytes.length / 1024).toFixed(0)} KB)`, () =>
    importFile(server.base, headers, bytes, 'big-image.apkg'),
  );
  const deckId = (imported?.json as { decks?: { _id: string }[] } | undefined)?.decks?.[0]?._id;
  if (!deckId) return;
  const deck = await request(`${server.base}/decks/${deckId}`, { headers });
  const question = (deck.json as { flashcards?: { question: string }[] }).flashcards?.[0]?.question ?? '';
  const name = /\/media\/([0-9a-f]{40}\.\w+)/.exec(question)?.[1];
  if (!name) return;
  await measure(server, 'one anonymous GET /media/{name}', () => request(`${server.base}/media/${name}`));
  await measure(server, '3 anonymous GETs at once', () =>
    Promise.all(Array.from({ length: 3 }, () => request(`${server.base}/media/${name}`))),
  );
});
