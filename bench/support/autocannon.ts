// The autocannon CLI in a child process, so that the load never shares the measured server's event loop or CPU
// accounting; its JSON report summarised.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadOptions {
  connections: number;
  seconds: number;
  method?: string;
  headers?: Record<string, string>;
  /** A JSON body, sent with its content type. */
  body?: string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Bytes a second, on average. */
  throughput: number;
  total: number;
  /** Answers that were not 2xx, and connection errors. */
  bad: number;
}

export function runLoad(url: string, options: LoadOptions): Promise<LoadResult> {
  const args = [autocannonCli, '-j', '-c', String(options.connections), '-d', String(options.seconds)];
  args.push('-m', options.method ?? 'GET');
  for (const [key, value] of Object.entries(options.headers ?? {})) args.push('-H', `${key}=${value}`);
  if (options.body) args.push('-H', 'content-type=application/json', '-b', options.body);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    // 'close', not 'exit': the report may still be in the pipe when the process exits.
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const report = JSON.parse(stdout) as {
        requests: { average: number; total: number };
        throughput: { average: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
      };
      resolve({
        rps: report.requests.average,
        p50: report.latency.p50,
        p99: report.latency.p99,
        throughput: report.throughput.average,
        total: report.requests.total,
        bad: report.non2xx + report.errors,
      });
    });
  });
}
