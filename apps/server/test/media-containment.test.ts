/**
 * GET /media/{name} and shared copies' media (issue 30, audit turn 3 findings 5, 16 and 17): bytes stored and
 * streamed in chunks, a private immutable cache with the name as ETag, a per-address rate, and a copy of a shared
 * deck that owns its images. On SQLite, and on PostgreSQL with DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { insertMediaChunks, MEDIA_CHUNK_BYTES } from '../src/modules/interop/media-store';
import { basic, basicNote, buildPackage, pngBytes } from './support/anki-packages';
import { expectError } from './support/api-error';
import { exportedNotes } from './support/apkg-fields';
import { type AuthHeaders, deleteAccount, signUpAndLogIn } from './support/factories';
import { postMultipart } from './support/multipart';
import { importShare, shareDeck } from './support/study';
import { useTestApp } from './support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', MEDIA_RATE_LIMIT_PER_MINUTE: '5' } });

/** A distinct address per test, so each test has the media rate to itself. */
let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.30.0.${addresses}`;
};

async function importImageDeck(app: FastifyInstance, headers: AuthHeaders, deckName: string) {
  const file = await buildPackage({
    notetypes: [basic],
    decks: { 1: 'Default', 1700000000009: deckName },
    notes: [
      basicNote(
        1,
        `g${randomBytes(4).toString('hex')}`,
        ['Which animal? <img src="cat.png">', 'A cat'],
        1_700_000_000_009,
      ),
    ],
    media: { 'cat.png': pngBytes },
  });
  const response = await postMultipart(app, '/import', headers, [{ name: 'file', value: file, filename: 'cats.apkg' }]);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ decks: { _id: string }[] }>().decks[0]?._id ?? '';
}

function getMedia(name: string, remoteAddress: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'GET', url: `/media/${name}`, remoteAddress, headers });
}

async function mediaOf(userId: string) {
  return ctx.database.db
    .selectFrom('media')
    .select(['id', 'name', 'size', 'data'])
    .where('user_id', '=', userId)
    .execute();
}

async function chunksOf(mediaId: string) {
  return ctx.database.db
    .selectFrom('media_chunks')
    .select(['seq', 'data'])
    .where('media_id', '=', mediaId)
    .orderBy('seq')
    .execute();
}

describe('GET /media/{name}', () => {
  it('stores an imported image in chunks and serves it with a private immutable cache and its name as ETag', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    await importImageDeck(ctx.app, headers, 'Cats');
    const [media] = await mediaOf(user._id);
    if (!media) throw new Error('no media stored');
    expect(Buffer.from(media.data).byteLength).toBe(0);
    expect((await chunksOf(media.id)).map((chunk) => [chunk.seq, Buffer.from(chunk.data).equals(pngBytes)])).toEqual([
      [0, true],
    ]);

    const address = nextAddress();
    const response = await getMedia(media.name, address);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(pngBytes)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(pngBytes.byteLength),
      'cache-control': 'private, max-age=31536000, immutable',
      etag: `"${media.name}"`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    const again = await getMedia(media.name, address, { 'if-none-match': `"${media.name}"` });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.byteLength).toBe(0);
  });

  it('streams a large image chunk by chunk, byte for byte (the audit planted 200 MB; here 3.3 MB)', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    await importImageDeck(ctx.app, headers, 'Big');
    const [media] = await mediaOf(user._id);
    if (!media) throw new Error('no media stored');
    // Replaces the stored bytes with a large image, as an import within the old caps could store.
    const big = Buffer.concat([pngBytes, randomBytes(3 * MEDIA_CHUNK_BYTES + 12_345)]);
    await ctx.database.db.deleteFrom('media_chunks').where('media_id', '=', media.id).execute();
    await insertMediaChunks(ctx.database.db, media.id, big);
    await ctx.database.db.updateTable('media').set({ size: big.byteLength }).where('id', '=', media.id).execute();
    const chunks = await chunksOf(media.id);
    expect(chunks.map((chunk) => [chunk.seq, Buffer.from(chunk.data).byteLength])).toEqual([
      [0, MEDIA_CHUNK_BYTES],
      [1, MEDIA_CHUNK_BYTES],
      [2, MEDIA_CHUNK_BYTES],
      [3, pngBytes.byteLength + 12_345],
    ]);

    const response = await getMedia(media.name, nextAddress());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(big.byteLength));
    expect(response.rawPayload.equals(big)).toBe(true);
  });

  it('answers 429 rate_limited with Retry-After past MEDIA_RATE_LIMIT_PER_MINUTE for one address; others still load', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    await importImageDeck(ctx.app, headers, 'Limited');
    const [media] = await mediaOf(user._id);
    const address = nextAddress();
    const unknown = `${'0'.repeat(40)}.png`;
    // Misses count too: guessing names costs the same.
    for (const name of [media?.name, unknown, media?.name, unknown, media?.name]) {
      expect((await getMedia(name ?? '', address)).statusCode).toBeLessThan(429);
    }
    const refused = await getMedia(media?.name ?? '', address);
    expectError(refused, 429, 'rate_limited', serverMessages.rateLimited);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await getMedia(media?.name ?? '', nextAddress())).statusCode).toBe(200);
  });
});

describe('a copy of a shared deck owns its images (audit finding 16)', () => {
  it('copies the images under the importer’s own names; they outlive the sharer, and the importer’s export has them', async () => {
    const sharer = await signUpAndLogIn(ctx.app);
    const deckId = await importImageDeck(ctx.app, sharer.headers, 'Shared cats');
    const [original] = await mediaOf(sharer.user._id);
    if (!original) throw new Error('no media stored');
    const shareCode = await shareDeck(ctx.app, sharer.headers, deckId);
    const importer = await signUpAndLogIn(ctx.app);
    const copied = await importShare(ctx.app, importer.headers, shareCode);
    expect(copied.statusCode).toBe(201);
    const copyDeck = copied.json<{ _id: string }>()._id;

    const [own] = await mediaOf(importer.user._id);
    if (!own) throw new Error('the copy has no media of its own');
    expect(own.name).not.toBe(original.name);
    expect(own.size).toBe(pngBytes.byteLength);
    expect((await chunksOf(own.id)).map((chunk) => Buffer.from(chunk.data).equals(pngBytes))).toEqual([true]);
    const cards = await ctx.database.db
      .selectFrom('cards')
      .select(['id', 'question'])
      .where('user_id', '=', importer.user._id)
      .execute();
    expect(cards.map((card) => card.question)).toEqual([`Which animal? ![](/media/${own.name})`]);
    const links = await ctx.database.db
      .selectFrom('card_media')
      .select(['card_id', 'media_id'])
      .where('user_id', '=', importer.user._id)
      .execute();
    expect(links).toEqual([{ card_id: cards[0]?.id, media_id: own.id }]);

    const exported = await ctx.app.inject({
      method: 'GET',
      url: `/decks/${copyDeck}/export.apkg`,
      headers: importer.headers,
    });
    expect(exported.statusCode).toBe(200);
    expect((await exportedNotes(exported.rawPayload))[0]?.fields[0]).toBe(
      `Which animal? <img src="${own.name}" alt="">`,
    );
    const { readZipEntries } = await import('../src/adapters/extract/safe-zip');
    const entries = await readZipEntries(exported.rawPayload, 10_000_000);
    expect(JSON.parse(entries.get('media')?.toString() ?? '')).toEqual({ '0': own.name });
    expect(entries.get('0')?.equals(pngBytes)).toBe(true);

    // The sharer deletes the account: the copy's image still loads.
    const gone = await deleteAccount(ctx.app, sharer.headers);
    expect(gone.statusCode).toBe(204);
    expect(await mediaOf(sharer.user._id)).toEqual([]);
    expect(await chunksOf(original.id)).toEqual([]);
    const address = nextAddress();
    expect((await getMedia(original.name, address)).statusCode).toBe(404);
    const still = await getMedia(own.name, address);
    expect(still.statusCode).toBe(200);
    expect(still.rawPayload.equals(pngBytes)).toBe(true);
  });

  it('reuses the importer’s own image of the same content instead of storing it twice', async () => {
    const sharer = await signUpAndLogIn(ctx.app);
    const deckId = await importImageDeck(ctx.app, sharer.headers, 'Twice');
    const shareCode = await shareDeck(ctx.app, sharer.headers, deckId);
    const importer = await signUpAndLogIn(ctx.app);
    await importImageDeck(ctx.app, importer.headers, 'Mine already');
    const [mine] = await mediaOf(importer.user._id);
    const copied = await importShare(ctx.app, importer.headers, shareCode);
    expect(copied.statusCode).toBe(201);
    expect((await mediaOf(importer.user._id)).map((media) => media.id)).toEqual([mine?.id]);
    const links = await ctx.database.db
      .selectFrom('card_media')
      .select('media_id')
      .where('user_id', '=', importer.user._id)
      .execute();
    expect(links.map((link) => link.media_id)).toEqual([mine?.id, mine?.id]);
  });
});
