/**
 * POST /media and GET /media/{name} with both media stores (the database, and a real S3-compatible server on
 * loopback), and the hostile images of issue 34, each a 4xx { detail, code } while the server keeps serving. On
 * SQLite, and on PostgreSQL with DATABASE_URL.
 */
import type { UploadedMedia } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, expectValidationError } from './support/api-error';
import { type AuthHeaders, deleteAccount, signUpAndLogIn } from './support/factories';
import {
  decompressionBombPng,
  exifRotationJpeg,
  hugeHeaderPng,
  manyFramesGif,
  realImage,
  svgImage,
  truncatedJpeg,
} from './support/hostile-images';
import { postMultipart } from './support/multipart';
import { type LocalS3, readLocalS3Object, startLocalS3 } from './support/s3-server';
import { createTestApp, type TestContext } from './support/test-app';

// Each upload starts a parser process: slow on a loaded machine.
vi.setConfig({ testTimeout: 90_000 });

const baseEnv = { AUTH_RATE_LIMIT_PER_IP: '1000', MEDIA_UPLOAD_MAX_BYTES: '400000', EXTRACT_TIMEOUT: '20s' };

function upload(ctx: TestContext, headers: AuthHeaders, bytes: Buffer, filename = 'picture.png') {
  return postMultipart(ctx.app, '/media', headers, [{ name: 'file', value: bytes, filename }]);
}

async function mediaRows(ctx: TestContext, userId: string) {
  return ctx.database.db
    .selectFrom('media')
    .select(['id', 'name', 'sha256', 'size', 'content_type', 'store'])
    .where('user_id', '=', userId)
    .execute();
}

async function chunkBytes(ctx: TestContext, mediaId: string) {
  const rows = await ctx.database.db
    .selectFrom('media_chunks')
    .select('data')
    .where('media_id', '=', mediaId)
    .orderBy('seq')
    .execute();
  return Buffer.concat(rows.map((row) => Buffer.from(row.data)));
}

for (const store of ['database', 's3'] as const) {
  describe(`POST /media and GET /media/{name} (MEDIA_STORE=${store})`, () => {
    let ctx: TestContext;
    let s3: LocalS3 | undefined;

    beforeAll(async () => {
      s3 = store === 's3' ? await startLocalS3() : undefined;
      ctx = await createTestApp({ env: { ...baseEnv, ...(s3?.env ?? {}) } });
    });
    afterAll(async () => {
      await ctx?.close();
      await s3?.close();
    });

    async function objectBytes(sha256: string): Promise<Buffer> {
      if (!s3) throw new Error('no S3 server');
      const bytes = await readLocalS3Object(s3, `media/${sha256}`);
      if (!bytes) throw new Error(`no object media/${sha256}`);
      return bytes;
    }

    it.each([
      ['png', 'image/png'],
      ['jpeg', 'image/jpeg'],
      ['webp', 'image/webp'],
      ['gif', 'image/gif'],
    ] as const)(
      'stores a %s as the uploader’s, answers 201 with its size, and serves it byte for byte',
      async (format, type) => {
        const { headers, user } = await signUpAndLogIn(ctx.app);
        const bytes = await realImage(format, 120, 80);
        const response = await upload(ctx, headers, bytes, `picture.${format}`);
        expect(response.statusCode, response.body).toBe(201);
        const body = response.json<UploadedMedia>();
        const extension = format === 'jpeg' ? 'jpg' : format;
        expect(body).toEqual({
          name: expect.stringMatching(new RegExp(`^[0-9a-f]{40}\\.${extension}$`)),
          url: `/media/${body.name}`,
          width: 120,
          height: 80,
          content_type: type,
        });
        const [row, ...more] = await mediaRows(ctx, user._id);
        expect(more).toEqual([]);
        expect(row).toMatchObject({ name: body.name, size: bytes.byteLength, content_type: type, store });
        if (!row) throw new Error('no row');
        if (store === 'database') expect((await chunkBytes(ctx, row.id)).equals(bytes)).toBe(true);
        else {
          expect(await chunkBytes(ctx, row.id)).toHaveLength(0);
          expect((await objectBytes(row.sha256)).equals(bytes)).toBe(true);
        }

        const served = await ctx.app.inject({ method: 'GET', url: body.url });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(type);
        expect(served.headers['content-length']).toBe(String(bytes.byteLength));
        expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
        expect(served.rawPayload.equals(bytes)).toBe(true);
      },
    );

    it('keeps one image per content: the same bytes again answer the same name, and another user gets a name of their own', async () => {
      const first = await signUpAndLogIn(ctx.app);
      const second = await signUpAndLogIn(ctx.app);
      const bytes = await realImage('png', 64, 48);
      const a = (await upload(ctx, first.headers, bytes)).json<UploadedMedia>();
      const again = await upload(ctx, first.headers, bytes);
      expect(again.statusCode).toBe(201);
      expect(again.json<UploadedMedia>().name).toBe(a.name);
      expect(await mediaRows(ctx, first.user._id)).toHaveLength(1);
      const b = (await upload(ctx, second.headers, bytes)).json<UploadedMedia>();
      expect(b.name).not.toBe(a.name);
      expect((await ctx.app.inject({ method: 'GET', url: b.url })).rawPayload.equals(bytes)).toBe(true);
    });

    it('swaps the sides of an image whose EXIF says it is turned a quarter (orientation 6)', async () => {
      const { headers } = await signUpAndLogIn(ctx.app);
      const response = await upload(ctx, headers, await exifRotationJpeg(6), 'turned.jpg');
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<UploadedMedia>()).toMatchObject({ width: 80, height: 120, content_type: 'image/jpeg' });
    });

    it('deletes the image (and its bytes) with the account', async () => {
      const { headers, user } = await signUpAndLogIn(ctx.app);
      const body = (await upload(ctx, headers, await realImage('png', 30, 30))).json<UploadedMedia>();
      expect((await deleteAccount(ctx.app, headers)).statusCode).toBe(204);
      expect(await mediaRows(ctx, user._id)).toEqual([]);
      expectError(
        await ctx.app.inject({ method: 'GET', url: body.url }),
        404,
        'media_not_found',
        serverMessages.mediaNotFound,
      );
      if (store === 's3') {
        const released = await ctx.database.db.selectFrom('media_released').select('sha256').execute();
        expect(released.length).toBeGreaterThan(0);
      }
    });
  });
}

