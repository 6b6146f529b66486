// Hostile and large honest uploads against a real server process, started as `npm start` runs it (the server built
// to JavaScript, minus the web build), with the load sent from this separate process. Prints, for each hostile file,
// the time to the answer and the server process's peak RSS while it was handled; then, during four concurrent large
// honest uploads (two 9 MB DOCX, two 300-page PDFs), the server's largest event-loop delay (measured inside it by
// bench/support/event-loop-monitor.mjs, preloaded), the /healthz answer times (polled every 10 ms by a process of
// its own: the delay plus the OS's scheduling of both processes), and the peak RSS of the server and its workers.
import { cpus, loadavg } from 'node:os';
import { hostileUploads, repeatedSlidePptx } from '../apps/server/test/support/hostile-files';
import { rssOf } from '../apps/server/test/support/processes';
import { docxOf, textPdf } from './support/large-documents';
import {
  type BenchServer,
  largestEventLoopDelay,
  type MemoryPeaks,
  mb,
  newUser,
  type ProcessPeak,
  postFile,
  sampleMemory,
  startBenchServer,
  stopBenchServer,
  whileWatched,
} from './support/server-process';
import { percentile } from './support/study-account';

/** The peak RSS of the server's workers by kind: the parser broker, the parser processes it starts, the generators. */
function workerPeaks(server: BenchServer, memory: MemoryPeaks) {
  const peaks = (keep: (one: ProcessPeak) => boolean) => memory.processes.filter(keep).map((one) => one.peak);
  return {
    /** Parser processes (parse-worker), each under EXTRACT_MEMORY_MB. */
    parser: peaks((one) => one.parentCommand.includes('parser-broker')),
    broker: peaks((one) => one.command.includes('parser-broker')),
    generator: peaks((one) => one.parent === server.child.pid && !one.command.includes('broker')),
  };
}

async function upload(server: BenchServer, headers: Record<string, string>, bytes: Buffer, filename: string) {
  const reply = await postFile(server, '/create', headers, bytes, filename);
  return { ...reply, code: reply.json.code ?? `${reply.json.cards?.length ?? 0} cards` };
}

// The audit's files, and the slide listed 3,000 times (read once: 200 with its cards).
const hostile = [
  ...hostileUploads,
  { name: 'PPTX listing one slide 3,000 times', filename: 'a.pptx', make: () => repeatedSlidePptx(3000) },
];

const server = await startBenchServer();
try {
  const idle = rssOf(server.child.pid ?? 0);
  console.log(`server idle RSS ${mb(idle)} (pid ${server.child.pid})\n`);
  console.log(
    'hostile file                          answer                  time      server peak RSS  worker peak RSS',
  );
  for (const { name, filename, make } of hostile) {
    const bytes = await make();
    const headers = await newUser(server);
    const stop = sampleMemory(server);
    const reply = await upload(server, headers, bytes, filename);
    const memory = stop();
    console.log(
      `${name.padEnd(38)}${`${reply.status} ${reply.code}`.padEnd(24)}${`${reply.ms.toFixed(0)} ms`.padStart(8)}` +
        `${mb(memory.server).padStart(17)}${mb(Math.max(0, ...workerPeaks(server, memory).parser)).padStart(17)}`,
    );
  }

  const honest = [
    { label: '9 MB DOCX', filename: 'a.docx', bytes: await docxOf(9 * 1024 * 1024) },
    { label: '9 MB DOCX', filename: 'b.docx', bytes: await docxOf(9 * 1024 * 1024) },
    { label: '300-page PDF', filename: 'a.pdf', bytes: await textPdf(300) },
    { label: '300-page PDF', filename: 'b.pdf', bytes: await textPdf(300) },
  ];
  const headers = await Promise.all(honest.map(() => newUser(server)));
  const watched = await whileWatched(server, () =>
    Promise.all(honest.map((file, i) => upload(server, headers[i] ?? {}, file.bytes, file.filename))),
  );
  const { result: replies, from: uploadsFrom, to: uploadsTo, times, memory } = watched;
  const workers = workerPeaks(server, memory);
  console.log('\nfour concurrent large honest uploads:');
  honest.forEach((file, i) => {
    const reply = replies[i];
    console.log(
      `  ${file.label} (${(file.bytes.length / 1e6).toFixed(1)} MB): ${reply?.status} ${reply?.code} in ${((reply?.ms ?? 0) / 1000).toFixed(1)} s`,
    );
  });
  console.log(
    `  server's largest event-loop delay meanwhile: ${largestEventLoopDelay(server, uploadsFrom, uploadsTo).toFixed(0)} ms ` +
      '(perf_hooks.monitorEventLoopDelay in the server process; goal ≤ 50 ms; 2,300 ms before isolation)',
  );
  console.log(
    `  /healthz from another process meanwhile (${times.length} polls): median ${percentile(times, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(times, 99).toFixed(0)} ms, slowest ${(times.at(-1) ?? 0).toFixed(0)} ms (adds the OS's ` +
      `scheduling of both processes); load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
  );
  console.log(`  server process peak RSS: ${mb(memory.server)} (goal ≤ 400 MB)`);
  console.log(
    `  parser workers' peak RSS, each: ${workers.parser.map(mb).join(', ') || 'none seen'} (cap ${process.env.EXTRACT_MEMORY_MB ?? 768} MB)`,
  );
  console.log(
    `  parser broker: ${workers.broker.map(mb).join(', ') || 'none seen'}; offline generator workers: ` +
      `${workers.generator.map(mb).join(', ') || 'none seen'}`,
  );
} finally {
  await stopBenchServer(server);
}
