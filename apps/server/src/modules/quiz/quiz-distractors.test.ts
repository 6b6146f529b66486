import type { MultipleChoiceQuestion } from '@flashcards/shared/api-types';
import { describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../../test/support/factories';
import { type ChatRequest, completion, type FakeChatServer, sendJson } from '../../../test/support/fake-chat-server';
import { useFakeChatServer, useModelApp } from '../../../test/support/model-app';
import { insertDeck, postQuiz } from '../../../test/support/quiz';
import { answerKey } from './quiz-modes';

// Issue 35: with a model configured, multiple-choice distractors are written by the model (one request per quiz,
// bounded by QUIZ_DISTRACTORS_TIMEOUT); on failure, nonsense or past the deadline the deck's answers are used.

const capitals = [
  { question: 'Capital of France?', answer: 'Paris' },
  { question: 'Capital of Spain?', answer: 'Madrid' },
  { question: 'Capital of Italy?', answer: 'Rome' },
  { question: 'Capital of Portugal?', answer: 'Lisbon' },
  { question: 'Capital of Austria?', answer: 'Vienna' },
];
const deckAnswers = new Set(capitals.map((card) => card.answer));
const answerOf = new Map(capitals.map((card) => [card.question, card.answer]));

const fake = useFakeChatServer();
const ctx = useModelApp(fake, { QUIZ_DISTRACTORS_TIMEOUT: '2s', QUIZ_RATE_LIMIT_PER_HOUR: '100' });

/** The correct answers the prompt names, in its order. */
function answersAsked(request: ChatRequest): string[] {
  const prompt = request.body.messages.map((message) => message.content).join('\n');
  return [...prompt.matchAll(/Correct answer: (.*)/g)].map((match) => match[1] ?? '');
}

/** A reply writing `write(answer)` as the distractors of each question asked. */
function replyWith(write: (answer: string) => string[]) {
  return (request: ChatRequest, res: Parameters<FakeChatServer['handler']>[1]) =>
    sendJson(
      res,
      200,
      completion(JSON.stringify({ items: answersAsked(request).map((answer) => ({ distractors: write(answer) })) })),
    );
}

async function multipleChoiceQuiz(): Promise<MultipleChoiceQuestion[]> {
  const { user, headers } = await signUpAndLogIn(ctx.app);
  const deckId = await insertDeck(ctx, user._id, capitals);
  const response = await postQuiz(ctx.app, headers, { deck_id: deckId, mode: 'multiple_choice' });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ mode: string; questions: MultipleChoiceQuestion[] }>();
  expect(body.mode).toBe('multiple_choice');
  expect(body.questions).toHaveLength(capitals.length);
  for (const question of body.questions) {
    expect(question.options).toHaveLength(4);
    expect(new Set(question.options.map(answerKey)).size).toBe(4);
    expect(question.options[question.answer_index]).toBe(answerOf.get(question.question));
    expect(question.options.filter((option) => option === answerOf.get(question.question))).toHaveLength(1);
  }
  return body.questions;
}

describe('multiple choice with a model', () => {
  it('uses the wrong options the model wrote, asked once for the whole quiz with examples of the deck', async () => {
    fake.handler = replyWith((answer) => [`${answer}ville`, `North ${answer}`, `${answer} Heights`]);
    const questions = await multipleChoiceQuiz();
    for (const question of questions) {
      const answer = answerOf.get(question.question) ?? '';
      expect([...question.options].sort()).toEqual(
        [answer, `${answer}ville`, `North ${answer}`, `${answer} Heights`].sort(),
      );
    }
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0] as ChatRequest;
    expect(request.body.response_format?.json_schema?.name).toBe('distractors');
    expect(answersAsked(request).sort()).toEqual([...deckAnswers].sort());
    const prompt = request.body.messages.map((message) => message.content).join('\n');
    for (const card of capitals) expect(prompt).toContain(card.question);
    expect(prompt).toContain('Example answers of the deck');
  });

  it("keeps only usable written options and tops them up from the deck's answers", async () => {
    // The answer itself in other case and punctuation, a repeat, an empty one and one too long: one usable option.
    fake.handler = replyWith((answer) => [
      ` ${answer.toUpperCase()}!`,
      'Atlantis',
      'atlantis',
      '   ',
      'x'.repeat(2001),
    ]);
    const questions = await multipleChoiceQuiz();
    for (const question of questions) {
      const answer = answerOf.get(question.question) ?? '';
      const wrong = question.options.filter((option) => option !== answer);
      expect(wrong).toContain('Atlantis');
      const fromDeck = wrong.filter((option) => option !== 'Atlantis');
      expect(fromDeck).toHaveLength(2);
      for (const option of fromDeck) expect(deckAnswers.has(option)).toBe(true);
    }
  });

  it("falls back to the deck's answers when the model fails, replies nonsense or runs past its deadline", async () => {
    const handlers: FakeChatServer['handler'][] = [
      (_request, res) => sendJson(res, 500, { error: { message: 'down' } }),
      (_request, res) => sendJson(res, 200, completion('{"verdict":"maybe"}')),
      (_request, res) => sendJson(res, 200, completion('not json at all')),
      // Never answers: QUIZ_DISTRACTORS_TIMEOUT ends the wait.
      () => undefined,
    ];
    for (const handler of handlers) {
      fake.handler = handler;
      const questions = await multipleChoiceQuiz();
      for (const question of questions) {
        for (const option of question.options) expect(deckAnswers.has(option)).toBe(true);
      }
    }
    expect(fake.requests).toHaveLength(handlers.length);
  });
});
