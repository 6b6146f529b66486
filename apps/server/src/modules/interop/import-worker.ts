import { parentPort, workerData } from 'node:worker_threads';
import { describeParseError, type ParseInput, parseImport } from './import-parser';

// Worker-thread entry (import-runner.ts starts it): reads one uploaded file off the main event loop.
const port = parentPort;
if (port) {
  parseImport(workerData as ParseInput).then(
    (result) => {
      port.postMessage(
        { ok: true, result },
        result.media.map((media) => media.data.buffer as ArrayBuffer),
      );
    },
    (error: unknown) => {
      const failure = describeParseError(error);
      port.postMessage(
        failure
          ? { ok: false, invalid: true, reason: failure.reason }
          : {
              ok: false,
              invalid: false,
              reason: error instanceof Error ? (error.stack ?? error.message) : String(error),
            },
      );
    },
  );
}
