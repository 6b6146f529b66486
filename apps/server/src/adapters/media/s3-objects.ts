import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** S3_ENDPOINT (unset: AWS itself), S3_BUCKET, S3_REGION, the key pair, and path-style addressing (most others). */
export interface S3Settings {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

/** Objects of one bucket of any S3-compatible store, through the AWS SDK. */
export interface S3Objects {
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Readable>;
  remove(keys: string[]): Promise<void>;
  close(): void;
}

export class S3ObjectMissingError extends Error {
  override name = 'S3ObjectMissingError';
}

export function createS3Objects(settings: S3Settings): S3Objects {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: other S3-compatible stores reject the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  });
  const Bucket = settings.bucket;
  return {
    async put(key, data, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: data, ContentType: contentType }));
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!(object.Body instanceof Readable)) throw new S3ObjectMissingError(`${key}: no body`);
        return object.Body;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') throw new S3ObjectMissingError(key);
        throw error;
      }
    },
    async remove(keys) {
      // DeleteObjects takes at most 1,000 keys.
      for (let start = 0; start < keys.length; start += 1000) {
        await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: keys.slice(start, start + 1000).map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
    },
    close() {
      client.destroy();
    },
  };
}
