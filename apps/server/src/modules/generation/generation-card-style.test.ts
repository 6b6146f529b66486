/**
 * POST /create's `card_style` (docs/api.md, "Card generation"): cloze notes from the offline generator and from a
 * model (the fake chat-completions server, through the real request, streaming and parsing path), in the JSON reply
 * and the event stream; hostile values refused before anything is charged. SQLite, and PostgreSQL with DATABASE_URL.
 */
import type { GenerateResponse } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectValidationError } from '../../../test/support/api-error';
import { parseEventStream } from '../../../test/support/event-stream';
import { signUpAndLogIn } from '../../../test/support/factories';
import { type ChatRequest, completion, sendJson, streamCompletion } from '../../../test/support/fake-chat-server';
import { biology, biologyCards, freeUsed, postCreate, twoSlidePptx } from '../../../test/support/generation';
import { useFakeChatServer, useModelApp } from '../../../test/support/model-app';
import { postForm } from '../../../test/support/request-bodies';
import { createDeck, postSaveCards } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const sse = { accept: 'text/event-stream' };

const offline = useTestApp();
const fake = useFakeChatServer();
const model = useModelApp(fake, {}, () => ({ shareWith: offline }));

const biologyCloze = [
  {
    type: 'cloze',
    fields: {
      text: '{{c1::Photosynthesis}} is the process by which green plants use sunlight to make glucose from carbon dioxide and water.',
    },
    question: '[...] is the process by which green plants use sunlight to make glucose from carbon dioxide and water.',
    answer:
      '**Photosynthesis** is the process by which green plants use sunlight to make glucose from carbon dioxide and water.',
    source: {
      quote:
        'Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water.',
      paragraph: biology,
    },
    verified: true,
  },
  {
    type: 'cloze',
    fields: { text: '{{c1::Chlorophyll}} is the green pigment that absorbs light energy.' },
    question: '[...] is the green pigment that absorbs light energy.',
    answer: '**Chlorophyll** is the green pigment that absorbs light energy.',
    source: { quote: 'Chlorophyll is the green pigment that absorbs light energy.', paragraph: biology },
    verified: true,
  },
];

