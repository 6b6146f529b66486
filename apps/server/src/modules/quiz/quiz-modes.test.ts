import type {
  Card,
  MatchingQuestion,
  MultipleChoiceQuestion,
  QuizResults,
  TrueFalseQuestion,
  WrittenQuestion,
} from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { postQuiz } from '../../../test/support/quiz';
import { rowById } from '../../../test/support/rows';
import { learnerWithDeck, reviewCard } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';
import { multipleChoice } from './quiz-modes';

const ctx = useTestApp();

type Headers = { authorization: string };

/** Chemistry and history cards: four numbers, four dates, four words. */
const mixedCards = [
  { question: 'Atomic number of carbon?', answer: '6' },
  { question: 'Atomic number of oxygen?', answer: '8' },
  { question: 'Atomic number of gold?', answer: '79' },
  { question: 'Avogadro constant?', answer: '6.022 × 10^23' },
  { question: 'Storming of the Bastille?', answer: '14 July 1789' },
  { question: 'Fall of the Berlin Wall?', answer: '9 November 1989' },
  { question: 'Battle of Hastings?', answer: '1066' },
  { question: 'End of the Second World War in Europe?', answer: '8 May 1945' },
  { question: 'Symbol of sodium?', answer: 'Na' },
  { question: 'Lightest noble gas?', answer: 'Helium' },
  { question: 'Gas plants take in for photosynthesis?', answer: 'Carbon dioxide' },
  { question: 'Powerhouse of the cell?', answer: 'The mitochondrion' },
];

async function quiz<T>(app: FastifyInstance, headers: Headers, deckId: string, mode: string): Promise<T[]> {
  const response = await postQuiz(app, headers, { deck_id: deckId, mode });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ mode: string; questions: T[] }>();
  expect(body.mode).toBe(mode);
  return body.questions;
}

const byId = (cards: Card[]) => new Map(cards.map((card) => [card._id, card]));
const isNumeric = (text: string) => /\d/.test(text);

describe('POST /api/quiz/generate, multiple choice', () => {
  it('gives four distinct options, exactly one the card’s answer, the others answers of the deck of the same kind', async () => {
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, mixedCards);
    const cardsById = byId(cards);
    const answers = new Set(cards.map((card) => card.answer));
    const questions = await quiz<MultipleChoiceQuestion>(ctx.app, headers, deck._id, 'multiple_choice');
    expect(questions).toHaveLength(mixedCards.length);
    for (const question of questions) {
      const card = cardsById.get(question.card_id) as Card;
      expect(question.question).toBe(card.question);
      expect(question.options).toHaveLength(4);
      expect(new Set(question.options).size).toBe(4);
      expect(question.options[question.answer_index]).toBe(card.answer);
      expect(question.options.filter((option) => option === card.answer)).toHaveLength(1);
      for (const option of question.options) expect(answers.has(option)).toBe(true);
      // Numbers and dates with numbers and dates, words with words (each kind has at least four answers here).
      for (const option of question.options) expect(isNumeric(option)).toBe(isNumeric(card.answer));
    }
  });

  it('refuses a deck of fewer than four cards, and four cards with one answer, with 422 not_enough_cards', async () => {
    const small = await learnerWithDeck(ctx.app, mixedCards.slice(0, 3));
    const same = await learnerWithDeck(
      ctx.app,
      ['Capital of France?', 'City of the Louvre?', 'Where is the Eiffel Tower?', 'Ville lumière?'].map((question) => ({
        question,
        answer: 'Paris',
      })),
    );
    for (const { headers, deck } of [small, same]) {
      for (const mode of ['multiple_choice', 'matching']) {
        const response = await postQuiz(ctx.app, headers, { deck_id: deck._id, mode });
        expectError(response, 422, 'not_enough_cards', messages.notEnoughCards);
      }
    }
    // True or false and written answers need no other answers: every statement is then true.
    const statements = await quiz<TrueFalseQuestion>(ctx.app, same.headers, same.deck._id, 'true_false');
    expect(statements.map((statement) => statement.is_true)).toEqual([true, true, true, true]);
  });
});

