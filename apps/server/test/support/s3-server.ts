/**
 * A real S3-compatible server (s3rver) on a loopback port, with an empty bucket, for MEDIA_STORE=s3 tests, and the
 * settings that point the app at it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error: s3rver ships no types.
import S3rver from 's3rver';

export interface LocalS3 {
  env: Record<string, string>;
  bucket: string;
  endpoint: string;
  close(): Promise<void>;
}

/** Ports 41510–41539 (this helper's band), one per server started in a test run. */
let nextPort = 41_510 + (process.pid % 30);

export async function startLocalS3(bucket = 'media'): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const port = nextPort;
  nextPort = 41_510 + ((nextPort - 41_510 + 1) % 30);
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    bucket,
    endpoint,
    env: {
      MEDIA_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The bytes stored under `key` in the server's bucket, or null when it holds no such object. */
export async function readLocalS3Object(s3: LocalS3, key: string): Promise<Buffer | null> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    return Buffer.from(await (object.Body?.transformToByteArray() ?? new Uint8Array()));
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  } finally {
    client.destroy();
  }
}
