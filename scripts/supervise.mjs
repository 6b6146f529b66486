// Runs the server as a child process and starts it again if it dies while serving (a crash, the kernel's OOM
// killer, a kill -9), logging why, with a back-off of 1 s doubling to 30 s (reset once a run has lasted a minute).
// A server that fails to start (a bad setting, a port in use) is not retried: its exit code is this process's.
// SIGINT and SIGTERM are passed on, so the server shuts down gracefully, and then this process exits too.
//
// Usage: node scripts/supervise.mjs [node options…] entry-file   (scripts/start.mjs calls it as a module)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const log = (message, fields = {}) =>
  process.stderr.write(
    `${JSON.stringify({ level: 40, time: Date.now(), name: 'supervisor', ...fields, msg: message })}\n`,
  );

/** Supervises `entry` (run with `execArgv`); resolves with the exit code this process should end with. */
export function supervise(entry, execArgv = []) {
  return new Promise((resolve) => {
    let child;
    let stopping = false;
    let delayMs = 1000;
    const stop = (signal) => {
      stopping = true;
      if (child && child.exitCode === null) child.kill(signal);
      else resolve(0);
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));

    const start = () => {
      const startedAt = Date.now();
      let listening = false;
      child = fork(entry, { execArgv, stdio: 'inherit' });
      child.on('message', (message) => {
        if (message?.listening) listening = true;
      });
      child.on('exit', (code, signal) => {
        if (stopping) return resolve(code ?? 0);
        if (!listening) {
          log('the server did not start; not restarting it', { code, signal });
          return resolve(code ?? 1);
        }
        if (Date.now() - startedAt > 60_000) delayMs = 1000;
        log(
          `the server died (${signal ? `signal ${signal}` : `exit code ${code}`}); restarting it in ${delayMs / 1000} s`,
          {
            code,
            signal,
            pid: child.pid,
          },
        );
        setTimeout(start, delayMs);
        delayMs = Math.min(delayMs * 2, 30_000);
      });
    };
    start();
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const entry = args.pop();
  process.exit(await supervise(entry, args));
}
