import { createHash, randomBytes } from 'node:crypto';
import type { UploadedMedia } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { fileTypeFromBuffer } from 'file-type';
import type { Clock } from '../../adapters/clock';
import { UnreadableFileError } from '../../adapters/extract/extracted';
import type { ImageProbeLimits } from '../../adapters/extract/image-probe';
import type { ImageProber } from '../../adapters/extract/isolated-extractor';
import type { IdGenerator } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { AppError, errors, rateLimited } from '../../http/app-error';
import { mediaName } from '../interop/import-parser';
import type { MediaRepo } from './media.repo';

export interface MediaServiceDeps {
  repo: MediaRepo;
  prober: ImageProber;
  clock: Clock;
  newId: IdGenerator;
  /** MEDIA_UPLOAD_RATE_LIMIT_PER_HOUR per user. */
  uploads: RateLimiter;
  /** The pixel and frame caps of the parser processes (EXTRACT_MAX_IMAGE_PIXELS). */
  limits: ImageProbeLimits;
  /** MEDIA_QUOTA_BYTES_PER_USER. */
  mediaQuotaBytes: number;
}

/** The accepted types, decided by the file's first bytes, and the extension of their names. */
const accepted: Record<string, UploadedMedia['content_type']> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/webp': 'image/webp',
  'image/gif': 'image/gif',
};
const extensions: Record<UploadedMedia['content_type'], string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

export const unsupportedImageType = () => errors.unsupportedFileType({ message: 'invalidImageType' });
export const imageUnreadable = () => errors.fileUnreadable({ message: 'imageUnreadable' });

/** A size for a message: KB or MB, one decimal at most. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_048_576) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}

/** POST /media: an image of the learner's, checked, decoded in a parser process, and stored as theirs. */
export function createMediaService(deps: MediaServiceDeps) {
  const { repo } = deps;

  /** Keeps `data` as the user's media (once per content: the same bytes again give the same name) and names it. */
  async function store(userId: string, data: Buffer, contentType: UploadedMedia['content_type']): Promise<string> {
    const sha256 = createHash('sha256').update(data).digest('hex');
    const now = deps.clock.now();
    const existing = await repo.findBySha(userId, sha256);
    if (existing) {
      await repo.touch(userId, existing.id, now);
      return existing.name;
    }
    const left = Math.max(0, deps.mediaQuotaBytes - (await repo.mediaBytes(userId)));
    if (data.byteLength > left) {
      throw errors.mediaQuotaExceeded({
        detail: fillMessage(serverMessages.mediaUploadQuotaExceeded, {
          size: formatBytes(data.byteLength),
          max: formatBytes(left),
        }),
      });
    }
    const secret = await repo.mediaSecret(userId, randomBytes(32).toString('hex'));
    const stored = await repo.insert({
      id: deps.newId(),
      userId,
      name: mediaName(secret, sha256, extensions[contentType]),
      sha256,
      contentType,
      data,
      createdAt: now,
    });
    return stored.name;
  }

  return {
    /** Counts an upload against the user's hourly rate (before the file is read). */
    async admitUpload(userId: string): Promise<void> {
      const waitMs = await deps.uploads.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
    },

    async upload(userId: string, data: Buffer): Promise<UploadedMedia> {
      // By content, never by name or declared type: an SVG (text) or anything else is refused before decoding.
      const sniffed = await fileTypeFromBuffer(data);
      const contentType = sniffed ? accepted[sniffed.mime] : undefined;
      if (!contentType) throw unsupportedImageType();
      let probed: Awaited<ReturnType<ImageProber['probeImage']>>;
      try {
        probed = await deps.prober.probeImage(data, deps.limits);
      } catch (error) {
        if (error instanceof UnreadableFileError) throw imageUnreadable();
        throw error;
      }
      if (probed.contentType !== contentType) throw imageUnreadable();

      return present(await store(userId, data, contentType), probed);
    },

    /** See FigureStore. */
    async storeFigure(
      userId: string,
      figure: { data: Buffer; contentType: 'image/jpeg' | 'image/png' },
    ): Promise<string | null> {
      try {
        return `/media/${await store(userId, figure.data, figure.contentType)}`;
      } catch (error) {
        if (error instanceof AppError && error.code === 'media_quota_exceeded') return null;
        throw error;
      }
    },
  };
}

function present(name: string, probed: { width: number; height: number; contentType: UploadedMedia['content_type'] }) {
  return {
    name,
    url: `/media/${name}`,
    width: probed.width,
    height: probed.height,
    content_type: probed.contentType,
  } satisfies UploadedMedia;
}

/**
 * Stores a figure of a generated card (already checked, and re-encoded when needed, in a parser process) as the user's media; its
 * URL, or null when the user's media quota has no room for it (the card is then given without it).
 */
export type FigureStore = (
  userId: string,
  figure: { data: Buffer; contentType: 'image/jpeg' | 'image/png' },
) => Promise<string | null>;

export type MediaService = ReturnType<typeof createMediaService>;
