import type { Card, Deck, DeckStats, DueCard } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, fakeServer, json, never } from '../../test/fake-server';
import { biologyDeck } from '../../test/fixtures';
import { giveEveryElementASize } from '../../test/lay-out';
import { renderApp, testUser } from '../../test/render-app';
import { defaultBackoffMs } from '../features/review/answer-queue';
import { answerAnimationMs } from '../features/review/review-session';
import { swipeThresholdPx } from '../features/review/swipe-card';
import { copiedNoticeMs } from '../features/share/share-modal';
import { localStore } from '../lib/local-store';
import { clearDevice, waitingAnswers } from '../lib/offline-store';
import { storageKeys } from '../lib/storage-keys';

const deckId = biologyDeck._id;
const deck: Deck = { ...biologyDeck, name: '<b>Biology</b>', card_count: 3 };
const past = new Date(Date.now() - 3_600_000).toISOString();
const MINUTE = 60_000;
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * MINUTE).toISOString();
const card = (
  id: string,
  status: Card['status'],
  question: string,
  answer: string,
  next: { pass: number; fail: number },
): DueCard => ({
  _id: id,
  deck_id: deckId,
  question,
  answer,
  status,
  due_date: past,
  created_at: past,
  reps: 0,
  lapses: 0,
  note_id: id,
  card_type: 'basic',
  ord: 0,
  source: null,
  next_due: { pass: inMinutes(next.pass), fail: inMinutes(next.fail) },
  last_review: null,
  memory: { stability: 0, difficulty: 0, scheduled_days: 0, learning_steps: 0 },
});
// What a pass and a fail would do to each (in minutes): graduate for 2 days, relearn in 10 minutes, learn in 1.
const queue = [
  card('c1aaaaaaaaaaaaaaaaaaaaaa', 'learning', 'Question one', 'Answer one', { pass: 2 * 1440, fail: 10 }),
  card('c2aaaaaaaaaaaaaaaaaaaaaa', 'due', 'Question two', 'Answer two', { pass: 5 * 1440, fail: 10 }),
  card('c3aaaaaaaaaaaaaaaaaaaaaa', 'new', 'Question three', 'Answer three', { pass: 10, fail: 1 }),
];
/** POST /cards/review's reply: the card in a learning step of 10 minutes, graduating for 3 days with a pass. */
const replyFor = (id: string): DueCard => ({
  ...(queue.find((item) => item._id === id) ?? (queue[0] as DueCard)),
  status: 'learning',
  due_date: inMinutes(10),
  next_due: { pass: inMinutes(3 * 1440), fail: inMinutes(1) },
});
const stats = (overrides: Partial<DeckStats> = {}): DeckStats => ({
  total_cards: 3,
  new_cards: 1,
  learning_cards: 1,
  due_cards: 1,
  cards_reviewed_today: 0,
  next_due_time: null,
  ...overrides,
});

type Routes = Parameters<typeof fakeServer>[0];

function start(routes: Routes = {}) {
  localStore.set(storageKeys.accessToken, 'token');
  const server = fakeServer({
    'GET /users/me': () => json(200, testUser),
    'GET /decks': () => json(200, [deck]),
    'GET /decks/stats': () => json(200, stats()),
    [`GET /decks/${deckId}/stats`]: () => json(200, stats()),
    'GET /cards/due': () => json(200, queue),
    'POST /cards/review': (call) => json(200, { card: replyFor(bodyOf(call).card_id) }),
    ...routes,
  });
  const view = renderApp('/review', server.fetch);
  return { ...view, calls: server.calls, urls: server.urls };
}

const bodyOf = (call: FakeCall | undefined) => JSON.parse(call?.body ?? 'null');
const answerCalls = (calls: FakeCall[]) => calls.filter((call) => call.path === '/cards/review').map(bodyOf);
/** The answers sent, each without its `review_id` (a UUID, checked here; reviewIds gives them). */
const reviews = (calls: FakeCall[]) =>
  answerCalls(calls).map(({ review_id, ...answer }: { review_id: string; [field: string]: unknown }) => {
    expect(review_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    return answer;
  });
const reviewIds = (calls: FakeCall[]) => answerCalls(calls).map((body: { review_id: string }) => body.review_id);
const deckButton = (name: string) => screen.findByRole('button', { name: `${name}: ${deck.name}` });
const press = (key: string) => fireEvent.keyDown(document.body, { key, code: key === ' ' ? 'Space' : `Key${key}` });
const advance = (ms: number) => act(async () => vi.advanceTimersByTime(ms));

/** A route that answers `first` (a failure with the server's detail) until `failBare()`, then a 500 without one. */
function detailThenBare(first: Response) {
  let bare = false;
  return {
    answer: () => (bare ? new Response(null, { status: 500 }) : first),
    failBare: () => {
      bare = true;
    },
  };
}

/** The dialog's alert shows the server's `detail`; once the route fails bare, `retry` brings the screen's `fallback`. */
async function expectDetailThenFallback(
  dialog: HTMLElement,
  route: ReturnType<typeof detailThenBare>,
  retry: string,
  texts: { detail: string; fallback: string },
) {
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(texts.detail);
  route.failBare();
  fireEvent.click(within(dialog).getByRole('button', { name: retry }));
  await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent(texts.fallback));
}

