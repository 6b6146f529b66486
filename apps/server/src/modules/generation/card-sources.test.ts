/**
 * Sources and duplicates of AI cards (docs/api.md, "Sources and duplicates"): each generated card's quote checked
 * against the material, with the built-in generator and with a model (the fake chat-completions server, through the
 * real request, streaming and parsing path); duplicates of a chosen deck flagged; sources kept on save, shown on
 * cards and deleted; exact duplicates skipped on save. SQLite, and PostgreSQL with DATABASE_URL.
 */
import type { Card, GeneratedCard } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { parseEventStream } from '../../../test/support/event-stream';
import { signUpAndLogIn } from '../../../test/support/factories';
import { completion, sendJson, streamCompletion } from '../../../test/support/fake-chat-server';
import { biology, biologyCards, freeUsed, postCreate } from '../../../test/support/generation';
import { useFakeChatServer, useModelApp } from '../../../test/support/model-app';
import { createDeck, postSaveCards } from '../../../test/support/study';
import { type TestContext, useTestApp } from '../../../test/support/test-app';
import { newCardRow } from '../study-core/card-state';
import { insertCards } from '../study-core/deck-counters';

const sse = { accept: 'text/event-stream' };

const offline = useTestApp();
const fake = useFakeChatServer();
const model = useModelApp(fake, {}, () => ({ shareWith: offline }));

// A model's answer: a card quoted exactly, one quoted with other spacing, case and punctuation, one invented.
const modelReply = {
  cards: [
    {
      question: 'What does chlorophyll absorb?',
      answer: 'Light energy',
      quote: 'Chlorophyll is the green pigment that absorbs light energy.',
    },
    {
      question: 'What do green plants make glucose from?',
      answer: 'Carbon dioxide and water',
      quote:
        '  PHOTOSYNTHESIS is the process by which green   plants use sunlight, to make glucose from carbon-dioxide and water ',
    },
    {
      question: 'Where does photosynthesis happen at night?',
      answer: 'In the roots',
      quote: 'At night, photosynthesis moves to the roots of the plant.',
    },
  ],
};

describe('sources of generated cards', () => {
  it('the built-in generator quotes the sentence of each card, verified, in the JSON reply and the stream', async () => {
    const { headers } = await signUpAndLogIn(offline.app);
    const json = await postCreate(offline.app, headers, [{ name: 'text', value: biology }]);
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().cards).toEqual(biologyCards);

    const streamed = await postCreate(offline.app, { ...headers, ...sse }, [{ name: 'text', value: biology }]);
    expect(streamed.statusCode, streamed.body).toBe(200);
    const { events } = parseEventStream(streamed.body);
    expect(events.filter((e) => e.event === 'card').map((e) => e.data)).toEqual(biologyCards);
    expect(events.at(-1)?.data.cards).toEqual(biologyCards);
  }, 120_000);

  it('asks a model for the quote of each card and marks an invented card unverified', async () => {
    fake.handler = (_request, res) => sendJson(res, 200, completion(JSON.stringify(modelReply)));
    const { headers } = await signUpAndLogIn(model.app);
    const response = await postCreate(model.app, headers, [{ name: 'text', value: biology }]);
    expect(response.statusCode, response.body).toBe(200);
    const cards = response.json().cards as GeneratedCard[];
    expect(cards.map((card) => [card.question, card.verified])).toEqual([
      ['What does chlorophyll absorb?', true],
      ['What do green plants make glucose from?', true],
      ['Where does photosynthesis happen at night?', false],
    ]);
    expect(cards[0]?.source).toEqual({ quote: modelReply.cards[0]?.quote, paragraph: biology });
    expect(cards[2]?.source).toEqual({ quote: 'At night, photosynthesis moves to the roots of the plant.' });

    const [request] = fake.requests;
    const schema = request?.body.response_format?.json_schema?.schema as
      | { properties: { cards: { items: { required: string[] } } } }
      | undefined;
    expect(schema?.properties.cards.items.required).toEqual(['question', 'answer', 'quote']);
    expect(request?.body.messages[0]?.content).toContain('In "quote", copy word for word the sentence');
  });

  it('checks the quotes of streamed model cards as they come', async () => {
    fake.handler = (_request, res) => streamCompletion(res, JSON.stringify(modelReply), { piece: 9 });
    const { headers } = await signUpAndLogIn(model.app);
    const response = await postCreate(model.app, { ...headers, ...sse }, [{ name: 'text', value: biology }]);
    expect(response.statusCode, response.body).toBe(200);
    const { events } = parseEventStream(response.body);
    const streamed = events.filter((e) => e.event === 'card').map((e) => e.data as GeneratedCard);
    expect(streamed.map((card) => card.verified)).toEqual([true, true, false]);
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    const final = (done?.data.cards ?? []) as GeneratedCard[];
    expect(final.map((card) => card.verified)).toEqual([true, true, false]);
  });

  it('a model card without a quote, or with a hostile one, is unverified and answered at once', async () => {
    const hostile = [
      { question: 'What is A?', answer: 'Alpha' },
      { question: 'What is B?', answer: 'Beta', quote: `${'(a+)+$'.repeat(20_000)}` },
      { question: 'What is C?', answer: 'Gamma', quote: '.*'.repeat(900) },
      { question: 'What is D?', answer: 'Delta', quote: 'photosynthesis '.repeat(6_700) },
    ];
    fake.handler = (_request, res) => sendJson(res, 200, completion(JSON.stringify({ cards: hostile })));
    const { headers } = await signUpAndLogIn(model.app);
    const response = await postCreate(model.app, headers, [{ name: 'text', value: biology }]);
    expect(response.statusCode, response.body).toBe(200);
    const cards = response.json().cards as GeneratedCard[];
    expect(cards.map((card) => card.verified)).toEqual([false, false, false, false]);
    expect(cards[0]?.source).toEqual({ quote: '' });
    // A quote longer than any passage is shown shortened.
    expect(cards[1]?.source.quote).toHaveLength(2001);
    expect(cards[1]?.source.quote.endsWith('…')).toBe(true);
  });
});