describe('POST /api/quiz/generate, other modes', () => {
  it('true or false: the card’s question with its own answer, or another card’s', async () => {
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, mixedCards);
    const cardsById = byId(cards);
    const answers = cards.map((card) => card.answer);
    const statements = await quiz<TrueFalseQuestion>(ctx.app, headers, deck._id, 'true_false');
    expect(statements).toHaveLength(mixedCards.length);
    for (const statement of statements) {
      const card = cardsById.get(statement.card_id) as Card;
      const said = answers.filter(
        (answer) =>
          statement.statement === fillMessage(serverMessages.quizStatement, { question: card.question, answer }),
      );
      expect(said).toHaveLength(1);
      expect(said[0] === card.answer).toBe(statement.is_true);
    }
  });

  it('matching: rounds of at most six pairs, as even as can be, each a card’s question and answer', async () => {
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, [
      ...mixedCards,
      { question: 'Symbol of iron?', answer: 'Fe' },
      { question: 'Symbol of potassium?', answer: 'K' },
    ]);
    const cardsById = byId(cards);
    const rounds = await quiz<MatchingQuestion>(ctx.app, headers, deck._id, 'matching');
    // 14 cards, at most 20 questions: three rounds of 5, 5 and 4.
    expect(rounds.map((round) => round.pairs.length)).toEqual([5, 5, 4]);
    const pairs = rounds.flatMap((round) => round.pairs);
    expect(new Set(pairs.map((pair) => pair.card_id)).size).toBe(14);
    for (const pair of pairs) {
      const card = cardsById.get(pair.card_id) as Card;
      expect(pair).toEqual({ card_id: card._id, left: card.question, right: card.answer });
    }
  });

  it('written: the cards’ questions, to check with POST /cards/{id}/check', async () => {
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, mixedCards.slice(0, 2));
    const questions = await quiz<WrittenQuestion>(ctx.app, headers, deck._id, 'written');
    expect(questions.sort((a, b) => a.card_id.localeCompare(b.card_id))).toEqual(
      cards
        .map((card) => ({ card_id: card._id, question: card.question }))
        .sort((a, b) => a.card_id.localeCompare(b.card_id)),
    );
  });

  it('flip is the default and answers as it always did, with the mode', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app, mixedCards.slice(8));
    const byDefault = await postQuiz(ctx.app, headers, { deck_id: deck._id });
    const asked = await postQuiz(ctx.app, headers, { deck_id: deck._id, mode: 'flip' });
    for (const response of [byDefault, asked]) {
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ mode: string; questions: unknown[]; cards: unknown[] }>();
      expect(body.mode).toBe('flip');
      expect(body.questions.length).toBeGreaterThan(0);
      expect(body.cards).toEqual(body.questions);
    }
  });

  it('refuses an unknown mode with 422', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app, 4);
    for (const mode of ['exam', '', 7, null, ['flip'], 'x'.repeat(10_000)]) {
      expectValidationError(
        await postQuiz(ctx.app, headers, { deck_id: deck._id, mode }),
        'mode',
        serverMessages.quizModeInvalid,
      );
    }
  });

  it('an empty deck is still empty_deck in every mode', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app, 0);
    for (const mode of ['multiple_choice', 'true_false', 'matching', 'written']) {
      expectError(await postQuiz(ctx.app, headers, { deck_id: deck._id, mode }), 422, 'empty_deck', messages.quizEmpty);
    }
  });
});

function postResults(app: FastifyInstance, headers: Headers | Record<string, never>, payload: unknown) {
  return app.inject({ method: 'POST', url: '/api/quiz/results', headers, payload: payload as object });
}

