import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded files wait while they are parsed: each upload is streamed to a file of its own, chunk by chunk, and
 * the parser process reads it from there. The server never gathers a whole upload in memory (four large uploads at
 * once used to mean tens of megabytes of buffers, copied again for the worker, and the long garbage collections that
 * followed). The folder is private to this user (0700, files 0600) and removed on close.
 */
export interface UploadDir {
  /** Streams `source` to a new file; the caller removes it with `remove` once done. */
  save(source: Readable): Promise<{ path: string; size: number }>;
  remove(file: string): Promise<void>;
  close(): void;
}

export function createUploadDir(parent = tmpdir()): UploadDir {
  const dir = mkdtempSync(path.join(parent, 'flashcards-uploads-'));
  return {
    async save(source) {
      const file = path.join(dir, randomUUID());
      let size = 0;
      source.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      try {
        await pipeline(source, createWriteStream(file, { mode: 0o600 }));
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
      return { path: file, size };
    },
    remove: (file) => rm(file, { force: true }),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
