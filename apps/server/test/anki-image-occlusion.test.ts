/**
 * Anki's Image Occlusion (issue 34): its notes import as occlusion notes (the picture stored as the user's media in
 * the configured store), hostile ones are skipped whole, and occlusion notes and cards' `images` export to .apkg
 * (Anki's Image Occlusion note type, the pictures in the package's media) and read back the same. Both media stores;
 * on SQLite, and on PostgreSQL with DATABASE_URL.
 */
import { createHash } from 'node:crypto';
import type { FileImportResponse, UploadedMedia } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { noteLimits } from '@flashcards/shared/notes';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readAnkiPackage } from '../src/adapters/anki/anki-package';
import { readZipEntries } from '../src/adapters/extract/safe-zip';
import {
  imageOcclusionNotetype,
  imageOcclusionPackage,
  occlusionDeckId,
  occlusionNote,
} from './fixtures/anki-packages/image-occlusion';
import { basic, buildPackage, type PackageFormat } from './support/anki-packages';
import { type AuthHeaders, signUpAndLogIn } from './support/factories';
import { realImage } from './support/hostile-images';
import { postMultipart } from './support/multipart';
import { type LocalS3, startLocalS3 } from './support/s3-server';
import { createDeck, saveCards } from './support/study';
import { useTestApp } from './support/test-app';

// Imports and uploads each start a parser process: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const rect = (group: number, oi = '') =>
  `{{c${group}::image-occlusion:rect:left=.1:top=.1:width=.2:height=.2${oi}}}<br>`;

