import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FileImportResponse } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basicNote,
  buildPackage,
  type PackageFormat,
  pngBytes,
  samplePackage,
  zipFiles,
} from '../../../test/support/anki-packages';
import { expectError } from '../../../test/support/api-error';
import { type AuthHeaders, signUpAndLogIn } from '../../../test/support/factories';
import { multipartBody, postMultipart } from '../../../test/support/multipart';
import { createDeck, saveCards } from '../../../test/support/study';
import { createTestApp, type TestContext, useTestApp } from '../../../test/support/test-app';
import { docxZipBomb } from '../../../test/support/zip-bomb';
import { readAnkiPackage } from '../../adapters/anki/anki-package';

const ctx = useTestApp({
  env: {
    AUTH_RATE_LIMIT_PER_IP: '1000',
    IMPORT_MAX_BYTES: '2000000',
    IMPORT_MAX_UNZIPPED_BYTES: '8388608',
  },
});

function upload(headers: AuthHeaders, file: Buffer, filename: string, extra: Record<string, string> = {}) {
  return uploadTo(ctx.app, headers, file, filename, extra);
}

function uploadTo(
  app: FastifyInstance,
  headers: AuthHeaders,
  file: Buffer,
  filename: string,
  extra: Record<string, string> = {},
) {
  return postMultipart(app, '/import', headers, [
    ...Object.entries(extra).map(([name, value]) => ({ name, value })),
    { name: 'file', value: file, filename },
  ]);
}

