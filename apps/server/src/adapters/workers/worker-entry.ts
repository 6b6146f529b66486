import { setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How to start a worker process on the module `file` sits beside: the compiled .js when the server runs from a
 * build, else the TypeScript source through tsx. `url` is the caller's import.meta.url.
 */
export function workerEntry(url: string, name: string): { file: string; execArgv: string[] } {
  const here = fileURLToPath(url);
  const compiled = here.endsWith('.js');
  const file = path.join(path.dirname(here), `${name}.${compiled ? 'js' : 'ts'}`);
  return { file, execArgv: compiled ? [] : ['--import', 'tsx'] };
}

/**
 * Called at the top of a worker process: lowers its CPU priority to the lowest (nice 19), so that when parsing or generation
 * keeps every core busy, the server's event loop is still scheduled first and keeps answering.
 */
export function yieldCpuToServer(): void {
  try {
    setPriority(19);
  } catch {
    // Not allowed here: run at normal priority.
  }
}
