/**
 * Figures on generated cards (issue 34): POST /create with a slide deck, JSON and event stream, gives each card the
 * pictures of its slide as the user's media (not the logo on every slide); GET /media serves them to their owner;
 * saving a card keeps them and review shows them; the sweep deletes the figures no saved card uses. SQLite, and
 * PostgreSQL with DATABASE_URL; both media stores (S3: s3rver on loopback).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Card, GeneratedCard, GenerateResponse } from '@flashcards/shared/api-types';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMediaStore } from '../src/adapters/media/media-store';
import { createMediaSweep } from '../src/modules/media/media-sweep';
import { parseEventStream } from './support/event-stream';
import { signUpAndLogIn } from './support/factories';
import { postCreate } from './support/generation';
import { type LocalS3, startLocalS3 } from './support/s3-server';
import { createDeck, postSaveCards } from './support/study';
import { createTestApp, type TestContext } from './support/test-app';

// Each file is read in a parser process: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/figures');
const slides = () => readFileSync(path.join(fixtures, 'slides.pptx'));
const DAY = 86_400_000;

let ctx: TestContext;
let s3: LocalS3 | undefined;

const mediaRows = (userId: string) =>
  ctx.database.db.selectFrom('media').select(['name', 'content_type', 'store']).where('user_id', '=', userId).execute();

/** Every card from a slide shows two figures, the same two for every card of that slide, and each slide's differ. */
function expectSlideFigures(cards: GeneratedCard[]) {
  expect(cards.length).toBeGreaterThan(0);
  const bySlide = new Map<number, string[]>();
  for (const card of cards) {
    expect(card.source.slide).toBeDefined();
    expect(card.images).toHaveLength(2);
    const slide = card.source.slide ?? 0;
    expect(card.images).toEqual(bySlide.get(slide) ?? card.images);
    bySlide.set(slide, card.images ?? []);
    for (const url of card.images ?? []) expect(url).toMatch(/^\/media\/[\w-]+\.jpg$/);
  }
  const all = [...bySlide.values()].flat();
  expect(new Set(all).size).toBe(all.length);
  return bySlide;
}

for (const store of ['database', 's3'] as const)
  describe(`figures of a slide deck on its generated cards (MEDIA_STORE=${store})`, () => {
    beforeAll(async () => {
      s3 = store === 's3' ? await startLocalS3() : undefined;
      ctx = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', ...(s3?.env ?? {}) } });
    });
    afterAll(async () => {
      await ctx?.close();
      await s3?.close();
    });

    it('JSON: each card carries its slide’s two pictures, stored as the user’s media and under the user’s own names', async () => {
      const { headers, user } = await signUpAndLogIn(ctx.app);
      const response = await postCreate(ctx.app, headers, [{ name: 'file', value: slides(), filename: 'heart.pptx' }]);
      expect(response.statusCode, response.body).toBe(200);
      const { cards } = response.json<GenerateResponse>();
      const bySlide = expectSlideFigures(cards);
      // Two per slide that had cards; the logo on all three slides and the bullet icon were not stored.
      const rows = await mediaRows(user._id);
      expect(rows).toHaveLength(2 * bySlide.size);
      expect(rows.every((row) => row.content_type === 'image/jpeg')).toBe(true);
      expect(rows.every((row) => row.store === store)).toBe(true);

      const url = cards[0]?.images?.[0] ?? '';
      const served = await ctx.app.inject({ method: 'GET', url, headers });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 480, height: 360 });
      // Another user's figures of the same deck are their own media: names under their own secret, not these.
      const other = await signUpAndLogIn(ctx.app);
      const theirs = await postCreate(ctx.app, other.headers, [
        { name: 'file', value: slides(), filename: 'heart.pptx' },
      ]);
      const theirUrls = theirs.json<GenerateResponse>().cards.flatMap((card) => card.images ?? []);
      expect(theirUrls.length).toBeGreaterThan(0);
      expect(theirUrls.filter((theirUrl) => cards.some((card) => card.images?.includes(theirUrl)))).toEqual([]);
    });

    it('event stream: the streamed cards and the final list carry the same figures', async () => {
      const { headers } = await signUpAndLogIn(ctx.app);
      const response = await postCreate(ctx.app, { ...headers, accept: 'text/event-stream' }, [
        { name: 'file', value: slides(), filename: 'heart.pptx' },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      const { events } = parseEventStream(response.body);
      const streamed = events.filter((event) => event.event === 'card').map((event) => event.data as GeneratedCard);
      expectSlideFigures(streamed);
      expect(events.at(-1)).toEqual({ event: 'done', data: expect.objectContaining({ cards: streamed }) });
    });

    it('a saved card keeps the figure the learner kept and review shows it; the sweep deletes the other', async () => {
      const { headers, user } = await signUpAndLogIn(ctx.app);
      const deck = await createDeck(ctx.app, headers);
      const response = await postCreate(ctx.app, headers, [{ name: 'file', value: slides(), filename: 'heart.pptx' }]);
      const [generated] = response.json<GenerateResponse>().cards;
      if (!generated) throw new Error('no card generated');
      // The learner removed the second figure in the Create grid.
      const kept = { ...generated, images: generated.images?.slice(0, 1) };
      const saved = await postSaveCards(ctx.app, headers, {
        deck_id: deck._id,
        cards: [{ question: kept.question, answer: kept.answer, images: kept.images, source: kept.source }],
      });
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json<{ cards: Card[] }>().cards[0]?.images).toEqual(kept.images);
      const due = await ctx.app.inject({ method: 'GET', url: `/cards/due?deck_id=${deck._id}`, headers });
      expect(due.json<Card[]>().map((card) => card.images)).toEqual([kept.images]);

      const before = (await mediaRows(user._id)).length;
      expect(before).toBeGreaterThanOrEqual(2);
      ctx.clock.advance(ctx.config.media.unusedTtlMs + DAY);
      await createMediaSweep({
        db: ctx.database.db,
        store: createMediaStore({ kind: ctx.config.media.store, s3: ctx.config.media.s3 }),
        clock: ctx.clock,
        unusedTtlMs: ctx.config.media.unusedTtlMs,
      }).run();
      const after = await mediaRows(user._id);
      expect(after.map((row) => `/media/${row.name}`)).toEqual(kept.images);
    });
  });