async function userRows(userId: string) {
  const db = ctx.database.db;
  return {
    decks: await db.selectFrom('decks').select(['id', 'name']).where('user_id', '=', userId).orderBy('name').execute(),
    cards: await db
      .selectFrom('cards')
      .select(['question', 'answer', 'deck_id', 'state'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    media: await db
      .selectFrom('media')
      .select(['name', 'content_type', 'size'])
      .where('user_id', '=', userId)
      .execute(),
    notes: await db.selectFrom('imported_notes').select('guid').where('user_id', '=', userId).execute(),
  };
}

const expectedCards = [
  { question: 'What is **H2O**?', answer: 'Water' },
  { question: 'Paris', answer: 'Capital of France' },
  { question: 'Capital of France', answer: 'Paris' },
  {
    question: '[...] is the powerhouse of the cell, $E=mc^2$',
    answer: '**Mitochondria** is the powerhouse of the cell, $E=mc^2$\n\nBiology',
  },
  {
    question: 'Mitochondria is the [what?] of the cell, $E=mc^2$',
    answer: 'Mitochondria is the **powerhouse** of the cell, $E=mc^2$\n\nBiology',
  },
  { question: '猫\n\n![](/media/IMAGE)', answer: '猫(ねこ)  \ncat  \n(no example)' },
  { question: 'cat', answer: '猫' },
  { question: '犬', answer: '犬(いぬ)  \ndog  \n*The dog barks.*' },
  { question: 'dog', answer: '犬' },
  { question: 'Complete: The dog barks.', answer: '犬' },
];

describe('POST /import (Anki packages)', () => {
  it.each<[PackageFormat, string]>([
    ['anki2', 'deck.apkg'],
    ['anki21', 'deck.apkg'],
    ['anki21b', 'deck.apkg'],
    ['anki21b', 'collection.colpkg'],
  ])(
    'imports a collection.%s package (%s): templates, clozes, subdeck, image; sounds counted',
    async (format, name) => {
      const { headers, user } = await signUpAndLogIn(ctx.app);
      const response = await upload(headers, await buildPackage(samplePackage(), format), name);
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json<FileImportResponse>();
      expect(Object.keys(body).sort()).toEqual(['cards_imported', 'decks', 'skipped', 'warnings']);
      expect(body.decks.map((deck) => [deck.name, deck.card_count])).toEqual([
        ['Languages', 5],
        ['Languages::Japanese', 5],
      ]);
      // The note whose front is only "<br>" renders an empty question: skipped.
      expect(body).toMatchObject({ cards_imported: 10, skipped: 1 });
      expect(body.warnings).toEqual([fillMessage(serverMessages.importSoundsDropped, { count: 1 })]);

      const rows = await userRows(user._id);
      expect(rows.decks.map((deck) => deck.name)).toEqual(['Languages', 'Languages::Japanese']);
      expect(rows.media).toHaveLength(1);
      const image = rows.media[0];
      expect(image).toMatchObject({ content_type: 'image/png', size: pngBytes.length });
      expect(image?.name).toMatch(/^[0-9a-f]{40}\.png$/);
      expect(rows.cards.map(({ question, answer }) => ({ question, answer }))).toEqual(
        expectedCards.map((card) => ({ ...card, question: card.question.replace('IMAGE', image?.name ?? '') })),
      );
      expect(rows.cards.every((card) => card.state === 0)).toBe(true);
      const japanese = rows.decks.find((deck) => deck.name === 'Languages::Japanese');
      expect(rows.cards.filter((card) => card.deck_id === japanese?.id)).toHaveLength(5);
      expect(rows.notes.map((note) => note.guid).sort()).toEqual([
        'guidBasic1',
        'guidCloze1',
        'guidRev1',
        'guidVocab1',
        'guidVocab2',
      ]);

      // The image is served, to anyone holding the name, as the sniffed type, cached for long.
      const media = await ctx.app.inject({ method: 'GET', url: `/media/${image?.name}` });
      expect(media.statusCode).toBe(200);
      expect(media.headers['content-type']).toBe('image/png');
      expect(media.headers['x-content-type-options']).toBe('nosniff');
      expect(media.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      expect(media.rawPayload.equals(pngBytes)).toBe(true);
    },
  );

  it('skips every note on a second import of the same package, writing nothing', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const pkg = await buildPackage(samplePackage());
    expect((await upload(headers, pkg, 'deck.apkg')).statusCode).toBe(201);
    const before = await userRows(user._id);
    const again = await upload(headers, pkg, 'deck.apkg');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({
      decks: [],
      cards_imported: 0,
      skipped: 11,
      warnings: [fillMessage(serverMessages.importSoundsDropped, { count: 1 })],
    });
    expect(await userRows(user._id)).toEqual(before);
  });

  it('imports the notes again once their deck is deleted', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const pkg = await buildPackage(samplePackage());
    const first = (await upload(headers, pkg, 'deck.apkg')).json<FileImportResponse>();
    for (const deck of first.decks) {
      expect((await ctx.app.inject({ method: 'DELETE', url: `/decks/${deck._id}`, headers })).statusCode).toBe(204);
    }
    const again = await upload(headers, pkg, 'deck.apkg');
    expect(again.json()).toMatchObject({ cards_imported: 10, skipped: 1 });
  });

  it('counts images missing from the package and leaves them out', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const pkg = samplePackage();
    pkg.media = { 'cat.png': Buffer.from('<svg onload="alert(1)"></svg>') };
    const response = await upload(headers, await buildPackage(pkg), 'deck.apkg');
    expect(response.statusCode).toBe(201);
    expect(response.json().warnings).toEqual([
      fillMessage(serverMessages.importSoundsDropped, { count: 1 }),
      fillMessage(serverMessages.importImagesMissing, { count: 1 }),
    ]);
    const rows = await userRows(user._id);
    expect(rows.media).toEqual([]);
    expect(rows.cards.find((card) => card.question.startsWith('猫'))?.question).toBe('猫');
  });

  it.each([
    ['a file that is not a zip', Buffer.from('PK but not really a zip archive'), 'deck.apkg'],
    ['a zip without a collection', null, 'deck.apkg'],
    ['a zip whose collection is not SQLite', 'not-sqlite', 'deck.apkg'],
    ['a zip bomb', 'bomb', 'deck.apkg'],
    ['a text file that is not UTF-8', Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x00]), 'cards.txt'],
  ])('refuses %s with 422 invalid_package and writes nothing', async (_label, file, name) => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    let bytes: Buffer;
    if (file === null) bytes = await zipFiles([['media', Buffer.from('{}')]]);
    else if (file === 'not-sqlite') bytes = await zipFiles([['collection.anki2', Buffer.alloc(4096, 7)]]);
    else if (file === 'bomb') bytes = docxZipBomb(64 * 1024 * 1024, 1024);
    else bytes = file as Buffer;
    const response = await upload(headers, bytes, name);
    expectError(response, 422, 'invalid_package', serverMessages.invalidPackage);
    const rows = await userRows(user._id);
    expect(rows).toEqual({ decks: [], cards: [], media: [], notes: [] });
  });

  it('refuses a file over IMPORT_MAX_BYTES with 413 file_too_large', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const response = await upload(headers, Buffer.alloc(2_100_000, 1), 'big.apkg');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      code: 'file_too_large',
      detail: fillMessage(serverMessages.importFileTooLarge, { size: '1.9 MB' }),
    });
    expect((await userRows(user._id)).cards).toEqual([]);
  });

  it.each(['deck.pdf', 'deck', 'notes.docx'])('refuses %s with 415 unsupported_file_type', async (name) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await upload(headers, Buffer.from('question,answer'), name);
    expectError(response, 415, 'unsupported_file_type', serverMessages.importUnsupportedType);
  });

  it('refuses a request without a file and one that is not multipart', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const body = multipartBody([{ name: 'deck_name', value: 'x' }]);
    const none = await ctx.app.inject({
      method: 'POST',
      url: '/import',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ code: 'validation_failed', detail: serverMessages.importNoFile });
    const json = await ctx.app.inject({ method: 'POST', url: '/import', headers, payload: { file: 'x' } });
    expectError(json, 415, 'unsupported_file_type', serverMessages.importUnsupportedType);
  });

  it('refuses a package that takes longer than IMPORT_TIMEOUT to read, writing nothing', async () => {
    const slow = await createTestApp({ env: { IMPORT_TIMEOUT: '1ms' } });
    try {
      const { headers, user } = await signUpAndLogIn(slow.app);
      const body = multipartBody([{ name: 'file', value: await buildPackage(samplePackage()), filename: 'deck.apkg' }]);
      const response = await slow.app.inject({
        method: 'POST',
        url: '/import',
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
      expectError(response, 422, 'invalid_package', serverMessages.importTooSlow);
      const decks = await slow.database.db.selectFrom('decks').select('id').where('user_id', '=', user._id).execute();
      expect(decks).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('answers 401 without a token', async () => {
    const response = await upload({ authorization: 'Bearer nope' }, Buffer.from('a,b'), 'x.csv');
    expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
  });
});

describe('POST /import (text files)', () => {
  it('reads an Anki text export with its headers, HTML and math', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const text = [
      '#separator:tab',
      '#html:true',
      '#deck:Chemistry::Acids',
      '#notetype:Basic',
      'What is <i>pH</i>?\tA measure of acidity: \\(-\\log[H^+]\\)',
      '"Quoted\tfield"\tsecond',
      '<br>\tno question',
    ].join('\n');
    const response = await upload(headers, Buffer.from(text), 'export.txt');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      cards_imported: 2,
      skipped: 1,
      warnings: [
        fillMessage(serverMessages.importLineSkipped, { line: 7, reason: serverMessages.importLineEmptyFront }),
      ],
    });
    expect(response.json().decks).toEqual([
      { _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Chemistry::Acids', card_count: 2 },
    ]);
    const rows = await userRows(user._id);
    expect(rows.cards.map(({ question, answer }) => ({ question, answer }))).toEqual([
      { question: 'What is *pH*?', answer: 'A measure of acidity: $-\\log[H^+]$' },
      { question: 'Quoted field', answer: 'second' },
    ]);
  });

  it('reads a CSV with a header row into the deck named by deck_name', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const csv = 'question,answer\n"Capital of Italy, in one word",Rome\nPlanets?,"Eight, since 2006"\n';
    const response = await upload(headers, Buffer.from(csv), 'geo.csv', { deck_name: 'Geography' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ cards_imported: 2, skipped: 0, decks: [{ name: 'Geography' }] });
    expect((await userRows(user._id)).cards.map((card) => [card.question, card.answer])).toEqual([
      ['Capital of Italy, in one word', 'Rome'],
      ['Planets?', 'Eight, since 2006'],
    ]);
  });

  it('reads a TSV and a Quizlet export, naming the deck after the file', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const tsv = await upload(headers, Buffer.from('hola\thello\nadiós\tgoodbye\n'), 'spanish.tsv');
    expect(tsv.json()).toMatchObject({ cards_imported: 2, decks: [{ name: 'spanish' }] });
    const quizlet = await upload(headers, Buffer.from('chat\tcat\nchien\tdog, the animal\n\n'), 'french.txt');
    expect(quizlet.json()).toMatchObject({ cards_imported: 2, decks: [{ name: 'french' }] });
    const cards = (await userRows(user._id)).cards.map((card) => [card.question, card.answer]);
    expect(cards).toEqual([
      ['hola', 'hello'],
      ['adiós', 'goodbye'],
      ['chat', 'cat'],
      ['chien', 'dog, the animal'],
    ]);
  });

  it("imports Anki's own text-2fields.txt as Anki did: 5 notes, the repeat and the empty sides named", async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const file = readFileSync(path.join(import.meta.dirname, '../../../test/fixtures/anki-text/text-2fields.txt'));
    const response = await upload(headers, file, 'text-2fields.txt');
    expect(response.statusCode, response.body).toBe(201);
    const line = (number: number, reason: string) =>
      fillMessage(serverMessages.importLineSkipped, { line: number, reason });
    expect(response.json()).toMatchObject({
      cards_imported: 5,
      skipped: 4,
      warnings: [
        line(6, serverMessages.importLineRepeated),
        line(8, serverMessages.importLineEmptyBack),
        line(9, serverMessages.importLineEmptyBack),
        line(10, serverMessages.importLineEmptyFront),
      ],
    });
    expect((await userRows(user._id)).cards.map((card) => [card.question, card.answer])).toEqual([
      ['食べる', 'to eat'],
      ['飲む', 'to drink'],
      ['テスト', 'test'],
      ['to eat', '食べる'],
      ['多すぎる', 'too many'],
    ]);
  });

  it('names at most 20 skipped lines, then counts the rest', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const rows = ['good\tcard', ...Array.from({ length: 25 }, (_, index) => `front ${index}\t`)];
    const response = await upload(headers, Buffer.from(rows.join('\n')), 'sparse.txt');
    expect(response.statusCode).toBe(201);
    const body = response.json<FileImportResponse>();
    expect(body).toMatchObject({ cards_imported: 1, skipped: 25 });
    expect(body.warnings).toEqual([
      ...Array.from({ length: 20 }, (_, index) =>
        fillMessage(serverMessages.importLineSkipped, { line: index + 2, reason: serverMessages.importLineEmptyBack }),
      ),
      fillMessage(serverMessages.importLinesSkippedMore, { count: 5 }),
    ]);
  });

  it('makes cloze and reversed notes from #notetype:, naming a cloze text the cloze rules refuse', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const cloze = [
      '#separator:tab',
      '#notetype:Cloze',
      '{{c1::Ottawa}} is the capital of {{c2::Canada}}\tGeography',
      'no cloze here\t',
    ];
    const first = await upload(headers, Buffer.from(cloze.join('\n')), 'cloze.txt');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      cards_imported: 2,
      skipped: 1,
      warnings: [fillMessage(serverMessages.importLineSkipped, { line: 4, reason: messages.clozeMissing })],
    });
    const reversedFile = '#notetype:Basic (and reversed card)\nperro\tdog\n';
    const second = await upload(headers, Buffer.from(reversedFile), 'words.txt');
    expect(second.json()).toMatchObject({ cards_imported: 2, skipped: 0, warnings: [] });
    expect((await userRows(user._id)).cards.map((card) => [card.question, card.answer])).toEqual([
      ['[...] is the capital of Canada', '**Ottawa** is the capital of Canada\n\nGeography'],
      ['Ottawa is the capital of [...]', 'Ottawa is the capital of **Canada**\n\nGeography'],
      ['perro', 'dog'],
      ['dog', 'perro'],
    ]);
    const notes = await ctx.database.db
      .selectFrom('notes')
      .select(['type', 'fields'])
      .where('user_id', '=', user._id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(notes.map((note) => [note.type, JSON.parse(note.fields)])).toEqual([
      ['cloze', { text: '{{c1::Ottawa}} is the capital of {{c2::Canada}}', extra: 'Geography' }],
      ['reversed', { front: 'perro', back: 'dog' }],
    ]);
  });
});

