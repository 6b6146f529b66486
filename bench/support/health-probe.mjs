// Child process of hostile-uploads.bench.ts: polls URL/healthz every 10 ms until its stdin closes, then prints the
// answer times (ms) as JSON. A process of its own, so that the uploads the bench sends (and their garbage) never
// delay the probe: what it measures is the server.
const url = process.argv[2];
const times = [];
let running = true;
process.stdin.on('end', () => {
  running = false;
});
process.stdin.resume();
while (running) {
  const started = performance.now();
  await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
  times.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 10));
}
process.stdout.write(JSON.stringify(times));