for (const store of ['database', 's3'] as const) {
  describe(`Anki Image Occlusion import and export (MEDIA_STORE=${store})`, () => {
    let s3: LocalS3 | undefined;
    // Registered first, so that it runs after the app's own afterAll (hooks after tests run in reverse order).
    afterAll(async () => {
      await s3?.close();
    });
    const ctx = useTestApp(async () => {
      s3 = store === 's3' ? await startLocalS3() : undefined;
      return { env: { AUTH_RATE_LIMIT_PER_IP: '1000', IMPORT_MAX_IMAGE_PIXELS: '1000000', ...(s3?.env ?? {}) } };
    });

    async function importFile(headers: AuthHeaders, file: Buffer, filename = 'anatomy.apkg') {
      const response = await postMultipart(ctx.app, '/import', headers, [{ name: 'file', value: file, filename }]);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<FileImportResponse>();
    }

    async function rowsOf(userId: string) {
      const db = ctx.database.db;
      const notes = await db
        .selectFrom('notes')
        .select(['id', 'type', 'fields'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const cards = await db
        .selectFrom('cards')
        .select(['id', 'note_id', 'card_type', 'ord', 'answer'])
        .where('user_id', '=', userId)
        .orderBy('note_id')
        .orderBy('ord')
        .execute();
      const media = await db
        .selectFrom('media')
        .select(['id', 'name', 'sha256', 'store'])
        .where('user_id', '=', userId)
        .orderBy('name')
        .execute();
      const links = await db
        .selectFrom('card_media')
        .innerJoin('media', 'media.id', 'card_media.media_id')
        .select(['card_media.card_id', 'media.name'])
        .where('card_media.user_id', '=', userId)
        .execute();
      return { notes: notes.map((note) => ({ ...note, fields: JSON.parse(note.fields) })), cards, media, links };
    }

    async function mediaBytes(name: string): Promise<Buffer> {
      const response = await ctx.app.inject({ method: 'GET', url: `/media/${name}` });
      expect(response.statusCode).toBe(200);
      return response.rawPayload;
    }

    for (const format of ['anki21b', 'anki21'] as PackageFormat[]) {
      it(`imports Image Occlusion notes of a ${format} package as occlusion notes with their picture`, async () => {
        const { headers, user } = await signUpAndLogIn(ctx.app);
        const pkg = await imageOcclusionPackage(format);
        const result = await importFile(headers, pkg);
        expect(result).toMatchObject({
          cards_imported: 5,
          skipped: 0,
          warnings: [fillMessage(serverMessages.importOcclusionPolygons, { count: 1 })],
        });
        expect(result.decks.map((deck) => [deck.name, deck.card_count])).toEqual([['Anatomy', 5]]);

        const rows = await rowsOf(user._id);
        const heart = await realImage('png', 200, 150);
        const image = rows.media.find((media) => media.sha256 === sha256(heart));
        expect(image?.store).toBe(store);
        expect(rows.media.map((media) => media.store)).toEqual([store, store]);
        expect((await mediaBytes(image?.name as string)).equals(heart)).toBe(true);

        expect(rows.notes.map((note) => note.type)).toEqual(['occlusion', 'occlusion', 'basic']);
        expect(rows.notes[0]?.fields).toEqual({
          image: image?.name,
          masks: [
            { x: 0.1, y: 0.2, w: 0.3, h: 0.1, group: 1 },
            { x: 0.5, y: 0.4, w: 0.2, h: 0.1, group: 2, shape: 'ellipse' },
            { x: 0.2, y: 0.6, w: 0.2, h: 0.2, group: 2 },
          ],
          mode: 'hide_one',
          header: 'The **heart**',
          back_extra: 'Four chambers',
        });
        expect(rows.notes[1]?.fields).toEqual({
          image: image?.name,
          masks: [
            { x: 0.05, y: 0.05, w: 0.2, h: 0.2, group: 1 },
            { x: 0.6, y: 0.6, w: 0.3, h: 0.3, group: 2 },
          ],
          mode: 'hide_all',
        });
        const occlusionCards = rows.cards.filter((card) => card.card_type === 'occlusion');
        expect(occlusionCards.map((card) => card.ord)).toEqual([0, 1, 0, 1]);
        // Every occlusion card holds its picture, so it lives as long as one of them does.
        for (const card of occlusionCards) {
          expect(rows.links.filter((link) => link.card_id === card.id).map((link) => link.name)).toEqual([image?.name]);
        }
        // A Basic note's <img> is kept too, pointing at the stored copy.
        const organ = rows.media.find((media) => media.name !== image?.name);
        expect(rows.cards.find((card) => card.card_type === 'basic')?.answer).toContain(`/media/${organ?.name}`);
      });
    }

    it('skips hostile Image Occlusion notes whole (no picture, too big a picture, 10,000 masks, 101 masks, malformed clozes)', async () => {
      const { headers, user } = await signUpAndLogIn(ctx.app);
      const good = await realImage('png', 64, 48);
      const unused = await realImage('png', 66, 48);
      const img = (name: string) => `<img src="${name}">`;
      const pkg = await buildPackage(
        {
          notetypes: [imageOcclusionNotetype, basic],
          decks: { 1: 'Default', [occlusionDeckId]: 'Hostile' },
          notes: [
            occlusionNote(21, 'ioMissing', [rect(1), img('nowhere.png'), '', '', ''], [0]),
            occlusionNote(22, 'ioHuge', [rect(1).repeat(10_000), img('good.png'), '', '', ''], [0]),
            occlusionNote(
              23,
              'ioTooMany',
              [
                Array.from({ length: noteLimits.maxOcclusionMasks + 1 }, (_, i) => rect((i % 3) + 1)).join(''),
                img('unused.png'),
                '',
                '',
                '',
              ],
              [0, 1, 2],
            ),
            occlusionNote(
              24,
              'ioMalformed',
              [
                '{{c1::image-occlusion:rect:left=x:top=.1}}{{c2::image-occlusion:hexagon:left=.1}}{{c3::image-occlusion:rect:left=.1',
                img('unused.png'),
                '',
                '',
                '',
              ],
              [0, 1, 2],
            ),
            occlusionNote(25, 'ioNoImage', [rect(1), '', '', '', ''], [0]),
            occlusionNote(27, 'ioBigImage', [rect(1), img('big.png'), '', '', ''], [0]),
            occlusionNote(26, 'ioGood', [rect(1, ':oi=1') + rect(2, ':oi=1'), img('good.png'), '', '', ''], [0, 1]),
          ],
          media: { 'good.png': good, 'unused.png': unused, 'big.png': await realImage('png', 1001, 1000) },
        },
        'anki21b',
      );
      const result = await importFile(headers, pkg);
      expect(result.cards_imported).toBe(2);
      expect(result.skipped).toBe(1 + 1 + 3 + 3 + 1 + 1);
      // The picture over IMPORT_MAX_IMAGE_PIXELS counts as too large, not also as missing.
      expect(result.warnings).toEqual([
        fillMessage(serverMessages.importImagesMissing, { count: 2 }),
        fillMessage(serverMessages.importImagesTooLarge, { count: 1, max: '10 MB', pixels: 1_000_000 }),
        fillMessage(serverMessages.importOcclusionSkipped, { count: 5, max: noteLimits.maxOcclusionMasks }),
        fillMessage(serverMessages.importCardsTooLong, { count: 1, max: 20_000 }),
      ]);
      const rows = await rowsOf(user._id);
      expect(rows.notes.map((note) => [note.type, note.fields.mode])).toEqual([['occlusion', 'hide_all']]);
      expect(rows.cards).toHaveLength(2);
      // Only the picture of the note kept is stored; the one only skipped notes named is not.
      expect(rows.media.map((media) => media.sha256)).toEqual([sha256(good)]);
    });

    it('exports occlusion notes as Anki Image Occlusion and cards’ images as media; both read back the same', async () => {
      const { headers } = await signUpAndLogIn(ctx.app);
      const deck = await createDeck(ctx.app, headers, 'Cardiology');
      const uploadImage = async (width: number): Promise<UploadedMedia> => {
        const response = await postMultipart(ctx.app, '/media', headers, [
          { name: 'file', value: await realImage('png', width, 90), filename: 'figure.png' },
        ]);
        expect(response.statusCode, response.body).toBe(201);
        return response.json<UploadedMedia>();
      };
      const diagram = await uploadImage(120);
      const figure = await uploadImage(121);
      const masks = [
        { x: 0.1, y: 0.2, w: 0.3, h: 0.1, group: 1 },
        { x: 0.55, y: 0.45, w: 0.2, h: 0.3, group: 2, shape: 'ellipse' },
      ];
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/notes',
        headers,
        payload: {
          deck_id: deck._id,
          type: 'occlusion',
          fields: { image: diagram.name, masks, mode: 'hide_all', header: 'Valves', back_extra: 'Left side' },
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      await saveCards(ctx.app, headers, deck._id, [
        { question: 'Which valve?', answer: 'Mitral', images: [figure.url] } as never,
      ]);

      const response = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}/export.apkg`, headers });
      expect(response.statusCode).toBe(200);
      const entries = await readZipEntries(response.rawPayload, 50_000_000);
      const mediaMap = JSON.parse(entries.get('media')?.toString() ?? '{}') as Record<string, string>;
      expect(Object.values(mediaMap).sort()).toEqual([diagram.name, figure.name].sort());
      for (const [index, name] of Object.entries(mediaMap)) {
        expect(entries.get(index)?.equals(await mediaBytes(name))).toBe(true);
      }
      const { collection } = await readAnkiPackage(response.rawPayload, 50_000_000);
      const notetypes = [...collection.notetypes.values()];
      const io = notetypes.find((notetype) => notetype.name === 'Image Occlusion');
      expect(io).toMatchObject({
        cloze: true,
        fields: ['Occlusion', 'Image', 'Header', 'Back Extra', 'Comments'],
        fieldTags: [0, 1, 2, 3, 4],
        originalStockKind: 6,
        // Anki's own English template, as the hand-made fixture has it.
        templates: imageOcclusionNotetype.templates,
      });
      const notes = [...collection.notes.values()];
      expect(notes.map((note) => note.fields)).toEqual([
        [
          '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}<br>' +
            '{{c2::image-occlusion:ellipse:left=.55:top=.45:rx=.1:ry=.15:oi=1}}<br>',
          `<img src="${diagram.name}">`,
          'Valves',
          'Left side',
          '',
        ],
        ['Which valve?', `Mitral<br><img src="${figure.name}">`],
      ]);
      expect(collection.cards.map((card) => card.ord)).toEqual([0, 1, 0]);

      // Read back by another account: the same note, masks and mode; the pictures stored as theirs.
      const other = await signUpAndLogIn(ctx.app);
      const result = await importFile(other.headers, response.rawPayload, 'Cardiology.apkg');
      expect(result).toMatchObject({ cards_imported: 3, skipped: 0, warnings: [] });
      const rows = await rowsOf(other.user._id);
      const copy = rows.media.find((media) => rows.notes[0]?.fields.image === media.name);
      expect(copy?.store).toBe(store);
      expect((await mediaBytes(copy?.name as string)).equals(await mediaBytes(diagram.name))).toBe(true);
      expect(rows.notes[0]?.fields).toEqual({
        image: copy?.name,
        masks,
        mode: 'hide_all',
        header: 'Valves',
        back_extra: 'Left side',
      });
      const figureCopy = rows.media.find((media) => media.name !== copy?.name);
      expect(rows.notes[1]).toMatchObject({ type: 'basic', fields: { front: 'Which valve?' } });
      expect(rows.notes[1]?.fields.back).toContain(`/media/${figureCopy?.name}`);
    });
  });
}
