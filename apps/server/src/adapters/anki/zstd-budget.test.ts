import { describe, expect, it } from 'vitest';
import { basic, basicNote, buildPackage, pngBytes, zipFiles } from '../../../test/support/anki-packages';
import { readZipEntries } from '../extract/safe-zip';
import { InvalidPackageError, readAnkiPackage } from './anki-package';
import { OutputTooLargeError, zstdDecompress } from './zstd';

// The zstd entries of an Anki package (the collection, the media map, each media file) share one unpacked-size
// budget: each is inflated only up to what the entries before it left, never each up to the full cap.

const KIB = 1024;

/**
 * A zstd frame of RLE blocks: `size` copies of `byte` in a few bytes per 128 KiB, so a tiny entry (and a tiny zip
 * entry) unpacks to as much as a test needs.
 */
function rleZstd(byte: number, size: number): Buffer {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])];
  const max = 128 * KIB;
  let at = 0;
  do {
    const blockSize = Math.min(max, size - at);
    const last = at + blockSize >= size ? 1 : 0;
    const header = (blockSize << 3) | (1 << 1) | last; // block type 1: RLE
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, byte]));
    at += blockSize;
  } while (at < size);
  return Buffer.concat(parts);
}

/** A latest-format package of one note whose media entries `0` and `1` unpack to `sizes[0]` and `sizes[1]` bytes. */
async function packageWithMedia(sizes: [number, number]): Promise<Buffer> {
  const built = await buildPackage(
    {
      notetypes: [basic],
      decks: { 1: 'Default' },
      notes: [basicNote(1, 'guidBudget1', ['<img src="a.png">', '<img src="b.png">'])],
      media: { 'a.png': pngBytes, 'b.png': pngBytes },
    },
    'anki21b',
  );
  const entries = await readZipEntries(built, 64 * 1024 * KIB);
  entries.set('0', rleZstd(0x61, sizes[0]));
  entries.set('1', rleZstd(0x62, sizes[1]));
  return zipFiles([...entries]);
}

/** What the package's entries other than the two media files unpack to through zstd (collection and media map). */
async function fixedPart(): Promise<number> {
  const entries = await readZipEntries(await packageWithMedia([1, 1]), 64 * 1024 * KIB);
  let total = 0;
  for (const name of ['collection.anki21b', 'media']) {
    total += zstdDecompress(entries.get(name) as Buffer, 64 * 1024 * KIB).length;
  }
  return total;
}

describe('zstd entries of an Anki package share the unpacked-size budget', () => {
  it('the RLE frames are valid zstd that unpack to their size, from a few bytes', () => {
    const frame = rleZstd(0x61, 300 * KIB);
    expect(frame.length).toBeLessThan(20);
    expect(zstdDecompress(frame, 300 * KIB)).toEqual(Buffer.alloc(300 * KIB, 0x61));
    expect(() => zstdDecompress(frame, 300 * KIB - 1)).toThrow(OutputTooLargeError);
  });

  it('reads a package whose zip and zstd entries together fit the cap', async () => {
    const cap = 1024 * KIB;
    const fixed = await fixedPart();
    const first = 256 * KIB;
    // Room left for the zip entries themselves too, so the package fits however strictly the two are added up.
    const zipped = [...(await readZipEntries(await packageWithMedia([1, 1]), cap)).values()];
    const second = cap - fixed - first - zipped.reduce((sum, entry) => sum + entry.length, 0) - 64;
    const pkg = await readAnkiPackage(await packageWithMedia([first, second]), cap);
    expect(pkg.media.get('a.png')?.length).toBe(first);
    expect(pkg.media.get('b.png')?.length).toBe(second);
    expect(pkg.collection.notes.size).toBe(1);
  });

  it('refuses a package whose zstd entries each fit the cap but together pass it by one byte', async () => {
    const cap = 1024 * KIB;
    const fixed = await fixedPart();
    const first = 256 * KIB;
    const second = cap - fixed - first + 1;
    await expect(readAnkiPackage(await packageWithMedia([first, second]), cap)).rejects.toThrow(InvalidPackageError);
    await expect(readAnkiPackage(await packageWithMedia([first, second]), cap)).rejects.toThrow(
      'zstd: unpacks to more than the cap',
    );
  });

  it('refuses two media files that are each three quarters of the cap', async () => {
    const cap = 1024 * KIB;
    const each = 768 * KIB;
    await expect(readAnkiPackage(await packageWithMedia([each, each]), cap)).rejects.toThrow(
      'zstd: unpacks to more than the cap',
    );
  });
});
