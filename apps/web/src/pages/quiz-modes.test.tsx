import type { AnswerCheck, StudyQuiz } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeCall, type fakeServer, json } from '../../test/fake-server';
import { renderApp, signedInServer } from '../../test/render-app';

const deck = {
  _id: '65a1b2c3d4e5f6a7b8c9d0a1',
  name: 'Chemistry',
  daily_new_card_limit: 20,
  desired_retention: 0.9,
  card_count: 6,
  created_at: '',
};
const id = (n: number) => `c${n}aaaaaaaaaaaaaaaaaaaaaa`;
const multipleChoice: StudyQuiz = {
  mode: 'multiple_choice',
  questions: [
    { card_id: id(1), question: 'Symbol of sodium?', options: ['K', 'Na', 'S', 'So'], answer_index: 1 },
    { card_id: id(2), question: 'Symbol of iron?', options: ['Fe', 'Ir', 'In', 'F'], answer_index: 0 },
  ],
};
const trueFalse: StudyQuiz = {
  mode: 'true_false',
  questions: [
    { card_id: id(1), statement: 'Symbol of sodium? — Na', is_true: true },
    { card_id: id(2), statement: 'Symbol of iron? — Ir', is_true: false },
  ],
};
const matching: StudyQuiz = {
  mode: 'matching',
  questions: [
    {
      pairs: [
        { card_id: id(1), left: 'Sodium', right: 'Na' },
        { card_id: id(2), left: 'Iron', right: 'Fe' },
        { card_id: id(3), left: 'Gold', right: 'Au' },
      ],
    },
  ],
};
const written: StudyQuiz = { mode: 'written', questions: [{ card_id: id(1), question: 'Symbol of gold?' }] };
const closeCheck: AnswerCheck = {
  verdict: 'close',
  suggested_result: 'pass',
  expected: 'Aurum',
  typed: 'Arum',
  diff: [
    { op: 'equal', text: 'A' },
    { op: 'delete', text: 'u' },
    { op: 'equal', text: 'rum' },
  ],
};

type Routes = Parameters<typeof fakeServer>[0];
const bodies = (calls: FakeCall[], path: string) =>
  calls.filter((call) => call.path === path).map((call) => JSON.parse(call.body ?? 'null'));
const press = (key: string) => fireEvent.keyDown(document.body, { key });

async function startQuiz(mode: string, quiz: StudyQuiz | (() => Response), routes: Routes = {}) {
  const server = signedInServer({
    'GET /decks': () => json(200, [deck]),
    'POST /api/quiz/generate': typeof quiz === 'function' ? quiz : () => json(200, quiz),
    'POST /api/quiz/results': () => json(200, { score: 1, total: 2, missed_card_ids: [id(1)] }),
    ...routes,
  });
  renderApp('/quiz', server.fetch);
  // The first render loads the page's code, which a machine busy with other tests takes longer over.
  const select = await screen.findByLabelText('Deck', {}, { timeout: 50_000 });
  await waitFor(() => expect(select).toHaveValue(deck._id));
  fireEvent.change(screen.getByLabelText('Quiz type'), { target: { value: mode } });
  fireEvent.click(screen.getByRole('button', { name: 'Generate Quiz' }));
  return server.calls;
}

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  Reflect.deleteProperty(document, 'elementFromPoint');
});

