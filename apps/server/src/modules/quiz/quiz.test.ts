import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { insertDeck, postQuiz } from '../../../test/support/quiz';
import { createTestApp, type TestContext } from '../../../test/support/test-app';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ env: { QUIZ_RATE_LIMIT_PER_HOUR: '3' } });
});
afterAll(async () => {
  await ctx.close();
});

const deckCards = [
  { question: 'What is osmosis?', answer: 'The movement of water across a semipermeable membrane' },
  { question: 'Which organelle makes proteins?', answer: 'Ribosomes build proteins from amino acids' },
  { question: 'Powerhouse of the cell?', answer: 'Mitochondria' },
];

describe('POST /api/quiz/generate', () => {
  it('writes questions from the deck, from another angle than its cards, and spends no quota', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const deckId = await insertDeck(ctx, user._id, deckCards);
    const response = await postQuiz(ctx.app, headers, { deck_id: deckId });
    expect(response.statusCode, response.body).toBe(200);
    const flipped = [
      {
        question: 'Which term matches this description: "The movement of water across a semipermeable membrane"?',
        answer: 'Osmosis',
      },
      {
        question: 'Which organelle makes proteins?\n\nComplete the answer: _____ build proteins from amino acids',
        answer: 'Ribosomes',
      },
      { question: 'Which question has the answer "Mitochondria"?', answer: 'Powerhouse of the cell?' },
    ];
    // `cards` repeats the questions for clients of before the modes.
    expect(response.json()).toEqual({ mode: 'flip', questions: flipped, cards: flipped });
    const questions = response.json<{ cards: { question: string }[] }>().cards.map((c) => c.question);
    for (const card of deckCards) expect(questions).not.toContain(card.question);
    const status = await ctx.app.inject({ method: 'GET', url: '/api/subscription-status', headers });
    expect(status.json().remaining).toBe(10);
  });

  it('checks the deck id: missing, malformed, someone else’s, unknown', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const other = await signUpAndLogIn(ctx.app);
    const othersDeck = await insertDeck(ctx, other.user._id, deckCards);

    const missing = await postQuiz(ctx.app, headers, {});
    expectValidationError(missing, 'deck_id', messages.selectDeck);

    const malformed = await postQuiz(ctx.app, headers, { deck_id: 'not-a-deck' });
    expectError(malformed, 422, 'invalid_deck_id', serverMessages.invalidDeckIdServer);

    for (const deckId of [othersDeck, 'aaaaaaaaaaaaaaaaaaaaaaaa']) {
      const response = await postQuiz(ctx.app, headers, { deck_id: deckId });
      expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    }
  });

  it('an empty deck gets 422 with the spec’s message', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const deckId = await insertDeck(ctx, user._id, []);
    const response = await postQuiz(ctx.app, headers, { deck_id: deckId });
    expectError(response, 422, 'empty_deck', messages.quizEmpty);
  });

  it('is rate limited per user (QUIZ_RATE_LIMIT_PER_HOUR)', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const deckId = await insertDeck(ctx, user._id, deckCards);
    for (let i = 0; i < 3; i++) expect((await postQuiz(ctx.app, headers, { deck_id: deckId })).statusCode).toBe(200);
    const limited = await postQuiz(ctx.app, headers, { deck_id: deckId });
    expectError(limited, 429, 'rate_limited', serverMessages.rateLimited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const someoneElse = await signUpAndLogIn(ctx.app);
    const theirDeck = await insertDeck(ctx, someoneElse.user._id, deckCards);
    expect((await postQuiz(ctx.app, someoneElse.headers, { deck_id: theirDeck })).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const response = await postQuiz(ctx.app, {}, { deck_id: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(response.statusCode).toBe(401);
  });
});
