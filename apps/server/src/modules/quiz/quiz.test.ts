import { messages } from '@flashcards/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { createTestApp, type TestContext } from '../../../test/support/test-app';
import { createIdGenerator } from '../../adapters/ids';
import { newCardState } from '../study-core/card-state';

let ctx: TestContext;
let newId: () => string;

beforeAll(async () => {
  ctx = await createTestApp({ env: { QUIZ_RATE_LIMIT_PER_HOUR: '3' } });
  newId = createIdGenerator(ctx.clock);
});
afterAll(async () => {
  await ctx.close();
});

/** The /decks endpoints live in another module: decks and cards go in through the database. */
async function insertDeck(userId: string, cards: { question: string; answer: string }[]): Promise<string> {
  const now = ctx.clock.now();
  const deckId = newId();
  await ctx.database.db
    .insertInto('decks')
    .values({
      id: deckId,
      user_id: userId,
      name: 'Biology',
      daily_new_card_limit: 20,
      created_at: now,
      updated_at: now,
    })
    .execute();
  let offset = 0;
  for (const card of cards) {
    offset++;
    await ctx.database.db
      .insertInto('cards')
      .values({
        id: newId(),
        user_id: userId,
        deck_id: deckId,
        ...card,
        ...newCardState(now),
        first_reviewed_at: null,
        created_at: now + offset,
        updated_at: now,
      })
      .execute();
  }
  return deckId;
}

function quiz(headers: Record<string, string>, payload: unknown) {
  return ctx.app.inject({ method: 'POST', url: '/api/quiz/generate', headers, payload: payload as object });
}

const deckCards = [
  { question: 'What is osmosis?', answer: 'The movement of water across a semipermeable membrane' },
  { question: 'Which organelle makes proteins?', answer: 'Ribosomes build proteins from amino acids' },
  { question: 'Powerhouse of the cell?', answer: 'Mitochondria' },
];

describe('POST /api/quiz/generate', () => {
  it('writes questions from the deck, from another angle than its cards, and spends no quota', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const deckId = await insertDeck(user._id, deckCards);
    const response = await quiz(headers, { deck_id: deckId });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      cards: [
        {
          question: 'Which term matches this description: "The movement of water across a semipermeable membrane"?',
          answer: 'Osmosis',
        },
        {
          question: 'Which organelle makes proteins?\n\nComplete the answer: _____ build proteins from amino acids',
          answer: 'Ribosomes',
        },
        { question: 'Which question has the answer "Mitochondria"?', answer: 'Powerhouse of the cell?' },
      ],
    });
    const questions = response.json<{ cards: { question: string }[] }>().cards.map((c) => c.question);
    for (const card of deckCards) expect(questions).not.toContain(card.question);
    const status = await ctx.app.inject({ method: 'GET', url: '/api/subscription-status', headers });
    expect(status.json().remaining).toBe(10);
  });

  it('checks the deck id: missing, malformed, someone else’s, unknown', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const other = await signUpAndLogIn(ctx.app);
    const othersDeck = await insertDeck(other.user._id, deckCards);

    const missing = await quiz(headers, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({
      code: 'validation_failed',
      detail: messages.selectDeck,
      errors: [{ field: 'deck_id', message: messages.selectDeck }],
    });

    const malformed = await quiz(headers, { deck_id: 'not-a-deck' });
    expectError(malformed, 422, 'invalid_deck_id', messages.invalidDeckIdServer);

    for (const deckId of [othersDeck, 'aaaaaaaaaaaaaaaaaaaaaaaa']) {
      const response = await quiz(headers, { deck_id: deckId });
      expectError(response, 404, 'deck_not_found', messages.deckNotFound);
    }
  });

  it('an empty deck gets 422 with the spec’s message', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const deckId = await insertDeck(user._id, []);
    const response = await quiz(headers, { deck_id: deckId });
    expectError(response, 422, 'empty_deck', messages.quizEmpty);
  });

  it('is rate limited per user (QUIZ_RATE_LIMIT_PER_HOUR)', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const deckId = await insertDeck(user._id, deckCards);
    for (let i = 0; i < 3; i++) expect((await quiz(headers, { deck_id: deckId })).statusCode).toBe(200);
    const limited = await quiz(headers, { deck_id: deckId });
    expectError(limited, 429, 'rate_limited', messages.rateLimited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const someoneElse = await signUpAndLogIn(ctx.app);
    const theirDeck = await insertDeck(someoneElse.user._id, deckCards);
    expect((await quiz(someoneElse.headers, { deck_id: theirDeck })).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const response = await quiz({}, { deck_id: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(response.statusCode).toBe(401);
  });
});