async function startSession(routes: Routes = {}) {
  const app = start(routes);
  fireEvent.click(await deckButton('Review Deck'));
  await screen.findByText('Question one');
  return app;
}

beforeEach(() => {
  vi.useRealTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('review page: deck list', () => {
  it('lists the decks with the name as text, the totals over all decks and each deck action', async () => {
    start();
    expect(await screen.findByRole('heading', { name: '<b>Biology</b>', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('3 cards · 20 new a day')).toBeInTheDocument();
    for (const name of ['Review Deck', 'Settings', 'Share', 'Delete']) {
      expect(await deckButton(name)).toBeInTheDocument();
    }
    const overview = await screen.findByRole('region', { name: 'All decks' });
    expect(within(overview).getByText('Due now').nextSibling).toHaveTextContent('1');
    expect(document.querySelector('b')).toBeNull();
  });

  it("says 'Failed to load decks. Please try again later.' when the list fails", async () => {
    start({ 'GET /decks': () => json(500, { detail: serverMessages.internalError, code: 'internal_error' }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load decks. Please try again later.');
  });

  it('creates a deck; an empty name is refused without a request; a failure has its message', async () => {
    let answer = json(201, { ...deck, _id: '65a1b2c3d4e5f6a7b8c9d0bb', name: 'Chemistry', card_count: 0 });
    const { calls } = start({ 'POST /decks': () => answer });
    await deckButton('Review Deck');
    fireEvent.change(screen.getByLabelText('New deck name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Deck' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Deck name cannot be empty');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('New deck name'), { target: { value: ' Chemistry ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Deck' }));
    await waitFor(() => expect(screen.getByLabelText('New deck name')).toHaveValue(''));
    const post = calls.find((call) => call.method === 'POST' && call.path === '/decks');
    expect(new URLSearchParams(post?.body ?? '').get('deck_name')).toBe('Chemistry');
    expect(screen.queryByRole('alert')).toBeNull();

    answer = json(500, { detail: serverMessages.internalError, code: 'internal_error' });
    fireEvent.change(screen.getByLabelText('New deck name'), { target: { value: 'Physics' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Deck' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create deck. Please try again.');
  });

  it('deletes a deck after confirmation; Cancel sends nothing; a failure has its message', async () => {
    let answer = new Response(null, { status: 500 });
    const { calls } = start({ [`DELETE /decks/${deckId}`]: () => answer });
    fireEvent.click(await deckButton('Delete'));
    let dialog = screen.getByRole('dialog', { name: 'Delete deck' });
    expect(dialog).toHaveTextContent('Delete the deck "<b>Biology</b>" and its 3 cards? This cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);

    fireEvent.click(await deckButton('Delete'));
    dialog = screen.getByRole('dialog', { name: 'Delete deck' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete deck' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to delete deck. Please try again.');

    answer = new Response(null, { status: 204 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete deck' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.method === 'DELETE' && call.path === `/decks/${deckId}`)).toHaveLength(2);
  });
});

describe('review page: a review session', () => {
  it('asks for the deck queue and shows the session counts, the progress dial and the first question', async () => {
    const { urls } = await startSession();
    expect(urls.some((url) => url.endsWith(`/cards/due?deck_id=${deckId}`))).toBe(true);
    const counts = document.querySelector('dl.session-counts');
    expect(counts).toHaveAttribute('aria-label', 'Cards left in this session');
    const value = (label: string) => within(counts as HTMLElement).getByText(label).nextSibling?.textContent;
    expect([value('New'), value('Learning'), value('Due')]).toEqual(['1', '1', '1']);
    const dial = screen.getByRole('progressbar', { name: 'Review progress' });
    expect(dial).toHaveAttribute('aria-valuenow', '0');
    expect(dial).toHaveAttribute('aria-valuemax', '3');
    expect(screen.getByRole('heading', { name: '<b>Biology</b>', level: 2 })).toBeInTheDocument();
  });

  it('shows the answer below the question with Space and the card; the grades say when the card comes back', async () => {
    await startSession();
    expect(screen.getByRole('button', { name: "Don't know · 10 min" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Know it · 2 d' })).toBeInTheDocument();
    press(' ');
    const card = screen.getByTestId('swipe-card');
    expect(within(card).getByText('Question one')).toBeInTheDocument();
    expect(within(card).getByText('Answer one')).toBeInTheDocument();
    expect(within(card).getByText('Question').compareDocumentPosition(within(card).getByText('Answer'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(screen.getByRole('button', { name: 'Hide answer' })).toBeInTheDocument();
    fireEvent.click(card);
    expect(screen.queryByText('Answer one')).toBeNull();
    expect(screen.getByText('Question one')).toBeInTheDocument();
  });

  it('shows the next question at once while the answered card flies off over it; the answer follows in the background', async () => {
    const { calls } = await startSession();
    vi.useFakeTimers({ shouldAdvanceTime: false });
    press('d');
    // The next card is on screen already, beneath the departing one.
    expect(screen.getByTestId('swipe-card')).toHaveTextContent('Question two');
    const leaving = document.querySelector('.swipe-card--leaving-pass');
    expect(leaving).toHaveTextContent('Question one');
    expect(leaving).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
    await advance(0);
    expect(reviews(calls)).toEqual([{ card_id: queue[0]?._id, result: 'pass' }]);
    await advance(answerAnimationMs);
    expect(document.querySelector('.swipe-card--leaving')).toBeNull();

    press('A');
    expect(screen.getByTestId('swipe-card')).toHaveTextContent('Question three');
    expect(document.querySelector('.swipe-card--leaving-fail')).toHaveTextContent('Question two');
    await advance(0);
    expect(reviews(calls)[1]).toEqual({ card_id: queue[1]?._id, result: 'fail' });
    expect(answerAnimationMs).toBe(300);
  });

  it('brings a failed card back within the session and ends only when nothing is due within the learn-ahead', async () => {
    let reviewedToday = 0;
    const { calls } = await startSession({
      [`GET /decks/${deckId}/stats`]: () =>
        json(
          200,
          stats({
            cards_reviewed_today: reviewedToday,
            next_due_time: new Date(Date.now() + 90 * 60_000).toISOString(),
          }),
        ),
      'POST /cards/review': (call) => {
        reviewedToday++;
        return json(200, { card: replyFor(bodyOf(call).card_id) });
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show answer' }));
    expect(screen.getByText('Answer one')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Know it · 2 d' }));
    await screen.findByText('Question two');
    fireEvent.click(screen.getByRole('button', { name: "Don't know · 10 min" }));
    await screen.findByText('Question three');
    fireEvent.click(screen.getByRole('button', { name: 'Know it · 10 min' }));
    // Nothing else left: the failed card, due in 10 minutes, is within the 20-minute learn-ahead and comes back,
    // its grades from the server's reply to its answer.
    expect(await screen.findByText('Question two')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Know it · 3 d' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Review completed!' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Know it · 3 d' }));
    expect(await screen.findByText('Question three')).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Know it · 3 d' }));

    expect(await screen.findByRole('heading', { name: 'Review completed!' })).toBeInTheDocument();
    await waitFor(() =>
      expect(reviews(calls).map((body) => body.result)).toEqual(['pass', 'fail', 'pass', 'pass', 'pass']),
    );
    expect(reviews(calls).map((body) => body.card_id)).toEqual([
      queue[0]?._id,
      queue[1]?._id,
      queue[2]?._id,
      queue[1]?._id,
      queue[2]?._id,
    ]);
    expect(await screen.findByText('Cards reviewed today: 5')).toBeInTheDocument();
    // The statistics are fetched once the answers are in, not again and again.
    const statsCalls = () => calls.filter((call) => call.path === `/decks/${deckId}/stats`).length;
    const settled = statsCalls();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(statsCalls()).toBe(settled);
    expect(screen.getByText('Next cards available in 2 hours.')).toBeInTheDocument();
    const stat = (label: string) => screen.getByText(label).nextSibling?.textContent;
    expect([stat('Reviewed'), stat('Knew'), stat("Didn't know")]).toEqual(['5', '4', '1']);

    const queueCalls = calls.filter((call) => call.path === '/cards/due').length;
    fireEvent.click(screen.getByRole('button', { name: 'Start New Review' }));
    expect(await screen.findByText('Question one')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/cards/due')).toHaveLength(queueCalls + 1);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  });

  it('says when a card comes back beyond the learn-ahead, and Keep going shows it at once', async () => {
    const far = { ...queue[2], next_due: { pass: inMinutes(60), fail: inMinutes(30) } } as DueCard;
    const { calls } = await startSession({ 'GET /cards/due': () => json(200, [{ ...far, question: 'Question one' }]) });
    fireEvent.click(screen.getByRole('button', { name: "Don't know · 30 min" }));
    expect(
      await screen.findByText('Nothing else is due now. 1 card of this session comes back in 30 minutes.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Review completed!' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Keep going' }));
    expect(await screen.findByText('Question one')).toBeInTheDocument();
    await waitFor(() => expect(reviews(calls)).toHaveLength(1));
  });

  it('a swipe beyond 100 px answers (right passes, left fails), labelled while dragging; a shorter one snaps back', async () => {
    const { calls } = await startSession();
    const target = () => screen.getByTestId('swipe-card');
    const drag = (dx: number) => {
      fireEvent.pointerDown(target(), { clientX: 200, pointerId: 1, button: 0, pointerType: 'touch' });
      fireEvent.pointerMove(target(), { clientX: 200 + dx / 2, pointerId: 1, pointerType: 'touch' });
      fireEvent.pointerMove(target(), { clientX: 200 + dx, pointerId: 1, pointerType: 'touch' });
    };
    const release = (dx: number) => {
      const card = target();
      fireEvent.pointerUp(card, { clientX: 200 + dx, pointerId: 1, pointerType: 'touch' });
      fireEvent.click(card);
    };
    drag(60);
    expect(target().querySelector('.swipe-card__direction--pass')).toHaveTextContent('Know it');
    expect(target()).not.toHaveClass('swipe-card--hint-pass');
    release(60);
    expect(target().querySelector('.swipe-card__direction')).toBeNull();
    expect(target().getAttribute('style') ?? '').not.toContain('translateX');
    expect(screen.getByText('Question one')).toBeInTheDocument();

    drag(-(swipeThresholdPx - 20));
    expect(target().querySelector('.swipe-card__direction--fail')).toHaveTextContent("Don't know");
    release(-(swipeThresholdPx - 20));
    drag(swipeThresholdPx);
    release(swipeThresholdPx);
    expect(screen.getByText('Question one')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reviews(calls)).toEqual([]);

    drag(swipeThresholdPx + 1);
    expect(target()).toHaveClass('swipe-card--hint-pass');
    release(swipeThresholdPx + 1);
    expect(target()).toHaveTextContent('Question two');
    expect(document.querySelector('.swipe-card--leaving-pass')).toHaveTextContent('Question one');
    await waitFor(() => expect(reviews(calls)).toEqual([{ card_id: queue[0]?._id, result: 'pass' }]));

    drag(-150);
    release(-150);
    expect(target()).toHaveTextContent('Question three');
    await waitFor(() => expect(reviews(calls)[1]).toEqual({ card_id: queue[1]?._id, result: 'fail' }));
    expect(swipeThresholdPx).toBe(100);
  });

  it("with nothing due says 'No cards to review!' and when the next card comes", async () => {
    start({
      'GET /cards/due': () => json(200, []),
      [`GET /decks/${deckId}/stats`]: () =>
        json(200, stats({ next_due_time: new Date(Date.now() + 90 * 60_000).toISOString() })),
    });
    fireEvent.click(await deckButton('Review Deck'));
    expect(await screen.findByRole('heading', { name: 'No cards to review!' })).toBeInTheDocument();
    expect(await screen.findByText('Next cards available in 2 hours.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Decks' }));
    expect(await deckButton('Review Deck')).toBeInTheDocument();
  });

  it("says 'very soon' when the next card is due within a minute", async () => {
    start({
      'GET /cards/due': () => json(200, []),
      [`GET /decks/${deckId}/stats`]: () =>
        json(200, stats({ next_due_time: new Date(Date.now() + 30_000).toISOString() })),
    });
    fireEvent.click(await deckButton('Review Deck'));
    expect(await screen.findByText('Next cards available very soon.')).toBeInTheDocument();
  });

  it('reviews every deck with Review All Decks (no deck_id)', async () => {
    const { urls } = start({ 'GET /cards/due': () => json(200, []) });
    fireEvent.click(await screen.findByRole('button', { name: 'Review All Decks' }));
    expect(await screen.findByRole('heading', { name: 'No cards to review!' })).toBeInTheDocument();
    expect(urls.filter((url) => url.includes('/cards/due')).every((url) => url.endsWith('/cards/due'))).toBe(true);
    expect(screen.getByRole('heading', { name: 'All decks', level: 2 })).toBeInTheDocument();
  });

  it("says 'Failed to load cards for review. Please try again later.' when the queue fails", async () => {
    start({ 'GET /cards/due': () => json(500, { detail: serverMessages.internalError, code: 'internal_error' }) });
    fireEvent.click(await deckButton('Review Deck'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load cards for review. Please try again later.',
    );
  });

  it('keeps an answer the server cannot take: retries with pauses, then says so; Retry saving sends it, in order', async () => {
    let answer = () => json(503, { detail: serverMessages.internalError, code: 'internal_error' });
    const { calls } = await startSession({ 'POST /cards/review': () => answer() });
    vi.useFakeTimers({ shouldAdvanceTime: false });
    press('d');
    press('a');
    // The session goes on while the first answer waits.
    expect(screen.getByTestId('swipe-card')).toHaveTextContent('Question three');
    await advance(0);
    for (const pause of defaultBackoffMs) {
      expect(screen.queryByRole('alert')).toBeNull();
      await advance(pause);
    }
    expect(screen.getByRole('alert')).toHaveTextContent(messages.reviewAnswersNotSaved);
    // Five tries of the first answer (one and four more after the pauses); the second waits behind it.
    expect(reviews(calls)).toEqual(Array(5).fill({ card_id: queue[0]?._id, result: 'pass' }));
    // Each try carries the answer's one id, so that the server records it once whichever try reached it.
    expect(new Set(reviewIds(calls)).size).toBe(1);
    vi.useRealTimers();

    answer = () => json(200, { card: replyFor(queue[0]?._id ?? '') });
    fireEvent.click(screen.getByRole('button', { name: messages.reviewRetrySaving }));
    await waitFor(() => expect(reviews(calls)).toHaveLength(7));
    expect(reviews(calls).slice(5)).toEqual([
      { card_id: queue[0]?._id, result: 'pass' },
      { card_id: queue[1]?._id, result: 'fail' },
    ]);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByTestId('swipe-card')).toHaveTextContent('Question three');
  });

  it('keeps answers on the device when the server is unreachable, and takes them back there without a request', async () => {
    await clearDevice();
    let answer = (): Promise<Response> => Promise.reject(new TypeError('Failed to fetch'));
    const { calls } = await startSession({ 'POST /cards/review': () => answer() });
    press('d');
    press('d');
    // No network: each answer is tried once, then waits on the device for POST /reviews/sync, with no alert.
    await waitFor(async () => expect(await waitingAnswers()).toHaveLength(2));
    expect(reviews(calls)).toHaveLength(2);
    expect((await waitingAnswers()).map((review) => review.card_id)).toEqual([queue[0]?._id, queue[1]?._id]);
    expect(screen.queryByRole('alert')).toBeNull();
    answer = () => Promise.resolve(json(200, { card: replyFor(queue[0]?._id ?? '') }));
    // Undo the second answer, then the first: both leave the device's queue, and the server is not asked.
    press('u');
    expect(screen.getByTestId('swipe-card')).toHaveTextContent('Question two');
    press('u');
    expect(screen.getByTestId('swipe-card')).toHaveTextContent('Question one');
    await waitFor(async () => expect(await waitingAnswers()).toEqual([]));
    expect(calls.filter((call) => call.path.endsWith('/undo-review'))).toEqual([]);
    // Answered again with the server back, it is sent.
    press('a');
    await waitFor(() => expect(reviews(calls)).toHaveLength(3));
    expect(reviews(calls)[2]).toMatchObject({ card_id: queue[0]?._id });
    await clearDevice();
  });

  it('offline, schedules each answer on the device: a failed new card comes back at its learning steps', {
    timeout: 20_000,
  }, async () => {
    await clearDevice();
    const { calls } = await startSession({
      'POST /cards/review': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    press('d');
    press('d');
    await screen.findByText('Question three');
    fireEvent.click(screen.getByRole('button', { name: "Don't know · 1 min" }));
    // Nothing else left: the new card failed with no network is in its first learning step (1 minute), within the
    // learn-ahead, and its grades are the ones the device computed with the server's parameters.
    expect(await screen.findByRole('button', { name: 'Know it · 10 min' })).toBeInTheDocument();
    expect(screen.getByTestId('swipe-card')).toHaveTextContent('Question three');
    fireEvent.click(screen.getByRole('button', { name: "Don't know · 1 min" }));
    fireEvent.click(await screen.findByRole('button', { name: 'Know it · 10 min' }));
    // The second step passed: it graduates with the next pass (FSRS's first interval for a card failed twice).
    expect(await screen.findByRole('button', { name: 'Know it · 1 d' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Know it · 1 d' }));
    expect(await screen.findByRole('heading', { name: 'Review completed!' })).toBeInTheDocument();
    await waitFor(async () => expect(await waitingAnswers()).toHaveLength(6));
    const kept = await waitingAnswers();
    expect(kept.map((review) => [review.card_id, review.result])).toEqual([
      [queue[0]?._id, 'pass'],
      [queue[1]?._id, 'pass'],
      [queue[2]?._id, 'fail'],
      [queue[2]?._id, 'fail'],
      [queue[2]?._id, 'pass'],
      [queue[2]?._id, 'pass'],
    ]);
    // Each later answer of the card is based on the one before it, as the sync expects.
    expect(kept.slice(3).map((review) => review.base)).toEqual(kept.slice(2, 5).map((review) => review.reviewed_at));
    expect(reviews(calls)).toHaveLength(6);
    expect(screen.queryByRole('alert')).toBeNull();
    await clearDevice();
  });

  it("says 'Card ID is missing' for a card without an id, and sends nothing", async () => {
    const { calls } = start({ 'GET /cards/due': () => json(200, [{ ...queue[0], _id: '' }]) });
    fireEvent.click(await deckButton('Review Deck'));
    await screen.findByText('Question one');
    press('a');
    expect(await screen.findByRole('alert')).toHaveTextContent('Card ID is missing');
    expect(reviews(calls)).toEqual([]);
  });

  it('answers each card once, in order, however fast the keys come', async () => {
    const { calls } = await startSession();
    press('d');
    press('a');
    press('d');
    expect(await screen.findByText('Question two')).toBeInTheDocument();
    await waitFor(() => expect(reviews(calls)).toHaveLength(3));
    expect(reviews(calls)).toEqual([
      { card_id: queue[0]?._id, result: 'pass' },
      { card_id: queue[1]?._id, result: 'fail' },
      { card_id: queue[2]?._id, result: 'pass' },
    ]);
  });

  it('leaves the keys to a dialog opened over the session', async () => {
    const { calls } = await startSession();
    expect(screen.getByRole('heading', { name: '<b>Biology</b>', level: 2 })).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'Feedback' }));
    expect(screen.getByRole('dialog', { name: 'Send feedback' })).toBeInTheDocument();
    press('d');
    press(' ');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reviews(calls)).toEqual([]);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    press(' ');
    expect(screen.getByText('Answer one')).toBeInTheDocument();
  });

  it('leaves keys typed into a field alone', async () => {
    const { calls } = await startSession();
    const input = document.createElement('input');
    document.body.append(input);
    fireEvent.keyDown(input, { key: 'd' });
    fireEvent.keyDown(input, { key: ' ' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reviews(calls)).toEqual([]);
    expect(screen.getByText('Question one')).toBeInTheDocument();
    input.remove();
  });
});

describe('review page: deck settings', () => {
  beforeEach(giveEveryElementASize);
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function openSettings(routes: Routes = {}) {
    const app = start(routes);
    fireEvent.click(await deckButton('Settings'));
    const dialog = screen.getByRole('dialog', { name: 'Deck settings: <b>Biology</b>' });
    return { ...app, dialog };
  }
  const puts = (calls: FakeCall[]) =>
    calls.filter((call) => call.method === 'PUT' && call.path === `/decks/${deckId}/settings`).map(bodyOf);

  it('shows the limit and the deck stats; saves whole numbers, turning anything else into 0', async () => {
    const { calls, dialog } = await openSettings({
      [`PUT /decks/${deckId}/settings`]: (call) => json(200, bodyOf(call)),
      [`GET /decks/${deckId}/stats`]: () => json(200, stats({ total_cards: 3, cards_reviewed_today: 5 })),
    });
    const input = within(dialog).getByLabelText('Daily new card limit');
    expect(input).toHaveValue('20');
    expect((await within(dialog).findByText('Reviewed today')).nextSibling).toHaveTextContent('5');
    expect(within(dialog).getByText('Total cards').nextSibling).toHaveTextContent('3');

    for (const [typed, sent] of [
      ['abc', 0],
      ['-4', 0],
      ['12', 12],
    ] as const) {
      fireEvent.change(input, { target: { value: typed } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByRole('status')).toHaveTextContent('Deck settings saved.');
      expect(input).toHaveValue(String(sent));
      expect(puts(calls).at(-1)).toEqual({ daily_new_card_limit: sent, desired_retention: 0.9 });
    }
  });

  it('saves the desired retention as a share (70 to 97 %) and links to the deck’s statistics', async () => {
    const { calls, dialog } = await openSettings({
      [`PUT /decks/${deckId}/settings`]: (call) => json(200, bodyOf(call)),
      [`GET /decks/${deckId}/stats`]: () => json(200, stats({ total_cards: 3 })),
    });
    const input = within(dialog).getByLabelText('Desired retention (%)');
    expect(input).toHaveValue('90');
    for (const [typed, sent] of [
      ['85', 0.85],
      ['97 %', 0.97],
      ['70', 0.7],
    ] as const) {
      fireEvent.change(input, { target: { value: typed } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByRole('status')).toHaveTextContent('Deck settings saved.');
      expect(puts(calls).at(-1)).toEqual({ daily_new_card_limit: 20, desired_retention: sent });
    }
    // Out of range or not a whole number: refused with the rule, nothing sent, the text left as typed to fix.
    const sentBefore = puts(calls).length;
    for (const typed of ['99', '50', 'abc', '85.5', '']) {
      fireEvent.change(input, { target: { value: typed } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'Desired retention must be a whole number from 70 to 97.',
      );
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(input).toHaveValue(typed);
      expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
    }
    expect(puts(calls)).toHaveLength(sentBefore);
    expect(within(dialog).getByRole('link', { name: /^Statistics/ })).toHaveAttribute(
      'href',
      `/stats?deck_id=${deckId}`,
    );
  });

  it("prefers the server's detail when saving fails, else 'Failed to save daily limit. Please try again.'", async () => {
    const route = detailThenBare(json(422, { detail: serverMessages.dailyLimitInvalid, code: 'validation_failed' }));
    const { dialog } = await openSettings({ [`PUT /decks/${deckId}/settings`]: route.answer });
    const input = within(dialog).getByLabelText('Daily new card limit');
    fireEvent.change(input, { target: { value: '100000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expectDetailThenFallback(dialog, route, 'Save', {
      detail: serverMessages.dailyLimitInvalid,
      fallback: 'Failed to save daily limit. Please try again.',
    });
  });

  it('lists the cards, edits one (both sides required) and reports a failed update', async () => {
    let answer: () => Response = () => json(500, { detail: serverMessages.internalError, code: 'internal_error' });
    const { calls, dialog } = await openSettings({
      [`GET /decks/${deckId}/cards`]: () => json(200, { cards: queue, next_cursor: null }),
      [`PUT /cards/${queue[0]?._id}`]: () => answer(),
    });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Cards' }));
    expect(within(dialog).getByRole('tab', { name: 'Cards' })).toHaveAttribute('aria-selected', 'true');
    expect(await within(dialog).findByText('Question two')).toBeInTheDocument();
    expect(within(dialog).getByText('Answer three')).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit card 1' }));
    fireEvent.change(within(dialog).getByLabelText('Question'), { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Question and answer cannot be empty');
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Question'), { target: { value: 'New question' } });
    fireEvent.change(within(dialog).getByLabelText('Answer'), { target: { value: 'New answer' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to update card. Please try again.'),
    );

    answer = () => json(200, { ...queue[0], question: 'New question', answer: 'New answer' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
    await waitFor(() => expect(within(dialog).queryByLabelText('Question')).toBeNull());
    const put = calls.filter((call) => call.method === 'PUT' && call.path === `/cards/${queue[0]?._id}`);
    expect(bodyOf(put.at(-1))).toEqual({ question: 'New question', answer: 'New answer' });
  });

  it('deletes a card after its confirmation, back on the Cards tab; a failure has its message', async () => {
    let answer = new Response(null, { status: 500 });
    const { calls } = await openSettings({
      [`GET /decks/${deckId}/cards`]: () => json(200, { cards: queue, next_cursor: null }),
      [`DELETE /cards/${queue[1]?._id}`]: () => answer,
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Cards' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete card 2' }));
    let confirm = screen.getByRole('dialog', { name: 'Delete card' });
    expect(confirm).toHaveTextContent('Delete this card? This cannot be undone.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('tab', { name: 'Cards' })).toHaveAttribute('aria-selected', 'true');
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);

    fireEvent.click(await screen.findByRole('button', { name: 'Delete card 2' }));
    confirm = screen.getByRole('dialog', { name: 'Delete card' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete card' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('Failed to delete card. Please try again.');
    answer = new Response(null, { status: 204 });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete card' }));
    expect(await screen.findByRole('dialog', { name: 'Deck settings: <b>Biology</b>' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Cards' })).toHaveAttribute('aria-selected', 'true');
    expect(calls.filter((call) => call.method === 'DELETE' && call.path === `/cards/${queue[1]?._id}`)).toHaveLength(2);
  });

  it("says 'Failed to load all cards for this deck.' when the cards fail to load", async () => {
    const { dialog } = await openSettings({
      [`GET /decks/${deckId}/cards`]: () => json(404, { detail: 'x', code: 'deck_not_found' }),
    });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Cards' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to load all cards for this deck.');
  });
});

describe('review page: sharing and export', () => {
  const shareResult = { share_code: 'abcDEF123', expires_at: '2026-12-22T10:00:00.000Z' };

  async function openShare(routes: Routes = {}) {
    const app = start(routes);
    fireEvent.click(await deckButton('Share'));
    return { ...app, dialog: screen.getByRole('dialog', { name: 'Share deck: <b>Biology</b>' }) };
  }

  it("generates the link, shows origin + /share/ + code, and Copy says 'Copied!' for 2 seconds", async () => {
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    let release: (response: Response) => void = () => {};
    const { dialog } = await openShare({
      [`POST /decks/${deckId}/share`]: () => new Promise<Response>((resolve) => (release = resolve)),
    });
    expect(within(dialog).getByText('Generating share link...')).toBeInTheDocument();
    await act(async () => release(json(200, shareResult)));
    const link = await within(dialog).findByLabelText('Anyone with this link can preview and import the deck');
    expect(link).toHaveValue(`${window.location.origin}/share/abcDEF123`);

    vi.useFakeTimers({ shouldAdvanceTime: false });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Copy' })));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/share/abcDEF123`);
    expect(within(dialog).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await advance(copiedNoticeMs - 1);
    expect(within(dialog).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await advance(1);
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(copiedNoticeMs).toBe(2000);
  });

  it("says 'Failed to copy link to clipboard.' when copying fails", async () => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) },
      configurable: true,
    });
    const { dialog } = await openShare({ [`POST /decks/${deckId}/share`]: () => json(200, shareResult) });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Copy' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to copy link to clipboard.');
  });

  it('shows the server detail when sharing fails, else the fallback', async () => {
    const route = detailThenBare(json(429, { detail: serverMessages.rateLimited, code: 'rate_limited' }));
    const { dialog } = await openShare({ [`POST /decks/${deckId}/share`]: route.answer });
    await expectDetailThenFallback(dialog, route, 'Try again', {
      detail: serverMessages.rateLimited,
      fallback: 'Failed to generate share link. Please try again.',
    });
  });

  it('exports the deck as an Anki CSV named after the deck', async () => {
    const blobs: Blob[] = [];
    const downloads: string[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:export';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    // Two pages: the export follows next_cursor until the last page (the server never lists a deck unpaged).
    const pages = [
      {
        cards: [{ ...queue[0], question: 'What is **ATP**?', answer: 'Energy, see [link](https://example.com)' }],
        next_cursor: 'page-2',
      },
      {
        cards: [{ ...queue[1], question: 'Line one\nline two, with a comma', answer: '1. first\n2. second' }],
        next_cursor: null,
      },
    ];
    const { dialog, urls } = await openShare({
      [`POST /decks/${deckId}/share`]: never,
      [`GET /decks/${deckId}/cards`]: () => json(200, pages.shift()),
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export Anki CSV' }));
    expect(await within(dialog).findByText('Downloaded <b>Biology</b>_Anki_Export.csv.')).toBeInTheDocument();
    expect(downloads).toEqual(['<b>Biology</b>_Anki_Export.csv']);
    expect(blobs[0]?.type).toBe('text/csv;charset=utf-8');
    expect(await blobs[0]?.text()).toBe(
      'What is <strong>ATP</strong>?,"Energy, see <a href=""https://example.com"">link</a>"\r\n' +
        '"Line one\nline two, with a comma","<ol>\n<li>first</li>\n<li>second</li>\n</ol>"',
    );
    const cardCalls = urls.filter((url) => url.includes(`/decks/${deckId}/cards`));
    expect(cardCalls.map((url) => url.slice(url.indexOf('?')))).toEqual(['?limit=500', '?limit=500&cursor=page-2']);
  });

  it("says 'Failed to fetch cards for export. Please try again.' when the cards cannot be fetched", async () => {
    const { dialog } = await openShare({
      [`POST /decks/${deckId}/share`]: never,
      [`GET /decks/${deckId}/cards`]: () => json(500, { detail: serverMessages.internalError, code: 'internal_error' }),
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export Anki CSV' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to fetch cards for export. Please try again.',
    );
  });
});

describe('review page: card management', () => {
  const undoPath = (id: string | undefined) => `/cards/${id}/undo-review`;

  it('takes back answers one by one with Undo and U; a 409 says there is nothing to undo', async () => {
    const [one, two] = queue;
    const { calls } = await startSession({
      [`POST ${undoPath(one?._id)}`]: () => json(200, { card: one }),
      [`POST ${undoPath(two?._id)}`]: () =>
        json(409, { detail: serverMessages.nothingToUndo, code: 'nothing_to_undo' }),
    });
    expect(screen.queryByRole('button', { name: /Undo/ })).toBeNull();
    press('D');
    expect(await screen.findByText('Question two')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Undo/ }));
    expect(await screen.findByText('Question one')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === undoPath(one?._id))).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Undo/ })).toBeNull();

    press('D');
    await screen.findByText('Question two');
    press('A');
    await screen.findByText('Question three');
    press('U');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.undoNothing);
    expect(calls.filter((call) => call.path === undoPath(two?._id))).toHaveLength(1);
    // The refused answer is dropped; the one before it is next.
    press('U');
    expect(await screen.findByText('Question one')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === undoPath(one?._id))).toHaveLength(2);
  });

  it('adds a card from the deck list with a live preview; Ctrl+Enter saves and keeps the form open', async () => {
    const { calls } = start({
      'POST /notes': (call) => {
        const { front, back } = bodyOf(call).fields;
        return json(201, {
          note: { _id: 'n1', type: 'basic' },
          cards: [{ ...queue[2], question: front, answer: back }],
        });
      },
    });
    await deckButton('Review Deck');
    fireEvent.click(screen.getByRole('button', { name: 'Add Card' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Card' });
    const question = within(dialog).getByLabelText('Question');
    const answer = within(dialog).getByLabelText('Answer');
    fireEvent.keyDown(answer, { key: 'Enter', ctrlKey: true });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(messages.cardSidesEmpty);
    expect(calls.filter((call) => call.path === '/notes')).toHaveLength(0);

    fireEvent.change(question, { target: { value: 'What is **mass**?' } });
    fireEvent.change(answer, { target: { value: 'Energy over c squared' } });
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText('mass', { selector: 'strong' })).toBeInTheDocument();
    fireEvent.keyDown(answer, { key: 'Enter', ctrlKey: true });
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Card added to "<b>Biology</b>". Add the next one.',
    );
    expect(question).toHaveValue('');
    expect(answer).toHaveValue('');
    const saves = calls.filter((call) => call.path === '/notes').map(bodyOf);
    expect(saves).toEqual([
      { deck_id: deckId, type: 'basic', fields: { front: 'What is **mass**?', back: 'Energy over c squared' } },
    ]);
    expect(screen.getByRole('dialog', { name: 'Add Card' })).toBeInTheDocument();
  });

  it('searches all decks; a result opens its card for editing', async () => {
    const { urls } = start({
      'GET /cards/search': () => json(200, { cards: [{ ...queue[1], deck_name: deck.name }], next_cursor: null }),
    });
    await deckButton('Review Deck');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search all decks' }), { target: { value: 'quest tw' } });
    fireEvent.click(await screen.findByRole('button', { name: /^Edit card: Question two Answer two/ }));
    const editor = screen.getByRole('form', { name: 'Edit card' });
    expect(within(editor).getByLabelText('Question')).toHaveValue('Question two');
    const searched = urls
      .filter((url) => url.includes('/cards/search'))
      .map((url) => new URL(url, 'http://x').searchParams);
    expect(searched.at(-1)?.get('q')).toBe('quest tw');
    expect(searched.at(-1)?.has('deck_id')).toBe(false);
  });
});