describe('duplicates of a deck', () => {
  async function deckWithPhotosynthesis(context: TestContext) {
    const user = await signUpAndLogIn(context.app);
    const deck = await createDeck(context.app, user.headers);
    const saved = await postSaveCards(context.app, user.headers, {
      deck_id: deck._id,
      cards: [
        {
          question: 'Define photosynthesis.',
          answer: 'How green plants make glucose out of water and carbon dioxide, using sunlight',
        },
        { question: 'What is the capital of France?', answer: 'Paris' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    return { ...user, deck, existing: saved.json().cards as Card[] };
  }

  it('flags a card that states what a card of the deck states, in other words, and names it', async () => {
    const { headers, deck, existing } = await deckWithPhotosynthesis(offline);
    const response = await postCreate(offline.app, headers, [
      { name: 'text', value: biology },
      { name: 'deck_id', value: deck._id },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const [photosynthesis, chlorophyll] = response.json().cards as GeneratedCard[];
    expect(photosynthesis?.duplicate_of).toEqual({ card_id: existing[0]?._id, question: 'Define photosynthesis.' });
    expect(chlorophyll).toEqual(biologyCards[1]);

    const streamed = await postCreate(offline.app, { ...headers, ...sse }, [
      { name: 'text', value: biology },
      { name: 'deck_id', value: deck._id },
    ]);
    const cards = parseEventStream(streamed.body)
      .events.filter((e) => e.event === 'card')
      .map((e) => e.data as GeneratedCard);
    expect(cards.map((card) => card.duplicate_of?.card_id ?? null)).toEqual([existing[0]?._id, null]);
  });

  it('in a deck of 30,000 cards on the same subject, still names the one card that states the same fact', async () => {
    const { user, headers } = await signUpAndLogIn(offline.app);
    const deck = await createDeck(offline.app, headers);
    const crops = ['tomatoes', 'lettuce', 'peppers', 'cucumbers', 'basil', 'strawberries'];
    // Every card speaks of green plants, water and sunlight; a few hundred of carbon dioxide or glucose too.
    const filler = (i: number) => ({
      question: `What do the green plants of greenhouse ${i} need?`,
      answer:
        `Water, sunlight and ${crops[i % crops.length]} seedlings` +
        (i % 97 === 0 ? ', and carbon dioxide pumped in at night' : i % 89 === 0 ? '; they store glucose' : ''),
    });
    const restated = {
      question: 'Define photosynthesis.',
      answer: 'How green plants make glucose out of water and carbon dioxide, using sunlight',
    };
    const ids = Array.from({ length: 30_000 }, (_, i) => `${i.toString(16).padStart(20, '0')}abcd`);
    const rows = ids.map((id, i) =>
      newCardRow({ id, userId: user._id, deckId: deck._id }, i === 17_321 ? restated : filler(i), offline.clock.now()),
    );
    for (let from = 0; from < rows.length; from += 1000) {
      await insertCards(offline.database.db, rows.slice(from, from + 1000));
    }
    const response = await postCreate(offline.app, headers, [
      { name: 'text', value: biology },
      { name: 'deck_id', value: deck._id },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const [photosynthesis, chlorophyll] = response.json().cards as GeneratedCard[];
    expect(photosynthesis?.duplicate_of).toEqual({ card_id: ids[17_321], question: 'Define photosynthesis.' });
    expect(chlorophyll?.duplicate_of).toBeUndefined();
  }, 120_000);

  it('another user’s deck, a malformed or an unknown deck id is deck_not_found and charges nothing', async () => {
    const { deck } = await deckWithPhotosynthesis(offline);
    const { user, headers } = await signUpAndLogIn(offline.app);
    for (const deckId of [deck._id, 'not-an-id', '0'.repeat(24)]) {
      const response = await postCreate(offline.app, headers, [
        { name: 'text', value: biology },
        { name: 'deck_id', value: deckId },
      ]);
      expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    }
    expect(await freeUsed(offline.database, user._id)).toBe(0);
  });
});

describe('saved sources', () => {
  it('keeps the source of a saved card, shows it on the card, and deletes it', async () => {
    const { headers } = await signUpAndLogIn(offline.app);
    const deck = await createDeck(offline.app, headers);
    const source = { document: 'cells.pdf', page: 2, quote: 'Chlorophyll is the green pigment.' };
    const saved = await postSaveCards(offline.app, headers, {
      deck_id: deck._id,
      cards: [
        { question: 'What is chlorophyll?', answer: 'The green pigment', source },
        { type: 'cloze', fields: { text: '{{c1::Chlorophyll}} is the {{c2::green}} pigment.' }, source },
        { question: 'Made by hand?', answer: 'Yes' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const body = saved.json();
    expect(body).toMatchObject({ saved: 4, skipped_duplicates: 0 });
    expect((body.cards as Card[]).map((card) => card.source)).toEqual([source, source, source, null]);

    const listed = await offline.app.inject({ method: 'GET', url: `/decks/${deck._id}/cards`, headers });
    expect((listed.json() as Card[]).map((card) => card.source)).toEqual([source, source, source, null]);

    const cloze = (body.cards as Card[])[1] as Card;
    const deleted = await offline.app.inject({ method: 'DELETE', url: `/cards/${cloze._id}/source`, headers });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const rows = await offline.database.db
      .selectFrom('cards')
      .select(['question', 'source'])
      .where('deck_id', '=', deck._id)
      .orderBy('created_at')
      .orderBy('ord')
      .execute();
    // The cloze note's two cards lose it together; the basic card keeps its own.
    expect(rows.map((row) => (row.source ? JSON.parse(row.source) : null))).toEqual([source, null, null, null]);
  });

  it('DELETE /cards/{id}/source: someone else’s or an unknown card is 404', async () => {
    const owner = await signUpAndLogIn(offline.app);
    const deck = await createDeck(offline.app, owner.headers);
    const saved = await postSaveCards(offline.app, owner.headers, {
      deck_id: deck._id,
      cards: [{ question: 'Q?', answer: 'A', source: { quote: 'Q is A.' } }],
    });
    const card = (saved.json().cards as Card[])[0] as Card;
    const other = await signUpAndLogIn(offline.app);
    for (const id of [card._id, 'nope', '0'.repeat(24)]) {
      const response = await offline.app.inject({
        method: 'DELETE',
        url: `/cards/${id}/source`,
        headers: other.headers,
      });
      expectError(response, 404, 'card_not_found', messages.cardNotFound);
    }
    const row = await offline.database.db
      .selectFrom('cards')
      .select('source')
      .where('id', '=', card._id)
      .executeTakeFirst();
    expect(row?.source).toBe(JSON.stringify({ quote: 'Q is A.' }));
  });

  it('refuses a broken source with 422 and writes nothing', async () => {
    const { headers } = await signUpAndLogIn(offline.app);
    const deck = await createDeck(offline.app, headers);
    for (const source of [
      { quote: '' },
      { quote: 'x'.repeat(2002) },
      { quote: 'ok', page: 0 },
      { quote: 'ok', slide: 1.5 },
      { page: 1 },
      'a string',
    ]) {
      const response = await postSaveCards(offline.app, headers, {
        deck_id: deck._id,
        cards: [{ question: 'Q?', answer: 'A', source }],
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ detail: serverMessages.cardSourceInvalid, code: 'validation_failed' });
    }
    const count = await offline.database.db
      .selectFrom('cards')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deck_id', '=', deck._id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('skips exact duplicates of the deck and of the same save, case, space and punctuation aside', async () => {
    const { headers } = await signUpAndLogIn(offline.app);
    const deck = await createDeck(offline.app, headers);
    await postSaveCards(offline.app, headers, {
      deck_id: deck._id,
      cards: [{ question: 'What is osmosis?', answer: 'Water crossing a membrane' }],
    });
    const response = await postSaveCards(offline.app, headers, {
      deck_id: deck._id,
      cards: [
        { question: 'what is  OSMOSIS', answer: 'water crossing a membrane.' },
        { question: 'What is diffusion?', answer: 'Particles spreading out' },
        { question: 'WHAT IS DIFFUSION', answer: 'particles, spreading out' },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ saved: 1, skipped_duplicates: 2 });
    expect((response.json().cards as Card[]).map((card) => card.question)).toEqual(['What is diffusion?']);
    const all = await offline.database.db
      .selectFrom('cards')
      .select('question')
      .where('deck_id', '=', deck._id)
      .execute();
    expect(all.map((row) => row.question).sort()).toEqual(['What is diffusion?', 'What is osmosis?']);

    const again = await postSaveCards(offline.app, headers, {
      deck_id: deck._id,
      cards: [{ question: 'What is osmosis?', answer: 'Water crossing a membrane' }],
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toEqual({ saved: 0, cards: [], skipped_duplicates: 1 });
  });
});
