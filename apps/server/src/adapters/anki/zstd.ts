import { Decompress } from 'fzstd';

export class OutputTooLargeError extends Error {
  override name = 'OutputTooLargeError';
}

/** Inflates zstd data, stopping as soon as the output passes `maxBytes` (a zstd bomb stays bounded). */
export function zstdDecompress(data: Uint8Array, maxBytes: number): Buffer {
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