describe('POST /import within the per-user caps (MAX_DECKS_PER_USER, MAX_CARDS_PER_USER)', () => {
  // The sample package holds 2 decks and 10 cards (and an image); this server allows 3 decks and 12 cards a user.
  let capped: TestContext;

  beforeAll(async () => {
    capped = await createTestApp({
      shareWith: ctx,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', MAX_DECKS_PER_USER: '3', MAX_CARDS_PER_USER: '12' },
    });
  });

  afterAll(async () => {
    await capped.close();
  });

  it('refuses a package that would pass the deck cap with 422 too_many_decks, writing nothing', async () => {
    const { headers, user } = await signUpAndLogIn(capped.app);
    await createDeck(capped.app, headers, 'First');
    await createDeck(capped.app, headers, 'Second');
    const before = await userRows(user._id);
    const response = await uploadTo(capped.app, headers, await buildPackage(samplePackage()), 'deck.apkg');
    expectError(response, 422, 'too_many_decks', fillMessage(serverMessages.tooManyDecks, { max: 3 }));
    expect(await userRows(user._id)).toEqual(before);
    expect(before.decks.map((deck) => deck.name)).toEqual(['First', 'Second']);
  });

  it('refuses a package that would pass the card cap with 422 too_many_cards, writing nothing', async () => {
    const { headers, user } = await signUpAndLogIn(capped.app);
    const deck = await createDeck(capped.app, headers, 'Mine');
    await saveCards(capped.app, headers, deck._id, 3);
    const before = await userRows(user._id);
    const response = await uploadTo(capped.app, headers, await buildPackage(samplePackage()), 'deck.apkg');
    expectError(response, 422, 'too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: 12 }));
    expect(await userRows(user._id)).toEqual(before);
    expect(before.cards).toHaveLength(3);
    expect(before.media).toEqual([]);
    expect(before.notes).toEqual([]);
  });

  it('refuses a text file that would pass the card cap the same way', async () => {
    const { headers, user } = await signUpAndLogIn(capped.app);
    const csv = Array.from({ length: 13 }, (_, index) => `q${index},a${index}`).join('\n');
    const response = await uploadTo(capped.app, headers, Buffer.from(csv), 'many.csv');
    expectError(response, 422, 'too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: 12 }));
    expect(await userRows(user._id)).toEqual({ decks: [], cards: [], media: [], notes: [] });
  });

  it('imports up to the caps exactly, and a repeat that adds nothing is not refused at the cap', async () => {
    const { headers, user } = await signUpAndLogIn(capped.app);
    const deck = await createDeck(capped.app, headers, 'Mine');
    await saveCards(capped.app, headers, deck._id, 2);
    const pkg = await buildPackage(samplePackage());
    const first = await uploadTo(capped.app, headers, pkg, 'deck.apkg');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ cards_imported: 10, skipped: 1 });
    const atCap = await userRows(user._id);
    expect(atCap.decks).toHaveLength(3);
    expect(atCap.cards).toHaveLength(12);

    const again = await uploadTo(capped.app, headers, pkg, 'deck.apkg');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ decks: [], cards_imported: 0, skipped: 11 });
    expect(await userRows(user._id)).toEqual(atCap);
  });
});

