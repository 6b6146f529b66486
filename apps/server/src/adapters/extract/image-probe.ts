import sharp, { type Metadata } from 'sharp';
import { UnreadableFileError } from './extracted';

/** The image types POST /media accepts. */
export type ImageContentType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

/** What a decoded image is: its size (as shown, EXIF rotation applied), type and frame count. */
export interface ProbedImage {
  width: number;
  height: number;
  contentType: ImageContentType;
  frames: number;
}

export interface ImageProbeLimits {
  /** Pixels of one frame, and of all frames together, at most (the decompression-bomb guard). */
  maxImagePixels: number;
  /** Frames of an animated GIF or WebP at most. */
  maxFrames: number;
}

const contentTypes: Record<string, ImageContentType> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/**
 * The EXIF orientation (tag 0x0112 of IFD0) as written, or undefined when there is none: sharp quietly reads a
 * value outside 1–8 as 1, and such a value means the file was made to mislead a reader.
 */
export function exifOrientation(exif: Buffer): number | undefined {
  const start = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const tiff = exif.subarray(start);
  if (tiff.length < 8) return undefined;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') throw new UnreadableFileError('EXIF: not a TIFF header');
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) throw new UnreadableFileError('EXIF: IFD0 outside the data');
  const entries = u16(ifd);
  for (let index = 0; index < entries; index += 1) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > tiff.length) throw new UnreadableFileError('EXIF: IFD0 entry outside the data');
    if (u16(entry) !== 0x0112) continue;
    const type = u16(entry + 2);
    // SHORT is the type the standard gives the tag; LONG is read too, to see a huge value for what it is.
    if (type === 3) return u16(entry + 8);
    if (type === 4) return u32(entry + 8);
    throw new UnreadableFileError(`EXIF: orientation of type ${type}`);
  }
  return undefined;
}

/**
 * Reads and fully decodes an image inside the parser process: header checked against the pixel and frame caps
 * before any decoding, EXIF orientation checked, then every frame decoded (a truncated or corrupt file fails here,
 * not in a learner's browser). Only the first frame's pixels are kept, shrunk, so memory stays small.
 */
export async function probeImage(bytes: Buffer, limits: ImageProbeLimits): Promise<ProbedImage> {
  sharp.cache(false);
  sharp.concurrency(1);
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new UnreadableFileError(`image header: ${error instanceof Error ? error.message : String(error)}`);
  }
  const contentType = contentTypes[metadata.format ?? ''];
  if (!contentType) throw new UnreadableFileError(`image format ${metadata.format ?? 'unknown'} is not accepted`);
  const frameWidth = metadata.width ?? 0;
  const frameHeight = metadata.pageHeight ?? metadata.height ?? 0;
  const frames = metadata.pages ?? 1;
  if (!frameWidth || !frameHeight) throw new UnreadableFileError('image without dimensions');
  if (frameWidth * frameHeight > limits.maxImagePixels) {
    throw new UnreadableFileError(`image of ${frameWidth}×${frameHeight} pixels is above the cap`);
  }
  if (frames > limits.maxFrames) throw new UnreadableFileError(`image of ${frames} frames is above the cap`);
  if (frameWidth * frameHeight * frames > limits.maxImagePixels) {
    throw new UnreadableFileError(`image of ${frames} frames of ${frameWidth}×${frameHeight} is above the pixel cap`);
  }
  const orientation = metadata.exif ? exifOrientation(metadata.exif) : undefined;
  if (orientation !== undefined && (orientation < 1 || orientation > 8)) {
    throw new UnreadableFileError(`EXIF orientation ${orientation} is not one of 1–8`);
  }
  try {
    await sharp(bytes, {
      limitInputPixels: limits.maxImagePixels,
      failOn: 'truncated',
      animated: frames > 1,
    })
      .resize(32, 32, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch (error) {
    throw new UnreadableFileError(`image decode: ${error instanceof Error ? error.message : String(error)}`);
  }
  const rotated = (orientation ?? 1) >= 5;
  return {
    width: rotated ? frameHeight : frameWidth,
    height: rotated ? frameWidth : frameHeight,
    contentType,
    frames,
  };
}
