import type { AnswerCheck } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type FakeCall, fakeServer, json } from '../../test/fake-server';
import { biologyDeck } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { dueCard as card, openReviewSession, reviewRoutes } from '../../test/review-session';
import { localStore } from '../lib/local-store';
import { storageKeys } from '../lib/storage-keys';

const deck = { ...biologyDeck, card_count: 2 };
const queue = [
  card('c1aaaaaaaaaaaaaaaaaaaaaa', 'Powerhouse of the cell?', 'mitochondria'),
  card('c2aaaaaaaaaaaaaaaaaaaaaa', 'Capital of France?', 'Paris'),
];
const closeCheck: AnswerCheck = {
  verdict: 'close',
  suggested_result: 'pass',
  expected: 'mitochondria',
  typed: 'mitocondria',
  diff: [
    { op: 'equal', text: 'mito' },
    { op: 'delete', text: 'h' },
    { op: 'equal', text: 'condria' },
  ],
};
const wrongCheck: AnswerCheck = {
  verdict: 'wrong',
  suggested_result: 'fail',
  expected: 'Paris',
  typed: 'Lyon',
  diff: [
    { op: 'delete', text: 'Paris' },
    { op: 'insert', text: 'Lyon' },
  ],
};

const bodyOf = (call: FakeCall | undefined) => JSON.parse(call?.body ?? 'null');
/** The bodies sent to `path`, an answer's `review_id` (a UUID, checked here) left out. */
const sent = (calls: FakeCall[], path: string) =>
  calls
    .filter((call) => call.path === path)
    .map(bodyOf)
    .map(({ review_id, ...body }: { review_id?: string; [field: string]: unknown }) => {
      if (path === '/cards/review') expect(review_id).toMatch(/^[0-9a-f-]{36}$/);
      return body;
    });

function start(checks: Record<string, () => Response>) {
  localStore.set(storageKeys.accessToken, 'token');
  const server = fakeServer({
    ...reviewRoutes(deck, queue),
    'POST /cards/review': (call) => json(200, { card: { ...queue[0], _id: bodyOf(call).card_id } }),
    ...Object.fromEntries(Object.entries(checks).map(([id, answer]) => [`POST /cards/${id}/check`, answer])),
  });
  renderApp('/review', server.fetch);
  return server.calls;
}

const openSession = () => openReviewSession(deck.name, 'Powerhouse of the cell?');

async function typeAndCheck(text: string) {
  const field = await screen.findByLabelText('Your answer');
  await waitFor(() => expect(field).toHaveFocus());
  fireEvent.change(field, { target: { value: text } });
  fireEvent.submit(field);
}

beforeEach(() => {
  localStorage.clear();
});

describe('review: typed answers', { timeout: 90_000 }, () => {
  it('asks for the answer before the flip, shows the verdict and the diff, and sends typed and verdict with the grade the learner chose', async () => {
    const calls = start({
      c1aaaaaaaaaaaaaaaaaaaaaa: () => json(200, closeCheck),
      c2aaaaaaaaaaaaaaaaaaaaaa: () => json(200, wrongCheck),
    });
    await openSession();
    expect(screen.queryByLabelText('Your answer')).toBeNull();
    fireEvent.click(screen.getByLabelText('Type the answer'));
    expect(localStore.get(storageKeys.typeAnswers)).toBe('on');
    await typeAndCheck('mitocondria');

    expect(await screen.findByText('Your answer: Close')).toBeInTheDocument();
    expect(sent(calls, '/cards/c1aaaaaaaaaaaaaaaaaaaaaa/check')).toEqual([{ typed: 'mitocondria' }]);
    // The answer side shows, the missing letter is struck through and named for screen readers.
    expect(within(screen.getByTestId('swipe-card')).getByText('mitochondria')).toBeInTheDocument();
    const missing = document.querySelector('.answer-diff__text del');
    expect(missing).toHaveTextContent('missing: h');
    expect(screen.getByText(studyMessages.diffLegend)).toBeInTheDocument();
    // Know it is suggested (described by the suggestion); the learner overrules it with A.
    const pass = screen.getByRole('button', { name: /^Know it/ });
    expect(pass).toHaveAccessibleDescription('Suggested: Know it. Press Enter to take it, or choose the other answer.');
    expect(screen.getByRole('button', { name: /^Don't know/ })).not.toHaveAccessibleDescription();
    fireEvent.keyDown(document.body, { key: 'a' });

    // The next card asks again; a wrong answer suggests Don't know, and Enter takes the suggestion.
    await screen.findByText('Capital of France?');
    await typeAndCheck('Lyon');
    expect(await screen.findByText('Your answer: Wrong')).toBeInTheDocument();
    expect(document.querySelector('.answer-diff__text ins')).toHaveTextContent('extra: Lyon');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Enter' });
    await waitFor(() => expect(sent(calls, '/cards/review')).toHaveLength(2));
    expect(sent(calls, '/cards/review')).toEqual([
      { card_id: 'c1aaaaaaaaaaaaaaaaaaaaaa', result: 'fail', typed: 'mitocondria', verdict: 'close' },
      { card_id: 'c2aaaaaaaaaaaaaaaaaaaaaa', result: 'fail', typed: 'Lyon', verdict: 'wrong' },
    ]);
  });

  it('keeps the toggle for the next session; a card flipped without typing is graded without a verdict', async () => {
    localStore.set(storageKeys.typeAnswers, 'on');
    const calls = start({});
    await openSession();
    expect(screen.getByLabelText('Type the answer')).toBeChecked();
    await screen.findByLabelText('Your answer');
    fireEvent.click(screen.getByRole('button', { name: 'Show answer' }));
    expect(screen.queryByLabelText('Your answer')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Know it/ }));
    await waitFor(() => expect(sent(calls, '/cards/review')).toHaveLength(1));
    expect(sent(calls, '/cards/review')).toEqual([{ card_id: 'c1aaaaaaaaaaaaaaaaaaaaaa', result: 'pass' }]);
  });

  it('says when the answer cannot be checked, shows the answer and leaves the grade to the learner', async () => {
    localStore.set(storageKeys.typeAnswers, 'on');
    const calls = start({
      c1aaaaaaaaaaaaaaaaaaaaaa: () => json(500, { detail: serverMessages.internalError, code: 'internal_error' }),
    });
    await openSession();
    await typeAndCheck('mito');
    expect(await screen.findByRole('alert')).toHaveTextContent(studyMessages.typedAnswerCheckFailed);
    expect(within(screen.getByTestId('swipe-card')).getByText('mitochondria')).toBeInTheDocument();
    // Without a verdict, Enter suggests nothing: only the grades answer.
    fireEvent.keyDown(document.body, { key: 'Enter' });
    fireEvent.keyDown(document.body, { key: 'd' });
    await waitFor(() => expect(sent(calls, '/cards/review')).toHaveLength(1));
    expect(sent(calls, '/cards/review')).toEqual([{ card_id: 'c1aaaaaaaaaaaaaaaaaaaaaa', result: 'pass' }]);
  });
});