describe('GET /media/{name}', () => {
  it('answers 404 for names that are unknown, malformed, or guessed from the content hash', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    await upload(headers, await buildPackage(samplePackage()), 'deck.apkg');
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(pngBytes).digest('hex');
    for (const name of [`${sha.slice(0, 40)}.png`, '../flashcards.db', 'x.svg', `${'0'.repeat(40)}.png`]) {
      const response = await ctx.app.inject({ method: 'GET', url: `/media/${encodeURIComponent(name)}` });
      expect(response.statusCode, name).toBe(404);
      expect(response.json()).toEqual({ code: 'media_not_found', detail: serverMessages.mediaNotFound });
    }
  });

  it('gives each user their own name for the same image', async () => {
    const a = await signUpAndLogIn(ctx.app);
    const b = await signUpAndLogIn(ctx.app);
    const pkg = await buildPackage(samplePackage());
    await upload(a.headers, pkg, 'deck.apkg');
    await upload(b.headers, pkg, 'deck.apkg');
    const nameA = (await userRows(a.user._id)).media[0]?.name;
    const nameB = (await userRows(b.user._id)).media[0]?.name;
    expect(nameA).toMatch(/^[0-9a-f]{40}\.png$/);
    expect(nameB).toMatch(/^[0-9a-f]{40}\.png$/);
    expect(nameA).not.toBe(nameB);
  });

  it('deletes an image with the last card that shows it', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const pkg = samplePackage();
    // Two notes show the same image.
    pkg.notes.push(basicNote(7, 'guidBasic2', ['<img src="cat.png"> again', 'a cat']));
    await upload(headers, await buildPackage(pkg), 'deck.apkg');
    const db = ctx.database.db;
    const withImage = await db
      .selectFrom('cards')
      .select(['id', 'deck_id'])
      .where('user_id', '=', user._id)
      .where('question', 'like', '%/media/%')
      .execute();
    expect(withImage).toHaveLength(2);
    const name = (await userRows(user._id)).media[0]?.name;
    const first = withImage[0];
    const second = withImage[1];
    expect((await ctx.app.inject({ method: 'DELETE', url: `/cards/${first?.id}`, headers })).statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: `/media/${name}` })).statusCode).toBe(200);
    // The second card goes with its deck.
    expect((await ctx.app.inject({ method: 'DELETE', url: `/decks/${second?.deck_id}`, headers })).statusCode).toBe(
      204,
    );
    expect((await ctx.app.inject({ method: 'GET', url: `/media/${name}` })).statusCode).toBe(404);
    expect((await userRows(user._id)).media).toEqual([]);
  });
});

