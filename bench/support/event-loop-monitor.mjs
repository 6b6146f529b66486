// Preloaded into the server by bench/hostile-uploads.bench.ts (node --import): every 100 ms, appends the largest
// event-loop delay of the last 100 ms (perf_hooks.monitorEventLoopDelay) to BENCH_EVENT_LOOP_FILE, as
// "<epoch ms> <delay ms>". Worker processes the server starts inherit the option; only the server itself reports.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_EVENT_LOOP_FILE;
if (file && path.basename(process.argv[1] ?? '') === 'server.js') {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${(histogram.max / 1e6).toFixed(2)}\n`);
    histogram.reset();
  }, 100).unref();
}