describe('quiz modes', { timeout: 90_000 }, () => {
  it('multiple choice by keys: 1–4 pick, Enter goes on; the score, the missed card, and sending it to review', async () => {
    const calls = await startQuiz('multiple_choice', multipleChoice);
    expect(await screen.findByText('Symbol of sodium?')).toBeInTheDocument();
    expect(bodies(calls, '/api/quiz/generate')).toEqual([{ deck_id: deck._id, mode: 'multiple_choice' }]);
    expect(screen.getByText('Question 1 of 2')).toBeInTheDocument();
    press('3');
    expect(await screen.findByText('Not quite. The answer: Na')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^S.*\(your pick\)$/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Na.*\(the answer\)$/ })).toHaveAttribute('aria-pressed', 'false');
    // A second pick changes nothing; Next has the focus, so that Enter on it goes on too.
    press('2');
    expect(screen.getByRole('button', { name: /^S.*\(your pick\)$/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
    press('Enter');
    expect(await screen.findByText('Symbol of iron?')).toBeInTheDocument();
    press('1');
    expect(await screen.findByText('Right!')).toBeInTheDocument();
    press('Enter');

    expect(await screen.findByRole('heading', { name: 'You scored 1 of 2.' })).toBeInTheDocument();
    const missed = screen.getByRole('list', { name: 'Missed' });
    expect(
      within(missed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Symbol of sodium? — Na']);
    expect(bodies(calls, '/api/quiz/results')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Send the missed ones to review' }));
    expect(await screen.findByText(studyMessages.quizMissedSent)).toBeInTheDocument();
    expect(bodies(calls, '/api/quiz/results')).toEqual([
      {
        deck_id: deck._id,
        answers: [
          { card_id: id(1), correct: false },
          { card_id: id(2), correct: true },
        ],
        send_missed_to_review: true,
      },
    ]);
  });

  it('multiple choice by click; a failed send says so', async () => {
    await startQuiz('multiple_choice', multipleChoice, {
      'POST /api/quiz/results': () => json(500, { detail: serverMessages.internalError, code: 'internal_error' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'K' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Ir' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'You scored 0 of 2.' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send the missed ones to review' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(studyMessages.quizMissedSendFailed);
  });

  it("says the contract's text when the deck has too few cards", async () => {
    await startQuiz('matching', () => json(422, { detail: messages.notEnoughCards, code: 'not_enough_cards' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This quiz needs at least 4 cards with different answers in the deck.',
    );
  });

  it('true or false by keys; nothing missed says so and sends nothing', async () => {
    const calls = await startQuiz('true_false', trueFalse);
    expect(await screen.findByText('Symbol of sodium? — Na')).toBeInTheDocument();
    press('1');
    expect(await screen.findByText('Right!')).toBeInTheDocument();
    press('Enter');
    expect(await screen.findByText('Symbol of iron? — Ir')).toBeInTheDocument();
    press('f');
    press('Enter');
    expect(await screen.findByRole('heading', { name: 'You scored 2 of 2.' })).toBeInTheDocument();
    expect(screen.getByText(studyMessages.quizNoneMissed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send the missed ones to review' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'New quiz' }));
    expect(screen.queryByRole('heading', { name: /You scored/ })).toBeNull();
    expect(bodies(calls, '/api/quiz/results')).toEqual([]);
  });

  it('matching by click: a wrong pair is missed, the right ones are matched; a drag on touch matches too', async () => {
    const calls = await startQuiz('matching', matching);
    const questions = await screen.findByRole('list', { name: 'Questions' });
    const answers = screen.getByRole('list', { name: 'Answers' });
    // Sodium with Fe: not a pair, Sodium counts as missed.
    fireEvent.click(within(questions).getByRole('button', { name: 'Sodium' }));
    expect(within(questions).getByRole('button', { name: 'Sodium' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(within(answers).getByRole('button', { name: 'Fe' }));
    expect(await screen.findByText(studyMessages.quizMatchingMiss)).toBeInTheDocument();
    // Answer first, then question.
    fireEvent.click(within(answers).getByRole('button', { name: 'Na' }));
    fireEvent.click(within(questions).getByRole('button', { name: 'Sodium' }));
    expect(within(questions).getByRole('button', { name: 'Sodium: matched with Na' })).toBeDisabled();
    // Iron ← Fe by a touch drag: let go over Iron.
    const iron = within(questions).getByRole('button', { name: 'Iron' });
    const fe = within(answers).getByRole('button', { name: 'Fe' });
    // jsdom lays nothing out: what lies under the finger is said here.
    Object.defineProperty(document, 'elementFromPoint', { configurable: true, value: () => iron });
    fireEvent.pointerDown(fe, { pointerType: 'touch', pointerId: 1, clientX: 300, clientY: 100 });
    fireEvent.pointerMove(fe, { pointerType: 'touch', pointerId: 1, clientX: 200, clientY: 60 });
    fireEvent.pointerUp(fe, { pointerType: 'touch', pointerId: 1, clientX: 100, clientY: 50 });
    fireEvent.click(fe);
    expect(within(questions).getByRole('button', { name: 'Iron: matched with Fe' })).toBeInTheDocument();
    fireEvent.click(within(questions).getByRole('button', { name: 'Gold' }));
    fireEvent.click(within(answers).getByRole('button', { name: 'Au' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'You scored 2 of 3.' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send the missed ones to review' }));
    await waitFor(() => expect(bodies(calls, '/api/quiz/results')).toHaveLength(1));
    expect(bodies(calls, '/api/quiz/results')[0].answers).toEqual([
      { card_id: id(1), correct: false },
      { card_id: id(2), correct: true },
      { card_id: id(3), correct: true },
    ]);
  });

  it('written: the typed answer is checked by the server, its verdict and diff shown, Enter goes on', async () => {
    const calls = await startQuiz('written', written, {
      [`POST /cards/${id(1)}/check`]: () => json(200, closeCheck),
    });
    const field = await screen.findByLabelText('Your answer');
    fireEvent.change(field, { target: { value: 'Arum' } });
    fireEvent.submit(field);
    expect(await screen.findByText('Your answer: Close')).toBeInTheDocument();
    expect(document.querySelector('.answer-diff__text del')).toHaveTextContent('missing: u');
    expect(bodies(calls, `/cards/${id(1)}/check`)).toEqual([{ typed: 'Arum' }]);
    expect(screen.getByText('Right!')).toBeInTheDocument();
    press('Enter');
    expect(await screen.findByRole('heading', { name: 'You scored 1 of 1.' })).toBeInTheDocument();
  });
});
