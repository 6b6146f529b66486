import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, fakeServer, json, never } from '../../test/fake-server';
import { renderApp, signedInServer } from '../../test/render-app';
import { quizSavedNoticeMs } from '../features/quiz/quiz-screen';

const deckA = {
  _id: '65a1b2c3d4e5f6a7b8c9d0a1',
  name: 'Biology',
  daily_new_card_limit: 20,
  card_count: 3,
  created_at: '',
};
const deckB = {
  _id: '65a1b2c3d4e5f6a7b8c9d0b2',
  name: 'History',
  daily_new_card_limit: 20,
  card_count: 1,
  created_at: '',
};
const quiz = {
  cards: [
    { question: 'Which organelle makes ATP?', answer: 'The mitochondrion' },
    { question: 'Where is DNA kept?', answer: 'In the nucleus' },
    { question: 'What do ribosomes build?', answer: 'Proteins' },
  ],
};

type Routes = Parameters<typeof fakeServer>[0];

function renderQuiz(routes: Routes) {
  const server = signedInServer(routes);
  return { ...renderApp('/quiz', server.fetch), calls: server.calls };
}

const bodyOf = (calls: FakeCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path).map((call) => JSON.parse(call.body ?? ''));

/**
 * The Generate button once the first deck is chosen: an effect chooses it after the decks arrive, and a click before
 * that commits asks for a deck instead.
 */
async function generateButton() {
  const select = await screen.findByLabelText('Deck');
  await waitFor(() => expect(select).toHaveValue(deckA._id));
  return screen.getByRole('button', { name: 'Generate Quiz' });
}

