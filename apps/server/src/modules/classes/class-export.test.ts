import { randomBytes } from 'node:crypto';
import type { DeckSummary } from '@flashcards/shared/api-types';
import { describe, expect, it } from 'vitest';
import { assignDeck, createClass, joinClass } from '../../../test/support/classes';
import { signUpAndLogIn } from '../../../test/support/factories';
import { insertMedia } from '../../../test/support/media';
import { createDeck, postSaveCards, saveCards } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';
import { readAnkiPackage } from '../../adapters/anki/anki-package';

// Media is per user: a student's linked copy shows its teacher's images. Exporting the copy as .apkg must carry
// them, the occlusion note's image and a card's `images` alike, with their bytes.
const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

const mask = (x: number, y: number, group: number) => ({ x, y, w: 0.1, h: 0.05, group });

describe("a student's export of a class's linked copy", () => {
  it("carries the teacher's occlusion image and card images in the .apkg", async () => {
    const teacher = await signUpAndLogIn(ctx.app);
    const [heartBytes, cellBytes] = [randomBytes(80), randomBytes(96)];
    const heart = await insertMedia(ctx.database.db, teacher.user._id, heartBytes);
    const cell = await insertMedia(ctx.database.db, teacher.user._id, cellBytes);
    const deck = await createDeck(ctx.app, teacher.headers, 'Anatomy');
    const note = await ctx.app.inject({
      method: 'POST',
      url: '/notes',
      headers: teacher.headers,
      payload: {
        deck_id: deck._id,
        type: 'occlusion',
        fields: { image: heart, masks: [mask(0.1, 0.1, 1), mask(0.5, 0.5, 2)], mode: 'hide_one' },
      },
    });
    expect(note.statusCode, note.body).toBe(201);
    const saved = await postSaveCards(ctx.app, teacher.headers, {
      deck_id: deck._id,
      cards: [{ question: 'Which organelle is this?', answer: 'Nucleus', images: [`/media/${cell}`] }],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const klass = await createClass(ctx.app, teacher.headers);
    await assignDeck(ctx.app, teacher.headers, klass._id, deck._id);
    const student = await signUpAndLogIn(ctx.app);
    await joinClass(ctx.app, student.headers, klass.join_code);
    const decks = await ctx.app.inject({ method: 'GET', url: '/decks', headers: student.headers });
    const copy = decks.json<DeckSummary[]>().find((d) => d.linked);
    expect(copy?.card_count).toBe(3);
    // Studying the copy shows the teacher's card image, on the due queue and in the deck's card list alike.
    const due = await ctx.app.inject({
      method: 'GET',
      url: `/cards/due?deck_id=${copy?._id}`,
      headers: student.headers,
    });
    const dueCard = due.json<{ question: string; images: string[] }[]>().find((c) => c.question.includes('organelle'));
    expect(dueCard?.images).toEqual([`/media/${cell}`]);
    const listed = await ctx.app.inject({ method: 'GET', url: `/decks/${copy?._id}/cards`, headers: student.headers });
    const listedCard = listed
      .json<{ question: string; images: string[] }[]>()
      .find((c) => c.question.includes('organelle'));
    expect(listedCard?.images).toEqual([`/media/${cell}`]);

    const exported = await ctx.app.inject({
      method: 'GET',
      url: `/decks/${copy?._id}/export.apkg`,
      headers: student.headers,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const apkg = await readAnkiPackage(exported.rawPayload, 50_000_000);
    expect([...apkg.media.keys()].sort()).toEqual([heart, cell].sort());
    expect(apkg.media.get(heart)).toEqual(heartBytes);
    expect(apkg.media.get(cell)).toEqual(cellBytes);
    const fields = [...apkg.collection.notes.values()].map((n) => n.fields.join('\x1f')).join('\n');
    expect(fields).toContain(heart);
    expect(fields).toContain(cell);

    // Left, the copy is the student's own deck: it still shows and exports the images it showed.
    const left = await ctx.app.inject({
      method: 'DELETE',
      url: `/classes/${klass._id}/membership`,
      headers: student.headers,
    });
    expect(left.statusCode, left.body).toBe(204);
    const kept = await ctx.app.inject({
      method: 'GET',
      url: `/decks/${copy?._id}/export.apkg`,
      headers: student.headers,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect([...(await readAnkiPackage(kept.rawPayload, 50_000_000)).media.keys()].sort()).toEqual([heart, cell].sort());

    // Nobody else's images: another user's export of their own deck naming the teacher's image carries nothing.
    const stranger = await signUpAndLogIn(ctx.app);
    const own = await createDeck(ctx.app, stranger.headers, 'Mine');
    await saveCards(ctx.app, stranger.headers, own._id, [{ question: `![](/media/${heart})`, answer: 'x' }]);
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: `/decks/${own._id}/export.apkg`,
      headers: stranger.headers,
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect([...(await readAnkiPackage(theirs.rawPayload, 50_000_000)).media.keys()]).toEqual([]);
  });
});
