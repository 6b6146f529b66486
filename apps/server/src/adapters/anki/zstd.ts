import { Decompress } from 'fzstd';

export class OutputTooLargeError extends Error {
  override name = 'OutputTooLargeError';
}

/**
 * The content size a zstd frame's header declares, or null when it declares none. fzstd allocates a single-segment
 * frame's whole declared size up front, so a 20-byte frame declaring 2 GB would cost 2 GB before a byte is checked.
 */
export function declaredContentSize(data: Uint8Array): number | null {
  if (!isZstd(data) || data.length < 5) return null;
  const descriptor = data[4] ?? 0;
  const fcsFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const dictIdBytes = [0, 1, 2, 4][descriptor & 3] ?? 0;
  const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag] ?? 0;
  if (fcsBytes === 0) return null;
  const at = 5 + (singleSegment ? 0 : 1) + dictIdBytes;
  if (data.length < at + fcsBytes) return null;
  let size = 0;
  for (let index = fcsBytes - 1; index >= 0; index--) size = size * 256 + (data[at + index] ?? 0);
  return fcsBytes === 2 ? size + 256 : size;
}

/**
 * Inflates zstd data, stopping as soon as the output passes `maxBytes` (a zstd bomb stays bounded); a frame that
 * declares more than `maxBytes` is refused before inflating.
 */
export function zstdDecompress(data: Uint8Array, maxBytes: number): Buffer {
  const declared = declaredContentSize(data);
  if (declared !== null && declared > maxBytes) {
    throw new OutputTooLargeError(`declares ${declared} bytes, more than the ${maxBytes} left`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > maxBytes) throw new OutputTooLargeError('unpacks to more than the cap');
    chunks.push(chunk);
  });
  // Fed in slices so the cap is checked while inflating, not after.
  const step = 1 << 20;
  for (let at = 0; at < data.length; at += step) {
    stream.push(data.subarray(at, Math.min(at + step, data.length)), at + step >= data.length);
  }
  if (data.length === 0) throw new Error('empty zstd data');
  return Buffer.concat(chunks);
}

export function isZstd(data: Uint8Array): boolean {
  return data.length >= 4 && data[0] === 0x28 && data[1] === 0xb5 && data[2] === 0x2f && data[3] === 0xfd;
}
