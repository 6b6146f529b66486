import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { insertMediaChunks, mediaStream } from './database-chunks';
import { createS3Objects, type S3Settings } from './s3-objects';

/** Where an image's bytes are: chunks in the database (media_chunks), or an object of an S3-compatible bucket. */
export type MediaStoreKind = 'database' | 's3';

/** A stored image as the store needs it: its row id (database chunks) and content hash (the S3 object's key). */
export interface StoredMedia {
  id: string;
  sha256: string;
  store: MediaStoreKind;
}

/**
 * Keeps images' bytes. New images go to the configured store (`kind`); an image is read from the store its row
 * names, so images written before a switch of MEDIA_STORE are still served. In S3 an object's key is the content
 * hash, shared by every row of that content (a shared deck's copies too), and deleted once no row uses it.
 */
export interface MediaStore {
  readonly kind: MediaStoreKind;
  /** Writes the bytes of a new row `media` (database chunks are written through `db`, the caller's transaction). */
  put(
    db: Kysely<Database>,
    media: { id: string; sha256: string; contentType: string },
    data: Uint8Array,
  ): Promise<void>;
  /** The bytes as a stream (database: a chunk per query; S3: the object's body). */
  open(db: Kysely<Database>, media: StoredMedia): Promise<Readable>;
  /** Deletes S3 objects by content hash (database chunks go with their row by foreign key). */
  removeObjects(sha256s: string[]): Promise<void>;
  /** Stops the S3 client's sockets. */
  close(): void;
}

export class MediaStoreUnavailableError extends Error {
  override name = 'MediaStoreUnavailableError';
}

/** The key of an image's object in the bucket. */
export const objectKey = (sha256: string) => `media/${sha256}`;

export function createMediaStore(options: { kind: MediaStoreKind; s3?: S3Settings | undefined }): MediaStore {
  const objects = options.s3 ? createS3Objects(options.s3) : undefined;
  if (options.kind === 's3' && !objects) throw new MediaStoreUnavailableError('MEDIA_STORE=s3 without S3 settings');
  const needObjects = () => {
    if (!objects) throw new MediaStoreUnavailableError('an image is in S3, and no S3 bucket is configured');
    return objects;
  };
  return {
    kind: options.kind,
    async put(db, media, data) {
      if (options.kind === 'database') return insertMediaChunks(db, media.id, data);
      await needObjects().put(objectKey(media.sha256), data, media.contentType);
    },
    async open(db, media) {
      if (media.store === 'database') return mediaStream(db, media.id);
      return needObjects().get(objectKey(media.sha256));
    },
    async removeObjects(sha256s) {
      if (sha256s.length === 0) return;
      await needObjects().remove(sha256s.map(objectKey));
    },
    close() {
      objects?.close();
    },
  };
}