describe('POST /media refusals and hostile images', () => {
  let ctx: TestContext;
  let headers: AuthHeaders;
  let userId: string;
  beforeAll(async () => {
    ctx = await createTestApp({ env: baseEnv });
    const account = await signUpAndLogIn(ctx.app);
    headers = account.headers;
    userId = account.user._id;
  });
  afterAll(async () => ctx?.close());

  it('needs a session', async () => {
    const response = await postMultipart(ctx.app, '/media', {}, [
      { name: 'file', value: await realImage('png'), filename: 'a.png' },
    ]);
    expect(response.statusCode).toBe(401);
  });

  it('refuses an SVG, a text file and a PDF as 415 unsupported_file_type, whatever their names say', async () => {
    for (const [bytes, name] of [
      [svgImage, 'drawing.svg'],
      [svgImage, 'drawing.png'],
      [Buffer.from('just some words'), 'notes.png'],
      [Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n'), 'paper.jpg'],
    ] as const) {
      expectError(
        await upload(ctx, headers, bytes, name),
        415,
        'unsupported_file_type',
        serverMessages.invalidImageType,
      );
    }
    expect(await mediaRows(ctx, userId)).toEqual([]);
  });

  it('refuses an image above MEDIA_UPLOAD_MAX_BYTES as 413 file_too_large', async () => {
    const big = Buffer.concat([await realImage('png'), Buffer.alloc(400_001 - (await realImage('png')).byteLength)]);
    expectError(
      await upload(ctx, headers, big),
      413,
      'file_too_large',
      fillMessage(serverMessages.imageTooLarge, { size: '390.6 KB' }),
    );
  });

  it('answers 422 when no file is sent', async () => {
    const response = await postMultipart(ctx.app, '/media', headers, [{ name: 'other', value: 'x' }]);
    expectValidationError(response, 'file', serverMessages.imageNoFile);
  });

  it.each([
    ['a decompression-bomb PNG (20,000 × 20,000 in 50 KB)', async () => decompressionBombPng(), 'bomb.png'],
    ['a truncated JPEG', truncatedJpeg, 'cut.jpg'],
    ['a 30,000 × 30,000 header', async () => hugeHeaderPng(), 'huge.png'],
    ['a GIF of 10,000 frames', async () => manyFramesGif(), 'frames.gif'],
    ['EXIF claiming a rotation of 1e9', async () => exifRotationJpeg(), 'rotated.jpg'],
  ] as const)('answers %s with 422 file_unreadable and stores nothing', async (_what, make, name) => {
    const response = await upload(ctx, headers, await make(), name);
    expectError(response, 422, 'file_unreadable', serverMessages.imageUnreadable);
    expect(await mediaRows(ctx, userId)).toEqual([]);
  });
});
