// Child process of hostile-uploads-paths.bench.ts: GET URL/healthz in a tight loop (one request at a time, 5 ms
// apart) until its stdin closes, MAX_MS pass or MAX_COUNT requests are made, then prints the slowest answer (ms) as
// JSON. A request still waiting when it stops counts with its wait so far. From outside the server, the slowest
// answer bounds the server's largest event-loop delay (plus the OS's scheduling of both processes).
const [url, maxMs = '600000', maxCount = '200000'] = process.argv.slice(2);
const deadline = performance.now() + Number(maxMs);
let stopped = false;
let slowest = 0;
let count = 0;
let failures = 0;
let waitingSince = null;
const stop = () => {
  if (stopped) return;
  stopped = true;
  if (waitingSince !== null) slowest = Math.max(slowest, performance.now() - waitingSince);
  process.stdout.write(JSON.stringify({ slowest, count, failures }));
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.resume();
while (!stopped && count < Number(maxCount) && performance.now() < deadline) {
  waitingSince = performance.now();
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(Number(maxMs)) }).then((r) => r.arrayBuffer());
  } catch {
    failures += 1;
  }
  slowest = Math.max(slowest, performance.now() - waitingSince);
  waitingSince = null;
  count += 1;
  await new Promise((resolve) => setTimeout(resolve, 5));
}
stop();
