import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createUploadDir } from './upload-dir';

// Where uploads wait for the parser: a private folder, one private file per upload, its size counted while it is
// streamed, nothing left behind by a failed upload or by close.

const parent = mkdtempSync(path.join(tmpdir(), 'upload-dir-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('createUploadDir', () => {
  it('streams each upload to a file of its own, 0600 in a 0700 folder, and counts its bytes', async () => {
    const uploads = createUploadDir(parent);
    const first = await uploads.save(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    const second = await uploads.save(Readable.from([Buffer.from('again')]));
    expect(first.size).toBe(11);
    expect(readFileSync(first.path, 'utf8')).toBe('hello world');
    expect(second.path).not.toBe(first.path);
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    const folder = path.dirname(first.path);
    expect(path.dirname(folder)).toBe(parent);
    expect(path.basename(folder)).toMatch(/^flashcards-uploads-/);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    await uploads.remove(first.path);
    expect(existsSync(first.path)).toBe(false);
    await uploads.remove(first.path);
    uploads.close();
    expect(existsSync(folder)).toBe(false);
  });

  it('removes the partial file of an upload that fails midway, and passes the error on', async () => {
    const uploads = createUploadDir(parent);
    const kept = await uploads.save(Readable.from([Buffer.from('kept')]));
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(uploads.save(failing)).rejects.toThrow('client went away');
    expect(readdirSync(path.dirname(kept.path))).toEqual([path.basename(kept.path)]);
    uploads.close();
  });
});