async function generateQuiz(routes: Routes = {}) {
  const view = renderQuiz({
    'GET /decks': () => json(200, [deckA, deckB]),
    'POST /api/quiz/generate': () => json(200, quiz),
    ...routes,
  });
  fireEvent.click(await generateButton());
  await screen.findByText('Card 1 of 3');
  return view;
}

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('quiz page', () => {
  it('lists the decks, picks the first, and generates a quiz from the chosen deck', async () => {
    const { calls } = renderQuiz({
      'GET /decks': () => json(200, [deckA, deckB]),
      'POST /api/quiz/generate': () => json(200, quiz),
    });
    const select = await screen.findByLabelText('Deck');
    // The first deck is chosen by an effect once the decks arrive, which may commit after the select first renders.
    await waitFor(() => expect(select).toHaveValue(deckA._id));
    expect(screen.getByRole('option', { name: 'History (1 card)' })).toBeInTheDocument();
    fireEvent.change(select, { target: { value: deckB._id } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Quiz' }));
    expect(await screen.findByText('Card 1 of 3')).toBeInTheDocument();
    expect(await screen.findByText('Which organelle makes ATP?')).toBeInTheDocument();
    expect(bodyOf(calls, 'POST', '/api/quiz/generate')).toEqual([{ deck_id: deckB._id }]);
  });

  it("shows 'Loading...' while the decks load", async () => {
    renderQuiz({ 'GET /decks': never });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Quiz' });
    expect(heading.parentElement).toHaveTextContent('Loading...');
    expect(screen.queryByRole('button', { name: 'Generate Quiz' })).toBeNull();
  });

  it('disables the button while the quiz is generated', async () => {
    renderQuiz({ 'GET /decks': () => json(200, [deckA]), 'POST /api/quiz/generate': never });
    fireEvent.click(await generateButton());
    expect(await screen.findByRole('button', { name: 'Generating Quiz...' })).toBeDisabled();
  });

  it("says 'Please select a deck.' when none is chosen, and asks nothing of the server", async () => {
    const { calls } = renderQuiz({ 'GET /decks': () => json(200, [deckA]) });
    fireEvent.change(await screen.findByLabelText('Deck'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Quiz' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a deck.');
    expect(bodyOf(calls, 'POST', '/api/quiz/generate')).toEqual([]);
  });

  it('refuses a deck id that is not 24 hex characters', async () => {
    const bad = { ...deckA, _id: 'not-an-object-id' };
    const { calls } = renderQuiz({ 'GET /decks': () => json(200, [bad]) });
    await screen.findByLabelText('Deck');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Quiz' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid deck ID format. Please select a valid deck.');
    expect(bodyOf(calls, 'POST', '/api/quiz/generate')).toEqual([]);
  });

  it('without decks says to create one first', async () => {
    renderQuiz({ 'GET /decks': () => json(200, []) });
    expect(await screen.findByText('No decks found. Please create a deck first.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create cards and a deck' })).toHaveAttribute('href', '/create');
    expect(screen.queryByRole('button', { name: 'Generate Quiz' })).toBeNull();
  });

  it('says when the decks cannot be loaded', async () => {
    renderQuiz({ 'GET /decks': () => json(500, { detail: serverMessages.internalError, code: 'internal_error' }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load decks. Please try again later.');
  });

  it.each([
    ['an empty deck (422 empty_deck)', () => json(422, { detail: messages.quizEmpty, code: 'empty_deck' })],
    ['no usable questions (422 no_quiz_cards)', () => json(422, { detail: messages.quizEmpty, code: 'no_quiz_cards' })],
    ['an empty list', () => json(200, { cards: [] })],
  ])('explains %s', async (_label, answer) => {
    renderQuiz({ 'GET /decks': () => json(200, [deckA]), 'POST /api/quiz/generate': answer });
    fireEvent.click(await generateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "No quiz cards could be generated. The deck might be empty or the AI couldn't process the content.",
    );
    expect(screen.queryByText(/^Card \d+ of/)).toBeNull();
  });

  it.each([
    ['a server error', () => json(502, { detail: 'The AI service is down.', code: 'ai_unavailable' })],
    ['no response', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('answers %s with the generic failure', async (_label, answer) => {
    renderQuiz({ 'GET /decks': () => json(200, [deckA]), 'POST /api/quiz/generate': answer });
    fireEvent.click(await generateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to generate quiz. Please try again.');
  });

  it('shows the server detail when quizzes come too fast', async () => {
    renderQuiz({
      'GET /decks': () => json(200, [deckA]),
      'POST /api/quiz/generate': () => json(429, { detail: serverMessages.rateLimited, code: 'rate_limited' }),
    });
    fireEvent.click(await generateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.rateLimited);
  });

  it('sends the deck id as JSON with the bearer token', async () => {
    const { calls } = await generateQuiz();
    const call = calls.find((c) => c.path === '/api/quiz/generate');
    expect(call?.headers.get('authorization')).toBe('Bearer token');
    expect(call?.headers.get('content-type')).toBe('application/json');
  });

  it('flips and steps through the cards with the buttons', async () => {
    await generateQuiz();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Show Answer' }));
    expect(await screen.findByText('The mitochondrion')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Card 2 of 3')).toBeInTheDocument();
    expect(await screen.findByText('Where is DNA kept?')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Where is DNA kept?'));
    expect(await screen.findByText('In the nucleus')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Card 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('Card 2 of 3')).toBeInTheDocument();
  });

  it('takes the keyboard: space flips, D goes to the next card, A to the previous', async () => {
    await generateQuiz();
    await screen.findByText('Which organelle makes ATP?');
    fireEvent.keyDown(document.body, { key: ' ' });
    expect(await screen.findByText('The mitochondrion')).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: 'd' });
    expect(screen.getByText('Card 2 of 3')).toBeInTheDocument();
    expect(await screen.findByText('Where is DNA kept?')).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: 'D' });
    expect(screen.getByText('Card 3 of 3')).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: 'd' });
    expect(screen.getByText('Card 3 of 3')).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(screen.getByText('Card 2 of 3')).toBeInTheDocument();
    // Keys typed into the deck picker are not shortcuts.
    fireEvent.keyDown(screen.getByLabelText('Deck'), { key: 'a' });
    expect(screen.getByText('Card 2 of 3')).toBeInTheDocument();
  });

  it("adds the current card to the deck and says 'Card added successfully!' for 3 seconds", async () => {
    const { calls } = await generateQuiz({ 'POST /save-cards': () => json(201, { saved: 1, cards: [] }) });
    expect(screen.getByRole('button', { name: 'Add to Deck' })).toHaveAccessibleDescription(
      'Adds this card to Biology.',
    );
    fireEvent.keyDown(document.body, { key: 'd' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Deck' }));
    expect(await screen.findByText('Card added successfully!')).toBeInTheDocument();
    expect(bodyOf(calls, 'POST', '/save-cards')).toEqual([
      { deck_id: deckA._id, cards: [{ question: 'Where is DNA kept?', answer: 'In the nucleus' }] },
    ]);
    await act(async () => vi.advanceTimersByTime(quizSavedNoticeMs - 100));
    expect(screen.getByText('Card added successfully!')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Card added successfully!')).toBeNull();
    expect(quizSavedNoticeMs).toBe(3000);
  });

  it('cannot save without a deck', async () => {
    const { calls } = await generateQuiz();
    fireEvent.change(screen.getByLabelText('Deck'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Deck' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Cannot save card. No deck selected or no quiz cards available.',
    );
    expect(bodyOf(calls, 'POST', '/save-cards')).toEqual([]);
  });

  it('cannot save a card with an empty side', async () => {
    const { calls } = await generateQuiz({
      'POST /api/quiz/generate': () =>
        json(200, {
          cards: [
            { question: 'Q1', answer: '  ' },
            { question: 'Q2', answer: 'A2' },
            { question: 'Q3', answer: 'A3' },
          ],
        }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Deck' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot save card. Invalid card data.');
    expect(bodyOf(calls, 'POST', '/save-cards')).toEqual([]);
  });

  it('says when saving fails', async () => {
    await generateQuiz({ 'POST /save-cards': () => json(500, { detail: serverMessages.internalError, code: 'x' }) });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Deck' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save card. Please try again.');
    expect(screen.queryByText('Card added successfully!')).toBeNull();
  });

  it('sends a signed-out visitor to /login', async () => {
    const { router } = renderApp('/quiz', fakeServer({}).fetch);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
