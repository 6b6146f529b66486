// What Linux's /proc tells about other processes: the tests and benchmarks that watch a server's child processes
// (which exist, what they run, how much memory they hold) read it through these, each answering "gone" as empty.
import { readdirSync, readFileSync } from 'node:fs';

function procFile(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** The ids of every process alive. */
export const allPids = (): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);

/** The parent of `pid`, or null once it has exited. */
export function parentOf(pid: number): number | null {
  const stat = procFile(pid, 'stat');
  return stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : null;
}

/** The command line of `pid` (its arguments joined by NUL), or '' once it has exited. */
export const commandOf = (pid: number): string => procFile(pid, 'cmdline');

/** The resident memory of `pid` in bytes, or 0 once it has exited. */
export function rssOf(pid: number): number {
  const statm = procFile(pid, 'statm');
  return statm ? Number(statm.split(' ')[1]) * 4096 : 0;
}

/** The processes `pid` started (cheaper than a walk over every process: benches sample it every 10 ms). */
export const childrenOf = (pid: number): number[] =>
  procFile(pid, `task/${pid}/children`).trim().split(/\s+/).filter(Boolean).map(Number);

/** Every process below `pid`: its children, theirs… */
export const descendantsOf = (pid: number): number[] =>
  childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