describe('POST /create card_style, offline generator', () => {
  it('cloze: the definitions come as cloze notes with their first card rendered; costs 1 as before', async () => {
    const { user, headers } = await signUpAndLogIn(offline.app);
    const response = await postCreate(offline.app, headers, [
      { name: 'text', value: biology },
      { name: 'card_style', value: 'cloze' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ cards: biologyCloze, cost: 1, remaining: 9 });
    expect(await freeUsed(offline.database, user._id)).toBe(1);
  });

  it('takes card_style in a url-encoded form too; mixed keeps definitions as questions', async () => {
    const { headers } = await signUpAndLogIn(offline.app);
    const mixed = await postForm(offline.app, '/create', headers, {
      text: `${biology} The human body has 206 bones.`,
      card_style: 'mixed',
    });
    expect(mixed.statusCode, mixed.body).toBe(200);
    const fromText = (quote: string) => ({ source: { quote, paragraph: `${biology} The human body has 206 bones.` } });
    expect(mixed.json().cards).toEqual([
      {
        question: 'What is photosynthesis?',
        answer: 'The process by which green plants use sunlight to make glucose from carbon dioxide and water',
        ...fromText(biologyCards[0]?.source.quote ?? ''),
        verified: true,
      },
      {
        question: 'What is chlorophyll?',
        answer: 'The green pigment that absorbs light energy',
        ...fromText(biologyCards[1]?.source.quote ?? ''),
        verified: true,
      },
      {
        type: 'cloze',
        fields: { text: 'The human body has {{c1::206}} bones.' },
        question: 'The human body has [...] bones.',
        answer: 'The human body has **206** bones.',
        ...fromText('The human body has 206 bones.'),
        verified: true,
      },
    ]);
    const basic = await postForm(offline.app, '/create', headers, { text: biology, card_style: 'basic' });
    expect(basic.json().cards.every((card: object) => !('type' in card) && !('fields' in card))).toBe(true);
  });

  it('streams cloze notes as card events, and done carries the same list', async () => {
    const { headers } = await signUpAndLogIn(offline.app);
    const response = await postCreate(offline.app, { ...headers, ...sse }, [
      { name: 'text', value: biology },
      { name: 'card_style', value: 'cloze' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const { events } = parseEventStream(response.body);
    expect(events.filter((e) => e.event === 'card').map((e) => e.data)).toEqual(biologyCloze);
    expect(events.at(-1)).toEqual({ event: 'done', data: { cards: biologyCloze, cost: 1, remaining: 9 } });
  });

  it('a cloze note from a slide carries its slide', async () => {
    const { headers } = await signUpAndLogIn(offline.app);
    const response = await postCreate(offline.app, headers, [
      { name: 'card_style', value: 'cloze' },
      { name: 'file', value: await twoSlidePptx(), filename: 'cells.pptx' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cards).toEqual([
      expect.objectContaining({
        type: 'cloze',
        fields: { text: '{{c1::Osmosis}} is the movement of water across a semipermeable membrane.' },
        source: {
          document: 'cells.pptx',
          slide: 1,
          quote: 'Osmosis is the movement of water across a semipermeable membrane.',
        },
        verified: true,
      }),
      expect.objectContaining({
        type: 'cloze',
        fields: { text: '{{c1::Diffusion}} is the spreading of particles from high to low concentration.' },
        source: {
          document: 'cells.pptx',
          slide: 2,
          quote: 'Diffusion is the spreading of particles from high to low concentration.',
        },
        verified: true,
      }),
    ]);
  });

  it.each([
    ['an unknown style', 'flashcards'],
    ['another case', 'Cloze'],
    ['spaces around it', ' cloze '],
    ['an empty value', ''],
    ['a huge value', 'c'.repeat(50_000)],
  ])('refuses %s with 422 before anything is charged', async (_name, value) => {
    const { user, headers } = await signUpAndLogIn(offline.app);
    for (const response of [
      await postCreate(offline.app, headers, [
        { name: 'text', value: biology },
        { name: 'card_style', value },
      ]),
      await postCreate(offline.app, { ...headers, ...sse }, [
        { name: 'text', value: biology },
        { name: 'card_style', value },
      ]),
      await postForm(offline.app, '/create', headers, { text: biology, card_style: value }),
    ]) {
      expectValidationError(response, 'card_style', serverMessages.cardStyleInvalid);
    }
    expect(await freeUsed(offline.database, user._id)).toBe(0);
  });

  it('refuses a card_style that is not a string in JSON, and a file upload with a bad style is not read', async () => {
    const { user, headers } = await signUpAndLogIn(offline.app);
    const json = await offline.app.inject({
      method: 'POST',
      url: '/create',
      headers,
      payload: { text: biology, card_style: 'nope' },
    });
    expectValidationError(json, 'card_style', serverMessages.cardStyleInvalid);
    for (const card_style of [5, ['cloze'], { style: 'cloze' }, null, true]) {
      const wrongType = await offline.app.inject({
        method: 'POST',
        url: '/create',
        headers,
        payload: { text: biology, card_style },
      });
      expectValidationError(wrongType, 'card_style', serverMessages.cardStyleInvalid);
    }
    const file = await postCreate(offline.app, headers, [
      { name: 'card_style', value: 'nope' },
      { name: 'file', value: await twoSlidePptx(), filename: 'cells.pptx' },
    ]);
    expectValidationError(file, 'card_style', serverMessages.cardStyleInvalid);
    expect(await freeUsed(offline.database, user._id)).toBe(0);
  });
});

describe('saving generated cloze notes', () => {
  it('POST /save-cards makes each cloze note a note with one card per number, basic cards basic notes', async () => {
    const { user, headers } = await signUpAndLogIn(offline.app);
    const generated = await postCreate(offline.app, headers, [
      { name: 'text', value: `${biology}\n\nThe three domains of life are:\n- Bacteria\n- Archaea\n- Eukarya` },
      { name: 'card_style', value: 'cloze' },
    ]);
    expect(generated.statusCode, generated.body).toBe(200);
    const cards = generated.json<GenerateResponse>().cards;
    const domains = cards.find((card) => 'type' in card && card.fields.text.startsWith('The three domains'));
    expect(domains).toBeDefined();
    const deck = await createDeck(offline.app, headers);
    // As the Create page sends them: a cloze note as { type, fields }, a basic card as { question, answer }.
    const items = [
      ...cards.map((card) => ('type' in card ? { type: card.type, fields: card.fields } : card)),
      { question: 'Why do cells need ATP?', answer: 'It carries the energy for cell work.' },
    ];
    const saved = await postSaveCards(offline.app, headers, { deck_id: deck._id, cards: items });
    expect(saved.statusCode, saved.body).toBe(201);

    const notes = await offline.database.db
      .selectFrom('notes')
      .select(['id', 'type', 'fields'])
      .where('user_id', '=', user._id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(notes.map((note) => ({ type: note.type, fields: JSON.parse(note.fields) }))).toEqual([
      ...cards.map((card) => ('type' in card ? { type: 'cloze', fields: card.fields } : card)),
      { type: 'basic', fields: { front: 'Why do cells need ATP?', back: 'It carries the energy for cell work.' } },
    ]);
    const rows = await offline.database.db
      .selectFrom('cards')
      .select(['note_id', 'card_type', 'ord', 'question'])
      .where('user_id', '=', user._id)
      .orderBy('note_id')
      .orderBy('ord')
      .execute();
    const domainsNote = notes.find((note) => note.fields.includes('The three domains'));
    expect(rows.filter((row) => row.note_id === domainsNote?.id)).toEqual([
      {
        note_id: domainsNote?.id,
        card_type: 'cloze',
        ord: 0,
        question: 'The three domains of life are:\n- [...]\n- Archaea\n- Eukarya',
      },
      {
        note_id: domainsNote?.id,
        card_type: 'cloze',
        ord: 1,
        question: 'The three domains of life are:\n- Bacteria\n- [...]\n- Eukarya',
      },
      {
        note_id: domainsNote?.id,
        card_type: 'cloze',
        ord: 2,
        question: 'The three domains of life are:\n- Bacteria\n- Archaea\n- [...]',
      },
    ]);
    // Every generated note's first card is the card the Create page showed.
    for (const card of cards) {
      expect(rows).toContainEqual(expect.objectContaining({ ord: 0, question: card.question }));
    }
    expect(rows).toHaveLength(cards.length + 2 + 1);
  });
});

const clozeReply = {
  cards: [
    { text: '{{c1::Mitochondria}} release energy from {{c2::glucose}} during cellular respiration.' },
    { question: 'Why do cells need ATP?', answer: 'It carries the energy that drives cell work' },
    // Broken or guessable notes a model may write: dropped.
    { text: '{{c1::The}} cell divides.' },
    { text: 'No deletion in this sentence.' },
    { text: '{{c1::unclosed deletion' },
    { text: '{{c0::zero}} is not a cloze number.' },
  ],
};

/** The item schema of the JSON schema a chat request asked for. */
function schemaItems(request: ChatRequest | undefined): unknown {
  const schema = request?.body.response_format?.json_schema?.schema as
    | { properties: { cards: { items: unknown } } }
    | undefined;
  return schema?.properties.cards.items;
}

const mitochondria = {
  type: 'cloze',
  fields: { text: '{{c1::Mitochondria}} release energy from {{c2::glucose}} during cellular respiration.' },
  question: '[...] release energy from glucose during cellular respiration.',
  answer: '**Mitochondria** release energy from glucose during cellular respiration.',
  // The model gave no quote: nothing to check, the card is unverified.
  source: { quote: '' },
  verified: false,
};
const atp = {
  question: 'Why do cells need ATP?',
  answer: 'It carries the energy that drives cell work',
  source: { quote: '' },
  verified: false,
};

describe('POST /create card_style, with a model', () => {
  it('asks for cloze notes in the cloze style (schema and prompt) and keeps the valid ones it streams', async () => {
    fake.handler = (_request, res) => streamCompletion(res, JSON.stringify(clozeReply), { piece: 7 });
    const { headers } = await signUpAndLogIn(model.app);
    const response = await postCreate(model.app, { ...headers, ...sse }, [
      { name: 'text', value: biology },
      { name: 'card_style', value: 'cloze' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const { events } = parseEventStream(response.body);
    expect(events.filter((e) => e.event === 'card').map((e) => e.data)).toEqual([mitochondria, atp]);
    expect(events.at(-1)?.data.cards).toEqual([mitochondria, atp]);

    const [request] = fake.requests;
    expect(request?.body.stream).toBe(true);
    expect(request?.body.response_format?.json_schema?.schema).toEqual({
      type: 'object',
      properties: {
        cards: {
          type: 'array',
          items: {
            type: 'object',
            properties: { text: { type: 'string' }, quote: { type: 'string' } },
            required: ['text', 'quote'],
            additionalProperties: false,
          },
        },
      },
      required: ['cards'],
      additionalProperties: false,
    });
    const system = request?.body.messages[0]?.content ?? '';
    expect(system).toContain('Write every card as a cloze note');
    expect(system).toContain('One fact per deletion');
    expect(system).toContain('Never blank a word a learner could guess from the grammar alone');
    expect(system).toContain('{"cards":[{"text":"...","quote":"..."}]}');
  });

  it('mixed: the schema takes either shape per card, and a whole (not streamed) reply is parsed the same way', async () => {
    fake.handler = (_request, res) => sendJson(res, 200, completion(`Sure!\n${JSON.stringify(clozeReply)}`));
    const { headers } = await signUpAndLogIn(model.app);
    const response = await postCreate(model.app, headers, [
      { name: 'text', value: biology },
      { name: 'card_style', value: 'mixed' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cards).toEqual([mitochondria, atp]);
    const [request] = fake.requests;
    expect(schemaItems(request)).toEqual({
      anyOf: [
        expect.objectContaining({ required: ['question', 'answer', 'quote'] }),
        expect.objectContaining({ required: ['text', 'quote'] }),
      ],
    });
    expect(request?.body.messages[0]?.content).toContain('For each card choose the better form');
  });

  it('basic: the schema and prompt are as before, and a cloze note the model writes anyway is its first card', async () => {
    fake.handler = (_request, res) => sendJson(res, 200, completion(JSON.stringify(clozeReply)));
    const { headers } = await signUpAndLogIn(model.app);
    const response = await postCreate(model.app, headers, [{ name: 'text', value: biology }]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cards).toEqual([
      { question: mitochondria.question, answer: mitochondria.answer, source: { quote: '' }, verified: false },
      atp,
    ]);
    const [request] = fake.requests;
    expect(schemaItems(request)).toMatchObject({ required: ['question', 'answer', 'quote'] });
    expect(request?.body.messages[0]?.content).not.toMatch(/cloze|\{\{c1::/i);
  });
});
