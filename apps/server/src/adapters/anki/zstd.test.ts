import { describe, expect, it } from 'vitest';
import { rawZstd } from '../../../test/support/anki-packages';
import { zstdDeclaring } from '../../../test/support/hostile-packages';
import { declaredContentSize, isZstd, OutputTooLargeError, zstdDecompress } from './zstd';

// The zstd guard of Anki packages: the content size a frame header declares (read before fzstd allocates it), the
// refusal of a frame declaring more than the budget, and the cap checked while inflating.

const magic = [0x28, 0xb5, 0x2f, 0xfd];
const frame = (...bytes: number[]) => Uint8Array.from([...magic, ...bytes]);

describe('declaredContentSize', () => {
  it('reads the frame content size field in each of its widths, little-endian', () => {
    // Single segment, 1-byte field.
    expect(declaredContentSize(frame(0x20, 0x05))).toBe(5);
    // 2-byte field (after the window byte), which counts from 256.
    expect(declaredContentSize(frame(0x40, 0x00, 0x01, 0x02))).toBe(0x0201 + 256);
    // Single segment, 4-byte field.
    expect(declaredContentSize(frame(0xa0, 0x01, 0x02, 0x03, 0x04))).toBe(0x04030201);
    // 8-byte field.
    expect(declaredContentSize(frame(0xe0, 0x01, 0x02, 0x03, 0x04, 0x05, 0, 0, 0))).toBe(0x0504030201);
    expect(declaredContentSize(zstdDeclaring(Buffer.from('abc'), 2 ** 31, 8))).toBe(2 ** 31);
  });

  it('skips the window byte and a dictionary id of 1, 2 or 4 bytes before the size', () => {
    expect(declaredContentSize(frame(0x21, 0xff, 0x07))).toBe(7);
    expect(declaredContentSize(frame(0x22, 0xff, 0xff, 0x07))).toBe(7);
    expect(declaredContentSize(frame(0x83, 0x00, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02, 0x03, 0x04))).toBe(0x04030201);
  });

  it('is null when the header declares no size, is cut short, or is not zstd at all', () => {
    // Not single segment, size flag 0: no size field.
    expect(declaredContentSize(frame(0x00, 0x00, 0x05))).toBeNull();
    expect(declaredContentSize(frame(0xa0, 0x01, 0x02, 0x03))).toBeNull();
    expect(declaredContentSize(frame(0xa0, 0x01, 0x02, 0x03, 0x04))).not.toBeNull();
    expect(declaredContentSize(Uint8Array.from(magic))).toBeNull();
    expect(declaredContentSize(Uint8Array.from([0x28, 0xb5, 0x2f, 0xfe, 0x20, 0x05]))).toBeNull();
  });
});

describe('isZstd', () => {
  it('recognises the frame magic number, and nothing shorter or different', () => {
    expect(isZstd(Uint8Array.from(magic))).toBe(true);
    expect(isZstd(Uint8Array.from(magic.slice(0, 3)))).toBe(false);
    for (let index = 0; index < 4; index++) {
      const other = [...magic];
      other[index] = (other[index] ?? 0) ^ 1;
      expect(isZstd(Uint8Array.from(other))).toBe(false);
    }
  });
});

describe('zstdDecompress', () => {
  it('refuses a frame that declares more than the bytes left, before inflating it', () => {
    const lying = zstdDeclaring(Buffer.from('abc'), 1_000);
    expect(() => zstdDecompress(lying, 999)).toThrow(
      new OutputTooLargeError('declares 1000 bytes, more than the 999 left'),
    );
    // Declaring exactly the budget passes that check (the frame then fails on its own lie).
    expect(() => zstdDecompress(lying, 1_000)).not.toThrow(OutputTooLargeError);
    const honest = zstdDeclaring(Buffer.from('abc'), 3);
    expect(zstdDecompress(honest, 3).toString()).toBe('abc');
  });

  it('inflates data of more than one 1 MiB slice, and stops at the cap one byte short', () => {
    const data = Buffer.alloc(1_500_000);
    for (let index = 0; index < data.length; index++) data[index] = index % 251;
    const packed = rawZstd(data);
    expect(packed.length).toBeGreaterThan(1 << 20);
    expect(zstdDecompress(packed, data.length).equals(data)).toBe(true);
    expect(() => zstdDecompress(packed, data.length - 1)).toThrow(
      new OutputTooLargeError('unpacks to more than the cap'),
    );
  });

  it('refuses empty data', () => {
    expect(() => zstdDecompress(new Uint8Array(0), 100)).toThrow('empty zstd data');
  });
});
