/**
 * Images on cards (issue 34): POST /save-cards keeps `images` (the user's own uploads only, at most 2), the Cards
 * tab's list and the review queue show them, deleting the card deletes what only it used, and the media sweep
 * deletes images no card uses after MEDIA_UNUSED_TTL and the S3 objects no row names. Both media stores; on
 * SQLite, and on PostgreSQL with DATABASE_URL.
 */
import type { Card, UploadedMedia } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMediaStore } from '../src/adapters/media/media-store';
import { createMediaSweep } from '../src/modules/media/media-sweep';
import { expectValidationError } from './support/api-error';
import { type AuthHeaders, signUpAndLogIn } from './support/factories';
import { realImage } from './support/hostile-images';
import { postMultipart } from './support/multipart';
import { type LocalS3, readLocalS3Object, startLocalS3 } from './support/s3-server';
import { createDeck } from './support/study';
import { createTestApp, type TestContext } from './support/test-app';

// Each upload starts a parser process: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const DAY = 86_400_000;

for (const store of ['database', 's3'] as const) {
  describe(`images on cards and the media sweep (MEDIA_STORE=${store})`, () => {
    let ctx: TestContext;
    let s3: LocalS3 | undefined;
    let size = 20;

    beforeAll(async () => {
      s3 = store === 's3' ? await startLocalS3() : undefined;
      ctx = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', ...(s3?.env ?? {}) } });
    });
    afterAll(async () => {
      await ctx?.close();
      await s3?.close();
    });

    /** A new image (a size not used before, so its content is new). */
    async function upload(headers: AuthHeaders): Promise<UploadedMedia> {
      size += 1;
      const response = await postMultipart(ctx.app, '/media', headers, [
        { name: 'file', value: await realImage('png', size, size), filename: 'figure.png' },
      ]);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<UploadedMedia>();
    }

    function saveCards(headers: AuthHeaders, deckId: string, cards: unknown[]) {
      return ctx.app.inject({ method: 'POST', url: '/save-cards', headers, payload: { deck_id: deckId, cards } });
    }

    const sweep = () =>
      createMediaSweep({
        db: ctx.database.db,
        store: createMediaStore({ kind: ctx.config.media.store, s3: ctx.config.media.s3 }),
        clock: ctx.clock,
        unusedTtlMs: ctx.config.media.unusedTtlMs,
      }).run();

    async function objectExists(sha256: string): Promise<boolean> {
      if (!s3) throw new Error('no S3 server');
      return (await readLocalS3Object(s3, `media/${sha256}`)) !== null;
    }

    const mediaRow = (name: string) =>
      ctx.database.db.selectFrom('media').select(['id', 'sha256', 'store']).where('name', '=', name).executeTakeFirst();

    it('keeps a card’s images in order and shows them on the save, the Cards tab and the review queue', async () => {
      const { headers, user } = await signUpAndLogIn(ctx.app);
      const deck = await createDeck(ctx.app, headers);
      const first = await upload(headers);
      const second = await upload(headers);
      const saved = await saveCards(headers, deck._id, [
        { question: 'Which organelle?', answer: 'Mitochondrion', images: [second.url, first.url] },
        { question: 'No picture', answer: 'None' },
      ]);
      expect(saved.statusCode, saved.body).toBe(201);
      const cards = saved.json<{ cards: Card[] }>().cards;
      expect(cards.map((card) => card.images)).toEqual([[second.url, first.url], []]);

      const links = await ctx.database.db
        .selectFrom('card_media')
        .select(['card_id', 'media_id', 'position', 'user_id'])
        .where('user_id', '=', user._id)
        .orderBy('position')
        .execute();
      expect(links).toEqual([
        { card_id: cards[0]?._id, media_id: (await mediaRow(second.name))?.id, position: 0, user_id: user._id },
        { card_id: cards[0]?._id, media_id: (await mediaRow(first.name))?.id, position: 1, user_id: user._id },
      ]);

      const list = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}/cards`, headers });
      expect(list.statusCode).toBe(200);
      const listed = list.json<Card[]>();
      expect(Object.fromEntries(listed.map((card) => [card.question, card.images]))).toEqual({
        'Which organelle?': [second.url, first.url],
        'No picture': [],
      });
      const due = await ctx.app.inject({ method: 'GET', url: `/cards/due?deck_id=${deck._id}`, headers });
      expect(due.statusCode).toBe(200);
      expect(Object.fromEntries(due.json<Card[]>().map((card) => [card.question, card.images]))).toEqual({
        'Which organelle?': [second.url, first.url],
        'No picture': [],
      });
    });

    it('refuses another user’s image, a third image and an address that is not an upload, saving nothing', async () => {
      const owner = await signUpAndLogIn(ctx.app);
      const thief = await signUpAndLogIn(ctx.app);
      const deck = await createDeck(ctx.app, thief.headers);
      const theirs = await upload(owner.headers);
      const mine = await upload(thief.headers);

      expectValidationError(
        await saveCards(thief.headers, deck._id, [{ question: 'Q', answer: 'A', images: [mine.url, theirs.url] }]),
        'cards.0.images.1',
        serverMessages.cardImageNotYours,
      );
      expectValidationError(
        await saveCards(thief.headers, deck._id, [
          { question: 'Q', answer: 'A', images: [mine.url, mine.url, mine.url] },
        ]),
        'cards.0.images',
        fillMessage(serverMessages.cardImagesTooMany, { max: 2 }),
      );
      expectValidationError(
        await saveCards(thief.headers, deck._id, [
          { question: 'Q', answer: 'A', images: ['https://evil.example/x.png'] },
        ]),
        'cards.0.images.0',
        serverMessages.cardImageInvalid,
      );
      const cards = await ctx.database.db
        .selectFrom('cards')
        .select('id')
        .where('user_id', '=', thief.user._id)
        .execute();
      expect(cards).toEqual([]);
    });

    it('deletes an image with the last card that shows it, and its S3 object at the next sweep', async () => {
      const { headers } = await signUpAndLogIn(ctx.app);
      const deck = await createDeck(ctx.app, headers);
      const image = await upload(headers);
      const saved = await saveCards(headers, deck._id, [
        { question: 'One', answer: 'A', images: [image.url] },
        { question: 'Two', answer: 'B', images: [image.url] },
      ]);
      const [one, two] = saved.json<{ cards: Card[] }>().cards;
      const row = await mediaRow(image.name);
      if (!row || !one || !two) throw new Error('not saved');
      expect(row.store).toBe(store);

      expect((await ctx.app.inject({ method: 'DELETE', url: `/cards/${one._id}`, headers })).statusCode).toBe(204);
      expect((await ctx.app.inject({ method: 'GET', url: image.url })).statusCode).toBe(200);
      expect((await ctx.app.inject({ method: 'DELETE', url: `/cards/${two._id}`, headers })).statusCode).toBe(204);
      expect(await mediaRow(image.name)).toBeUndefined();
      expect((await ctx.app.inject({ method: 'GET', url: image.url })).statusCode).toBe(404);
      if (store === 's3') {
        expect(await objectExists(row.sha256)).toBe(true);
        const swept = await sweep();
        expect(swept.objects).toBeGreaterThanOrEqual(1);
        expect(await objectExists(row.sha256)).toBe(false);
        expect(await ctx.database.db.selectFrom('media_released').select('sha256').execute()).toEqual([]);
      }
    });

    it('sweeps images no card uses once MEDIA_UNUSED_TTL has passed, keeping younger and used ones', async () => {
      const { headers } = await signUpAndLogIn(ctx.app);
      const deck = await createDeck(ctx.app, headers);
      const unused = await upload(headers);
      const used = await upload(headers);
      expect(
        (await saveCards(headers, deck._id, [{ question: 'Kept', answer: 'A', images: [used.url] }])).statusCode,
      ).toBe(201);
      ctx.clock.advance(6 * DAY);
      const young = await upload(headers);
      ctx.clock.advance(DAY + 1);

      await sweep();
      expect(await mediaRow(unused.name)).toBeUndefined();
      expect(await mediaRow(used.name)).toBeDefined();
      expect(await mediaRow(young.name)).toBeDefined();
      expect((await ctx.app.inject({ method: 'GET', url: unused.url })).statusCode).toBe(404);
      expect((await ctx.app.inject({ method: 'GET', url: used.url })).statusCode).toBe(200);
      if (store === 'database') {
        const chunks = await ctx.database.db.selectFrom('media_chunks').select('media_id').execute();
        const ids = new Set(chunks.map((chunk) => chunk.media_id));
        expect(ids.has((await mediaRow(used.name))?.id ?? '')).toBe(true);
      }
    });
  });
}