describe('GET /decks/{id}/export.apkg', () => {
  it('exports a deck Anki reads: schema 11 collection, Basic note type, HTML, math, images; re-imports the same cards', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    await upload(headers, await buildPackage(samplePackage()), 'deck.apkg');
    const japanese = (await userRows(user._id)).decks.find((deck) => deck.name === 'Languages::Japanese');
    const deck = await createDeck(ctx.app, headers, 'Physics "basics"');
    await saveCards(ctx.app, headers, deck._id, [
      { question: 'Energy of a mass $m$?', answer: '$$E = mc^2$$' },
      { question: '**Bold** claim', answer: '- one\n- two' },
    ]);

    const response = await ctx.app.inject({ method: 'GET', url: `/decks/${japanese?.id}/export.apkg`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Languages_Japanese.apkg"; filename*=UTF-8''Languages_Japanese.apkg`,
    );

    // The collection inside, checked against Anki's schema 11.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'export-test-'));
    try {
      const { readZipEntries } = await import('../../adapters/extract/safe-zip');
      const entries = await readZipEntries(response.rawPayload, 50_000_000);
      expect([...entries.keys()].sort()).toEqual(['0', 'collection.anki2', 'media']);
      expect(JSON.parse(entries.get('media')?.toString() ?? '')).toEqual({ '0': expect.stringMatching(/\.png$/) });
      expect(entries.get('0')?.equals(pngBytes)).toBe(true);
      const file = path.join(dir, 'collection.anki2');
      writeFileSync(file, entries.get('collection.anki2') as Buffer);
      const col = new SqliteDatabase(file, { readonly: true });
      const columns = (table: string) =>
        (col.prepare(`pragma table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
      expect(columns('col')).toEqual([
        'id',
        'crt',
        'mod',
        'scm',
        'ver',
        'dty',
        'usn',
        'ls',
        'conf',
        'models',
        'decks',
        'dconf',
        'tags',
      ]);
      expect(columns('notes')).toEqual([
        'id',
        'guid',
        'mid',
        'mod',
        'usn',
        'tags',
        'flds',
        'sfld',
        'csum',
        'flags',
        'data',
      ]);
      expect(columns('cards')).toEqual([
        'id',
        'nid',
        'did',
        'ord',
        'mod',
        'usn',
        'type',
        'queue',
        'due',
        'ivl',
        'factor',
        'reps',
        'lapses',
        'left',
        'odue',
        'odid',
        'flags',
        'data',
      ]);
      const row = col.prepare('select * from col').get() as Record<string, string | number>;
      expect(row.ver).toBe(11);
      const models = Object.values(JSON.parse(String(row.models))) as Record<string, unknown>[];
      expect(models.map((model) => model.name)).toEqual([
        'Basic',
        'Basic (and reversed card)',
        'Cloze',
        'Image Occlusion',
      ]);
      expect(models[0]).toMatchObject({
        name: 'Basic',
        type: 0,
        flds: [
          { name: 'Front', ord: 0 },
          { name: 'Back', ord: 1 },
        ],
        tmpls: [{ ord: 0, qfmt: '{{Front}}', afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}' }],
      });
      const decks = Object.values(JSON.parse(String(row.decks))) as { id: number; name: string }[];
      expect(decks.map((d) => d.name).sort()).toEqual(['Default', 'Languages::Japanese']);
      const deckId = decks.find((d) => d.name === 'Languages::Japanese')?.id;
      const notes = col.prepare('select * from notes order by id').all() as Record<string, string | number>[];
      const cards = col.prepare('select * from cards order by id').all() as Record<string, string | number>[];
      expect(notes).toHaveLength(5);
      expect(cards).toHaveLength(5);
      expect(new Set(notes.map((note) => note.mid))).toEqual(new Set([(models[0] as { id: number }).id]));
      expect(cards.every((card) => card.did === deckId && card.ord === 0 && card.type === 0 && card.queue === 0)).toBe(
        true,
      );
      expect(new Set(cards.map((card) => card.nid))).toEqual(new Set(notes.map((note) => note.id)));
      const [front, back] = String(notes[0]?.flds).split('\x1f');
      expect(front).toMatch(/^<p>猫<\/p>\n<p><img src="[0-9a-f]{40}\.png" alt=""><\/p>$/);
      expect(back).toBe('猫(ねこ)<br>cat<br>(no example)');
      col.close();

      // Read back through our own reader, as Anki's importer would.
      const reread = await readAnkiPackage(response.rawPayload, 50_000_000);
      expect(reread.collection.cards).toHaveLength(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // Physics: math and markdown as Anki HTML, and a round trip through import gives the same cards.
    const physics = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}/export.apkg`, headers });
    expect(physics.headers['content-disposition']).toBe(
      `attachment; filename="Physics _basics_.apkg"; filename*=UTF-8''Physics%20_basics_.apkg`,
    );
    const other = await signUpAndLogIn(ctx.app);
    const again = await upload(other.headers, physics.rawPayload, 'physics.apkg');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ cards_imported: 2, skipped: 0, decks: [{ name: 'Physics "basics"' }] });
    expect((await userRows(other.user._id)).cards.map((card) => [card.question, card.answer])).toEqual([
      ['Energy of a mass $m$?', '$$E = mc^2$$'],
      ['**Bold** claim', '- one\n- two'],
    ]);
    const japaneseAgain = await ctx.app.inject({ method: 'GET', url: `/decks/${japanese?.id}/export.apkg`, headers });
    const third = await signUpAndLogIn(ctx.app);
    await upload(third.headers, japaneseAgain.rawPayload, 'jp.apkg');
    const originals = (await userRows(user._id)).cards.filter((card) => card.deck_id === japanese?.id);
    const copies = (await userRows(third.user._id)).cards;
    const thirdMedia = (await userRows(third.user._id)).media[0]?.name ?? '';
    const ownMedia = (await userRows(user._id)).media[0]?.name ?? '';
    expect(copies.map((card) => [card.question, card.answer])).toEqual(
      originals.map((card) => [card.question.replace(ownMedia, thirdMedia), card.answer]),
    );
  });

  it('keeps every note type and cloze number through an export and an import', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    await upload(headers, await buildPackage(samplePackage()), 'deck.apkg');
    const languages = (await userRows(user._id)).decks.find((deck) => deck.name === 'Languages');
    const notesOf = (userId: string) =>
      ctx.database.db
        .selectFrom('notes')
        .innerJoin('cards', 'cards.note_id', 'notes.id')
        .select(['notes.type', 'notes.fields', 'cards.card_type', 'cards.ord', 'cards.question'])
        .where('notes.user_id', '=', userId)
        .where('notes.deck_id', 'in', (eb) =>
          eb.selectFrom('decks').select('id').where('user_id', '=', userId).where('name', '=', 'Languages'),
        )
        .orderBy('cards.created_at')
        .orderBy('cards.id')
        .execute();
    const before = await notesOf(user._id);
    expect(before.map((row) => [row.type, row.card_type, row.ord])).toEqual([
      ['basic', 'basic', 0],
      ['reversed', 'basic', 0],
      ['reversed', 'reverse', 1],
      ['cloze', 'cloze', 0],
      ['cloze', 'cloze', 1],
    ]);
    expect(JSON.parse(before[3]?.fields ?? '')).toEqual({
      text: '{{c1::Mitochondria}} is the {{c2::powerhouse::what?}} of the cell, $E=mc^2$',
      extra: 'Biology',
    });

    const exported = await ctx.app.inject({ method: 'GET', url: `/decks/${languages?.id}/export.apkg`, headers });
    expect(exported.statusCode).toBe(200);
    const other = await signUpAndLogIn(ctx.app);
    const again = await upload(other.headers, exported.rawPayload, 'languages.apkg');
    expect(again.json()).toMatchObject({ cards_imported: 5, skipped: 0, decks: [{ name: 'Languages' }] });
    const after = await notesOf(other.user._id);
    expect(after.map((row) => [row.type, row.fields, row.card_type, row.ord, row.question])).toEqual(
      before.map((row) => [row.type, row.fields, row.card_type, row.ord, row.question]),
    );
  });

  it("answers 404 deck_not_found for another user's deck or a malformed id", async () => {
    const owner = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, owner.headers, 'Mine');
    const stranger = await signUpAndLogIn(ctx.app);
    for (const id of [deck._id, 'nope']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/decks/${id}/export.apkg`,
        headers: stranger.headers,
      });
      expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    }
  });
});

describe('import fixtures', () => {
  it('keeps the builder honest: a package from it reads back with every note', async () => {
    const pkg = await buildPackage(samplePackage(), 'anki21b');
    const read = await readAnkiPackage(pkg, 10_000_000);
    expect(read.collection.notes.size).toBe(6);
    expect([...read.media.keys()].sort()).toEqual(['cat.png', 'water.mp3']);
  });
});
