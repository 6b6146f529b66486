import type { Card, NoteWithCards } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { noteLimits } from '@flashcards/shared/notes';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { insertMedia } from '../../../test/support/media';
import { dueCards, importShare, learnerWithDeck, postSaveCards, reviewCard } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

type Headers = { authorization: string };

const postNote = (headers: Headers, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: '/notes', headers, payload: payload as object });
const putNote = (headers: Headers, noteId: string, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url: `/notes/${noteId}`, headers, payload: payload as object });

async function createNote(headers: Headers, payload: unknown): Promise<NoteWithCards> {
  const response = await postNote(headers, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<NoteWithCards>();
}

/** A learner with a deck and one image of theirs. */
async function learnerWithImage() {
  const learner = await learnerWithDeck(ctx.app);
  const image = await insertMedia(ctx.database.db, learner.user._id);
  return { ...learner, image };
}

const mask = (x: number, y: number, group: number) => ({ x, y, w: 0.1, h: 0.05, group });

async function rowsOf(userId: string) {
  const db = ctx.database.db;
  const notes = await db.selectFrom('notes').select(['id', 'type']).where('user_id', '=', userId).execute();
  const cards = await db
    .selectFrom('cards')
    .select(['id', 'card_type', 'ord'])
    .where('user_id', '=', userId)
    .orderBy('ord')
    .execute();
  return { notes, cards };
}

async function linksOf(userId: string) {
  return ctx.database.db
    .selectFrom('card_media')
    .innerJoin('media', 'media.id', 'card_media.media_id')
    .select(['card_media.card_id', 'media.name'])
    .where('card_media.user_id', '=', userId)
    .orderBy('card_media.card_id')
    .execute();
}

describe('occlusion notes', () => {
  it('make one card per group, each with the image, the mode and its own masks marked as the target', async () => {
    const { headers, user, deck, image } = await learnerWithImage();
    const fields = {
      image,
      masks: [mask(0.1, 0.1, 2), mask(0.5, 0.5, 1), { ...mask(0.7, 0.2, 2), shape: 'ellipse' }],
      mode: 'hide_all',
      header: 'Parts of the heart',
      back_extra: 'Gray, plate 492',
    };
    const { note, cards } = await createNote(headers, { deck_id: deck._id, type: 'occlusion', fields });
    expect(note).toMatchObject({ type: 'occlusion', fields, card_ids: cards.map((card) => card._id) });
    expect(cards.map((card) => [card.card_type, card.ord])).toEqual([
      ['occlusion', 0],
      ['occlusion', 1],
    ]);
    const [first, second] = cards as [Card, Card];
    expect(first.question).toBe(
      `Parts of the heart\n\n${fillMessage(messages.occlusionCardLabel, { n: 1, count: 2 })}`,
    );
    expect(first.answer).toBe(`${fillMessage(messages.occlusionCardLabel, { n: 1, count: 2 })}\n\nGray, plate 492`);
    expect(first.occlusion).toEqual({
      image_url: `/media/${image}`,
      mode: 'hide_all',
      masks: [
        { x: 0.1, y: 0.1, w: 0.1, h: 0.05, target: false },
        { x: 0.5, y: 0.5, w: 0.1, h: 0.05, target: true },
        { x: 0.7, y: 0.2, w: 0.1, h: 0.05, target: false, shape: 'ellipse' },
      ],
    });
    expect(second.occlusion?.masks.map((m) => m.target)).toEqual([true, false, true]);
    // Review shows the same: GET /cards/due carries `occlusion`, and a basic card none.
    const due = await dueCards(ctx.app, headers, deck._id);
    expect(due.map((card) => card.occlusion)).toEqual([first.occlusion, second.occlusion]);
    // Each card links the image, so the image stays while a card shows it.
    expect(await linksOf(user._id)).toEqual(
      cards.map((card) => ({ card_id: card._id, name: image })).sort((a, b) => a.card_id.localeCompare(b.card_id)),
    );
  });

  it('POST /save-cards takes occlusion notes too', async () => {
    const { headers, user, deck, image } = await learnerWithImage();
    const response = await postSaveCards(ctx.app, headers, {
      deck_id: deck._id,
      cards: [{ type: 'occlusion', fields: { image, masks: [mask(0, 0, 1), mask(0.9, 0.95, 3)], mode: 'hide_one' } }],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect((await rowsOf(user._id)).cards.map((card) => [card.card_type, card.ord])).toEqual([
      ['occlusion', 0],
      ['occlusion', 2],
    ]);
  });

  it('an image that is not one of the user’s is 422 and nothing is written', async () => {
    const owner = await learnerWithImage();
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const fields = { image: owner.image, masks: [mask(0.1, 0.1, 1)], mode: 'hide_one' };
    const foreign = await postNote(headers, { deck_id: deck._id, type: 'occlusion', fields });
    expectValidationError(foreign, 'fields.image', messages.occlusionImageNotFound);
    const unknown = await postNote(headers, {
      deck_id: deck._id,
      type: 'occlusion',
      fields: { ...fields, image: `${'0'.repeat(40)}.png` },
    });
    expectValidationError(unknown, 'fields.image', messages.occlusionImageNotFound);
    const saved = await postSaveCards(ctx.app, headers, { deck_id: deck._id, cards: [{ type: 'occlusion', fields }] });
    expectValidationError(saved, 'cards.0.fields.image', messages.occlusionImageNotFound);
    expect(await rowsOf(user._id)).toEqual({ notes: [], cards: [] });
  });

  describe('hostile fields are 422 validation_failed with the rule, nothing written', () => {
    const cases: [string, (image: string) => unknown, string][] = [
      ['no masks', (image) => ({ image, masks: [], mode: 'hide_one' }), messages.occlusionMasksMissing],
      ['masks not a list', (image) => ({ image, masks: 'all', mode: 'hide_one' }), messages.occlusionMasksMissing],
      [
        'too many masks',
        (image) => ({
          image,
          masks: Array.from({ length: noteLimits.maxOcclusionMasks + 1 }, () => mask(0.1, 0.1, 1)),
          mode: 'hide_one',
        }),
        fillMessage(messages.occlusionTooManyMasks, { max: noteLimits.maxOcclusionMasks }),
      ],
      [
        'a mask outside the image',
        (image) => ({ image, masks: [mask(0.1, 0.1, 1), mask(0.95, 0.1, 1)], mode: 'hide_one' }),
        fillMessage(messages.occlusionMaskOutside, { n: 2 }),
      ],
      [
        'a negative coordinate',
        (image) => ({ image, masks: [{ ...mask(0.1, 0.1, 1), x: -0.1 }], mode: 'hide_one' }),
        fillMessage(messages.occlusionMaskInvalid, { n: 1 }),
      ],
      [
        'a coordinate that is text',
        (image) => ({ image, masks: [{ ...mask(0.1, 0.1, 1), y: '0.1' }], mode: 'hide_one' }),
        fillMessage(messages.occlusionMaskInvalid, { n: 1 }),
      ],
      [
        'a mask of no width',
        (image) => ({ image, masks: [{ ...mask(0.1, 0.1, 1), w: 0 }], mode: 'hide_one' }),
        fillMessage(messages.occlusionMaskEmpty, { n: 1 }),
      ],
      [
        'a group of 0',
        (image) => ({ image, masks: [mask(0.1, 0.1, 0)], mode: 'hide_one' }),
        fillMessage(messages.occlusionGroupOutOfRange, { n: 1, max: noteLimits.maxOcclusionGroup }),
      ],
      [
        'a fractional group',
        (image) => ({ image, masks: [mask(0.1, 0.1, 1.5)], mode: 'hide_one' }),
        fillMessage(messages.occlusionGroupOutOfRange, { n: 1, max: noteLimits.maxOcclusionGroup }),
      ],
      [
        'a group above the limit',
        (image) => ({ image, masks: [mask(0.1, 0.1, noteLimits.maxOcclusionGroup + 1)], mode: 'hide_one' }),
        fillMessage(messages.occlusionGroupOutOfRange, { n: 1, max: noteLimits.maxOcclusionGroup }),
      ],
      [
        'an unknown key on a mask',
        (image) => ({ image, masks: [{ ...mask(0.1, 0.1, 1), color: 'red' }], mode: 'hide_one' }),
        fillMessage(messages.occlusionMaskInvalid, { n: 1 }),
      ],
      [
        'an unknown shape',
        (image) => ({ image, masks: [{ ...mask(0.1, 0.1, 1), shape: 'star' }], mode: 'hide_one' }),
        fillMessage(messages.occlusionMaskInvalid, { n: 1 }),
      ],
      [
        'an unknown mode',
        (image) => ({ image, masks: [mask(0.1, 0.1, 1)], mode: 'hide_some' }),
        messages.occlusionModeInvalid,
      ],
      ['no mode', (image) => ({ image, masks: [mask(0.1, 0.1, 1)] }), messages.occlusionModeInvalid],
      ['no image', () => ({ masks: [mask(0.1, 0.1, 1)], mode: 'hide_one' }), messages.occlusionImageInvalid],
      [
        'an image name with a path',
        () => ({ image: '../../etc/passwd', masks: [mask(0.1, 0.1, 1)], mode: 'hide_one' }),
        messages.occlusionImageInvalid,
      ],
      [
        'a header that is not text',
        (image) => ({ image, masks: [mask(0.1, 0.1, 1)], mode: 'hide_one', header: 5 }),
        fillMessage(messages.noteFieldNotText, { field: 'header' }),
      ],
      [
        'an unknown field',
        (image) => ({ image, masks: [mask(0.1, 0.1, 1)], mode: 'hide_one', front: 'x' }),
        fillMessage(messages.noteFieldsInvalid, { type: 'occlusion' }),
      ],
    ];
    it.each(cases)('%s', async (_name, fieldsOf, detail) => {
      const { headers, user, deck, image } = await learnerWithImage();
      const response = await postNote(headers, { deck_id: deck._id, type: 'occlusion', fields: fieldsOf(image) });
      expectValidationError(response, 'fields', detail);
      expect(await rowsOf(user._id)).toEqual({ notes: [], cards: [] });
    });
  });

  it('editing the masks keeps the cards of the groups still there, with their schedule and history', async () => {
    const { headers, user, deck, image } = await learnerWithImage();
    const created = await createNote(headers, {
      deck_id: deck._id,
      type: 'occlusion',
      fields: { image, masks: [mask(0.1, 0.1, 1), mask(0.3, 0.3, 2), mask(0.5, 0.5, 3)], mode: 'hide_one' },
    });
    const [one, two, three] = created.cards as [Card, Card, Card];
    const reviewed = await reviewCard(ctx.app, headers, two._id, 'pass');
    // Group 2's mask moves, group 3 goes, group 4 comes.
    const response = await putNote(headers, created.note._id, {
      fields: { image, masks: [mask(0.1, 0.1, 1), mask(0.4, 0.4, 2), mask(0.6, 0.6, 4)], mode: 'hide_one' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { cards } = response.json<NoteWithCards>();
    expect(cards.map((card) => [card.ord, card._id === one._id, card._id === two._id])).toEqual([
      [0, true, false],
      [1, false, true],
      [3, false, false],
    ]);
    const kept = cards[1] as Card;
    expect(kept).toMatchObject({ status: reviewed.status, due_date: reviewed.due_date, reps: 1 });
    expect(kept.occlusion?.masks).toEqual([
      { x: 0.1, y: 0.1, w: 0.1, h: 0.05, target: false },
      { x: 0.4, y: 0.4, w: 0.1, h: 0.05, target: true },
      { x: 0.6, y: 0.6, w: 0.1, h: 0.05, target: false },
    ]);
    const logs = await ctx.database.db
      .selectFrom('review_logs')
      .select('card_id')
      .where('user_id', '=', user._id)
      .execute();
    expect(logs).toEqual([{ card_id: two._id }]);
    expect((await rowsOf(user._id)).cards.map((card) => card.id)).not.toContain(three._id);
    expect((await linksOf(user._id)).map((link) => link.card_id).sort()).toEqual(cards.map((c) => c._id).sort());
  });

  it('a new image moves every card’s link to it; the old image goes with its last card', async () => {
    const { headers, user, deck, image } = await learnerWithImage();
    const other = await insertMedia(ctx.database.db, user._id);
    const created = await createNote(headers, {
      deck_id: deck._id,
      type: 'occlusion',
      fields: { image, masks: [mask(0.1, 0.1, 1)], mode: 'hide_one' },
    });
    const response = await putNote(headers, created.note._id, {
      fields: { image: other, masks: [mask(0.1, 0.1, 1)], mode: 'hide_one' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<NoteWithCards>().cards[0]?.occlusion?.image_url).toBe(`/media/${other}`);
    expect(await linksOf(user._id)).toEqual([{ card_id: created.cards[0]?._id, name: other }]);
    const names = await ctx.database.db.selectFrom('media').select('name').where('user_id', '=', user._id).execute();
    expect(names).toEqual([{ name: other }]);
    // Deleting the note deletes the image only it used.
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/notes/${created.note._id}`, headers });
    expect(deleted.statusCode).toBe(204);
    expect(await ctx.database.db.selectFrom('media').select('name').where('user_id', '=', user._id).execute()).toEqual(
      [],
    );
  });

  it('editing to another user’s image is 422 and changes nothing', async () => {
    const owner = await learnerWithImage();
    const { headers, deck, image } = await learnerWithImage();
    const created = await createNote(headers, {
      deck_id: deck._id,
      type: 'occlusion',
      fields: { image, masks: [mask(0.1, 0.1, 1)], mode: 'hide_one' },
    });
    const response = await putNote(headers, created.note._id, {
      fields: { image: owner.image, masks: [mask(0.1, 0.1, 1)], mode: 'hide_one' },
    });
    expectValidationError(response, 'fields.image', messages.occlusionImageNotFound);
    const note = await ctx.app.inject({ method: 'GET', url: `/notes/${created.note._id}`, headers });
    expect(note.json()).toEqual(created.note);
  });

  it('someone else’s occlusion note is 404', async () => {
    const { headers, deck, image } = await learnerWithImage();
    const created = await createNote(headers, {
      deck_id: deck._id,
      type: 'occlusion',
      fields: { image, masks: [mask(0.1, 0.1, 1)], mode: 'hide_one' },
    });
    const stranger = await signUpAndLogIn(ctx.app);
    const response = await putNote(stranger.headers, created.note._id, {
      fields: { image, masks: [mask(0.2, 0.2, 1)], mode: 'hide_one' },
    });
    expectError(response, 404, 'note_not_found', serverMessages.noteNotFound);
  });
});

describe('a shared deck with images', () => {
  it('imports occlusion cards and card images as copies of the importer’s own, under names of theirs', async () => {
    const sharer = await learnerWithImage();
    const figure = await insertMedia(ctx.database.db, sharer.user._id);
    const fields = { image: sharer.image, masks: [mask(0.1, 0.1, 1), mask(0.5, 0.5, 2)], mode: 'hide_one' };
    await createNote(sharer.headers, { deck_id: sharer.deck._id, type: 'occlusion', fields });
    const saved = await postSaveCards(ctx.app, sharer.headers, {
      deck_id: sharer.deck._id,
      cards: [{ question: 'Which organ?', answer: 'The heart', images: [`/media/${figure}`] }],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const shared = await ctx.app.inject({
      method: 'POST',
      url: `/decks/${sharer.deck._id}/share`,
      headers: sharer.headers,
    });
    expect(shared.statusCode, shared.body).toBe(200);

    const importer = await signUpAndLogIn(ctx.app);
    const imported = await importShare(ctx.app, importer.headers, shared.json().share_code);
    expect(imported.statusCode, imported.body).toBe(201);
    const cards = await dueCards(ctx.app, importer.headers, imported.json()._id);
    const occlusionCards = cards.filter((card) => card.card_type === 'occlusion');
    expect(occlusionCards.map((card) => card.occlusion?.masks.map((one) => one.target))).toEqual([
      [true, false],
      [false, true],
    ]);
    const imageUrl = occlusionCards[0]?.occlusion?.image_url ?? '';
    const [figureUrl] = cards.find((card) => card.question === 'Which organ?')?.images ?? [];
    // Both point at copies of the importer's (new names), not at the sharer's images.
    for (const url of [imageUrl, figureUrl]) {
      expect(url).toMatch(/^\/media\/[0-9a-f]{40}\.png$/);
      expect([`/media/${sharer.image}`, `/media/${figure}`]).not.toContain(url);
      const read = await ctx.app.inject({ method: 'GET', url: url ?? '', headers: importer.headers });
      expect(read.statusCode, url).toBe(200);
    }
    // The copied note names the importer's image, and every copied card is linked to what it shows.
    const note = await ctx.database.db
      .selectFrom('notes')
      .select('fields')
      .where('user_id', '=', importer.user._id)
      .where('type', '=', 'occlusion')
      .executeTakeFirstOrThrow();
    expect(`/media/${JSON.parse(note.fields).image}`).toBe(imageUrl);
    const links = await linksOf(importer.user._id);
    expect(links.map((link) => `/media/${link.name}`).sort()).toEqual([imageUrl, imageUrl, figureUrl].sort());
  });
});