describe('POST /api/quiz/results', () => {
  it('scores the quiz and, when asked, makes the missed cards due now without logging a review', async () => {
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, 3);
    const [missed, known, alsoMissed] = cards.map((card) => card._id) as [string, string, string];
    // Two passes take each card into long-term review, due days from now.
    for (const id of [missed, known, alsoMissed]) {
      await reviewCard(ctx.app, headers, id, 'pass');
      await reviewCard(ctx.app, headers, id, 'pass');
    }
    const before = await rowById(ctx.database.db, 'cards', known);
    expect(before.due).toBeGreaterThan(ctx.clock.now());
    const logsBefore = await ctx.database.db
      .selectFrom('review_logs')
      .select('id')
      .where('deck_id', '=', deck._id)
      .execute();

    const answers = [
      { card_id: missed, correct: false },
      { card_id: known, correct: true },
      { card_id: alsoMissed, correct: false },
      { card_id: missed, correct: false },
    ];
    const scoreOnly = await postResults(ctx.app, headers, { deck_id: deck._id, answers });
    expect(scoreOnly.statusCode, scoreOnly.body).toBe(200);
    expect(scoreOnly.json()).toEqual({
      score: 1,
      total: 4,
      missed_card_ids: [missed, alsoMissed],
    } satisfies QuizResults);
    expect((await rowById(ctx.database.db, 'cards', missed)).due).toBeGreaterThan(ctx.clock.now());

    const sent = await postResults(ctx.app, headers, { deck_id: deck._id, answers, send_missed_to_review: true });
    expect(sent.json()).toEqual({ score: 1, total: 4, missed_card_ids: [missed, alsoMissed] });
    const now = ctx.clock.now();
    for (const id of [missed, alsoMissed]) {
      const row = await rowById(ctx.database.db, 'cards', id);
      expect(row.due).toBe(now);
      expect(row.state).toBe(before.state);
      expect(row.reps).toBe(2);
    }
    expect((await rowById(ctx.database.db, 'cards', known)).due).toBe(before.due);
    const logsAfter = await ctx.database.db
      .selectFrom('review_logs')
      .select('id')
      .where('deck_id', '=', deck._id)
      .execute();
    expect(logsAfter).toHaveLength(logsBefore.length);
    const due = await ctx.app.inject({ method: 'GET', url: `/cards/due?deck_id=${deck._id}`, headers });
    expect(
      due
        .json<Card[]>()
        .map((card) => card._id)
        .sort(),
    ).toEqual([missed, alsoMissed].sort());
  });

  it('answers 404 for someone else’s deck or a card that is not in the deck, and changes nothing', async () => {
    const mine = await learnerWithDeck(ctx.app, 2);
    const theirs = await learnerWithDeck(ctx.app, 1);
    const [myCard] = mine.cards.map((card) => card._id) as [string];
    const [theirCard] = theirs.cards.map((card) => card._id) as [string];
    // Reviewed into long-term review, so that sending it to review would move it.
    await reviewCard(ctx.app, mine.headers, myCard, 'pass');
    await reviewCard(ctx.app, mine.headers, myCard, 'pass');
    const before = await rowById(ctx.database.db, 'cards', myCard);
    expectError(
      await postResults(ctx.app, mine.headers, {
        deck_id: theirs.deck._id,
        answers: [{ card_id: theirCard, correct: false }],
      }),
      404,
      'deck_not_found',
      serverMessages.deckNotFound,
    );
    for (const cardId of [theirCard, 'aaaaaaaaaaaaaaaaaaaaaaaa', 'not-an-id']) {
      expectError(
        await postResults(ctx.app, mine.headers, {
          deck_id: mine.deck._id,
          answers: [
            { card_id: myCard, correct: false },
            { card_id: cardId, correct: false },
          ],
          send_missed_to_review: true,
        }),
        404,
        'card_not_found',
        messages.cardNotFound,
      );
    }
    expect(await rowById(ctx.database.db, 'cards', myCard)).toEqual(before);
  });

  it('refuses broken answers with 422', async () => {
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id as string;
    const broken: unknown[] = [
      [],
      'all right',
      [{ card_id: cardId }],
      [{ card_id: cardId, correct: 'yes' }],
      [{ card_id: '', correct: true }],
      [{ card_id: 'x'.repeat(10_000), correct: true }],
      Array.from({ length: 501 }, () => ({ card_id: cardId, correct: true })),
    ];
    for (const answers of broken) {
      const response = await postResults(ctx.app, headers, { deck_id: deck._id, answers });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'validation_failed', detail: serverMessages.quizAnswersInvalid });
    }
    expectValidationError(
      await postResults(ctx.app, headers, {
        deck_id: deck._id,
        answers: [{ card_id: cardId, correct: true }],
        send_missed_to_review: 'yes',
      }),
      'send_missed_to_review',
      serverMessages.quizSendMissedInvalid,
    );
    expectValidationError(
      await postResults(ctx.app, headers, { answers: [{ card_id: cardId, correct: true }] }),
      'deck_id',
      messages.selectDeck,
    );
    expectError(
      await postResults(ctx.app, headers, { deck_id: 'nope', answers: [{ card_id: cardId, correct: true }] }),
      422,
      'invalid_deck_id',
      serverMessages.invalidDeckIdServer,
    );
  });

  it('needs a signed-in user', async () => {
    const response = await postResults(ctx.app, {}, { deck_id: 'aaaaaaaaaaaaaaaaaaaaaaaa', answers: [] });
    expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
  });
});

describe('multipleChoice (the rule)', () => {
  it('draws distractors among the answers nearest in length, of the same kind', () => {
    // Answers of 1 to 40 words, and 40 years: a 10-word answer's distractors are within the 8 nearest lengths.
    const words = Array.from({ length: 40 }, (_, i) => ({
      id: `w${i}`,
      question: `Definition ${i}?`,
      answer: Array.from({ length: i + 1 }, (_, j) => `word${j}`).join(' '),
    }));
    const years = Array.from({ length: 40 }, (_, i) => ({
      id: `y${i}`,
      question: `Year ${i}?`,
      answer: String(1800 + i),
    }));
    let seed = 35;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const cards = [...words, ...years];
    for (let round = 0; round < 20; round++) {
      for (const question of multipleChoice(cards, 80, random)) {
        const card = cards.find((candidate) => candidate.id === question.card_id);
        if (!card) throw new Error('a question of no card');
        // The eighth smallest gap in length to another answer of the same kind: no distractor is further.
        const sameKind = (card.id.startsWith('y') ? years : words).filter((other) => other.id !== card.id);
        const gaps = sameKind.map((other) => Math.abs(other.answer.length - card.answer.length)).sort((a, b) => a - b);
        const eighth = gaps[7] as number;
        for (const option of question.options) {
          if (option === card.answer) continue;
          if (card.id.startsWith('y')) expect(option).toMatch(/^1[89]\d\d$/);
          else expect(option).toMatch(/^word0/);
          expect(Math.abs(option.length - card.answer.length)).toBeLessThanOrEqual(eighth);
        }
      }
    }
  });
});
