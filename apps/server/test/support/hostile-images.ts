/**
 * Images for POST /media: real ones made with sharp, and hostile ones built byte by byte (a decompression bomb, a
 * truncated JPEG, a huge header, an SVG, a GIF of 10,000 frames, EXIF claiming a rotation of 1e9).
 */
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { pngChunk } from './png-chunk';

/** A small picture with some detail (a gradient and a square), so that encoders keep real data. */
export async function realImage(format: 'png' | 'jpeg' | 'webp' | 'gif', width = 120, height = 80): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      const inSquare = x > width / 4 && x < width / 2 && y > height / 4 && y < height / 2;
      raw[at] = inSquare ? 255 : (x * 255) / width;
      raw[at + 1] = (y * 255) / height;
      raw[at + 2] = inSquare ? 0 : 128;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    [format]()
    .toBuffer();
}

/** A 1-bit greyscale PNG of `width` × `height` whose IDAT is `idat` (already deflated). */
function png(width: number, height: number, idat: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A decompression bomb: 20,000 × 20,000 pixels (400 megapixels, 50 MB of rows) of white in a file of about 50 KB;
 * decoded as RGBA it would take 1.6 GB.
 */
export function decompressionBombPng(): Buffer {
  const side = 20_000;
  return png(side, side, deflateSync(Buffer.alloc((side / 8 + 1) * side), { level: 9 }));
}

/** Only a header that claims 30,000 × 30,000 pixels, and a scrap of data. */
export function hugeHeaderPng(): Buffer {
  return png(30_000, 30_000, deflateSync(Buffer.alloc(64)));
}

/** A real JPEG cut off at 60 % of its bytes. */
export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await realImage('jpeg', 640, 480);
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

export const svgImage = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);

/** An animated GIF of 10,000 frames of 1 × 1 pixel (small: the frame count is the attack). */
export async function manyFramesGif(frames = 10_000): Promise<Buffer> {
  const raw = Buffer.alloc(frames * 3);
  for (let i = 0; i < frames; i += 1) raw[i * 3] = i % 256;
  return sharp(raw, { raw: { width: 1, height: frames, channels: 3, pageHeight: 1 } })
    .gif()
    .toBuffer();
}

/** An APP1 Exif segment whose IFD0 holds only an orientation of LONG type with this value. */
function exifSegment(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(4, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt32BE(orientation, 18);
  tiff.writeUInt32BE(0, 22);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const marker = Buffer.alloc(4);
  marker.writeUInt16BE(0xffe1, 0);
  marker.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([marker, body]);
}

/** A real JPEG whose EXIF says to rotate it by orientation 1,000,000,000 (valid values are 1–8). */
export async function exifRotationJpeg(orientation = 1_000_000_000): Promise<Buffer> {
  const jpeg = await realImage('jpeg');
  return Buffer.concat([jpeg.subarray(0, 2), exifSegment(orientation), jpeg.subarray(2)]);
}
