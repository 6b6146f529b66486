import type { DeckSummary, DueCard } from '@flashcards/shared/api-types';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type FakeCall, type fakeServer, json } from '../../../test/fake-server';
import { biologyDeck, freeQuota, newCard } from '../../../test/fixtures';
import { renderApp, signedInServer } from '../../../test/render-app';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';
import { deckNameFromFile, deckNameFromText } from './create-rules';

// Issue 31, "From a file to studying": results in view, a deck name offered, one click to save, then study.

type Routes = Parameters<typeof fakeServer>[0];

const biology: DeckSummary = { ...biologyDeck, counts: { new: 0, learning: 0, due: 0 } };

const generated = {
  cards: [
    { question: 'What is a cell?', answer: 'The basic unit of life.' },
    { question: 'What is DNA?', answer: 'The molecule of heredity.' },
  ],
  cost: 3,
  remaining: 1,
};

const quota = freeQuota;

function renderCreate(routes: Routes, remaining: () => number = () => 10) {
  localStore.set(storageKeys.onboardingShown, 'true');
  const server = signedInServer({
    'GET /decks': () => json(200, [biology]),
    'GET /api/subscription-status': () => json(200, quota(remaining())),
    'POST /create': () => json(200, generated),
    ...routes,
  });
  renderApp('/create', server.fetch);
  return { calls: server.calls, urls: server.urls };
}

const bodyOf = (call: FakeCall | undefined) => call?.body ?? '';

function pickFile(name: string, type: string) {
  const file = new File(['%PDF-1.7 some content'], name, { type });
  fireEvent.change(screen.getByLabelText(/Or upload a file/), { target: { files: [file] } });
}

describe('deck names from the source', () => {
  it.each([
    ['Cell_biology lecture 3.pdf', 'Cell biology lecture 3'],
    ['notes.final.docx', 'notes.final'],
    ['.hidden', '.hidden'],
    ['no extension', 'no extension'],
    [`${'Photosynthesis '.repeat(10)}.pptx`, 'Photosynthesis Photosynthesis Photosynthesis…'],
  ])('names cards from the file %j as %j', (file, name) => {
    expect(deckNameFromFile(file)).toBe(name);
    expect(deckNameFromFile(file).length).toBeLessThanOrEqual(60);
  });

  it.each([
    ['Cells are the basic unit of life.\nMore text.', 'Cells are the basic unit of life.'],
    ['intro line\n\n## **The Krebs cycle**\nbody', 'The Krebs cycle'],
    ['\n\n   \n- first *point*\nsecond', 'first point'],
    ['$$\n\n', ''],
    ['', ''],
    [`${'word '.repeat(40)}`, `${'word '.repeat(11).trim()}…`],
  ])('names cards from the text %j as %j', (text, name) => {
    expect(deckNameFromText(text)).toBe(name);
  });
});

describe('from a file to studying', { timeout: 30_000 }, () => {
  it('focuses the results, clears the file, saves to a new deck named after the file in one click, then studies it', async () => {
    const created: DeckSummary = { ...biology, _id: '65a1b2c3d4e5f6a7b8c9d0bb', name: 'Cell biology' };
    let decks = [biology];
    let remaining = 3;
    const due: DueCard[] = [
      {
        ...newCard({
          _id: 'c1aaaaaaaaaaaaaaaaaaaaaa',
          deck_id: created._id,
          question: 'What is a cell?',
          answer: 'The basic unit of life.',
          due_date: '2026-11-22T10:00:00.000Z',
          created_at: '2026-11-22T10:00:00.000Z',
        }),
        next_due: { pass: '2026-11-22T10:10:00.000Z', fail: '2026-11-22T10:01:00.000Z' },
        last_review: null,
        memory: { stability: 0, difficulty: 0, scheduled_days: 0, learning_steps: 0 },
      },
    ];
    const { calls, urls } = renderCreate(
      {
        'GET /decks': () => json(200, decks),
        'POST /create': () => {
          remaining = 0;
          return json(200, { ...generated, remaining: 0 });
        },
        'POST /decks': () => {
          decks = [biology, created];
          return json(201, created);
        },
        'POST /save-cards': () => json(201, { saved: 2 }),
        'GET /cards/due': () => json(200, due),
        [`GET /decks/${created._id}/stats`]: () =>
          json(200, {
            total_cards: 2,
            new_cards: 2,
            learning_cards: 0,
            due_cards: 0,
            cards_reviewed_today: 0,
            next_due_time: null,
          }),
      },
      () => remaining,
    );
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    pickFile('Cell_biology.pdf', 'application/pdf');
    fireEvent.click(await screen.findByRole('button', { name: 'Generate Flashcards (Cost: 3)' }));

    const heading = await screen.findByRole('heading', { name: 'Generated Cards' });
    await waitFor(() => expect(heading).toHaveFocus());
    // The file is cleared: no "Remove file", and the quota left (0) shows no "Need 3, Have 0" over the results.
    expect(screen.queryByRole('button', { name: 'Remove file' })).not.toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/subscription-status')).toHaveLength(2));
    expect(screen.queryByText(/Need 3/)).not.toBeInTheDocument();
    expect(screen.getByText('Need 1, Have 0.')).toBeInTheDocument();

    // The deck name is offered from the file's name: one click saves.
    expect(screen.getByLabelText('New deck name')).toHaveValue('Cell biology');
    fireEvent.click(screen.getByRole('button', { name: 'Save Selected Cards (2)' }));
    const study = await screen.findByRole('button', { name: 'Study these 2 cards now' });
    expect(screen.getByText('2 cards saved to "Cell biology".')).toBeInTheDocument();
    expect(bodyOf(calls.find((call) => call.method === 'POST' && call.path === '/decks'))).toBe(
      'deck_name=Cell+biology',
    );
    expect(JSON.parse(bodyOf(calls.find((call) => call.path === '/save-cards')))).toEqual({
      deck_id: created._id,
      cards: generated.cards,
    });

    // "Study these" opens a session of that deck.
    fireEvent.click(study);
    expect(await screen.findByText('What is a cell?')).toBeInTheDocument();
    expect(urls.some((url) => url.endsWith(`/cards/due?deck_id=${created._id}`))).toBe(true);
    expect(screen.queryByRole('heading', { name: 'Create Cards' })).not.toBeInTheDocument();
  });

  it("saves into the learner's deck of the offered name instead of making a second one", async () => {
    const { calls } = renderCreate({ 'POST /save-cards': () => json(201, { saved: 2 }) });
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    fireEvent.change(screen.getByLabelText('Text to turn into flashcards'), {
      target: { value: '# biology\nCells are the basic unit of life.' },
    });
    fireEvent.click(await screen.findByRole('button', { name: /^Generate Flashcards/ }));
    await screen.findByRole('heading', { name: 'Generated Cards' });
    expect(screen.getByLabelText('New deck name')).toHaveValue('biology');
    await within(await screen.findByLabelText('Deck')).findByRole('option', { name: 'Biology' });
    fireEvent.click(screen.getByRole('button', { name: 'Save Selected Cards (2)' }));
    expect(await screen.findByRole('button', { name: 'Study these 2 cards now' })).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST' && call.path === '/decks')).toBe(false);
    expect(JSON.parse(bodyOf(calls.find((call) => call.path === '/save-cards'))).deck_id).toBe(biology._id);
  });

  it('offers to study one card in the singular, and a new generation takes the offer away', async () => {
    renderCreate({
      'POST /save-cards': () => json(201, { saved: 1 }),
      'POST /decks': () => json(201, { ...biology, _id: '65a1b2c3d4e5f6a7b8c9d0cc', name: 'Genetics' }),
    });
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    const area = screen.getByLabelText('Text to turn into flashcards');
    fireEvent.change(area, { target: { value: 'Genetics' } });
    fireEvent.click(await screen.findByRole('button', { name: /^Generate Flashcards/ }));
    await screen.findByRole('heading', { name: 'Generated Cards' });
    fireEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    fireEvent.click(within(screen.getByRole('listitem', { name: 'Card 1' })).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Save Selected Cards (1)' }));
    expect(await screen.findByRole('button', { name: 'Study this card now' })).toBeInTheDocument();
    fireEvent.change(area, { target: { value: 'Other notes' } });
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: /^Generate Flashcards/ }));
    });
    await screen.findByRole('heading', { name: 'Generated Cards' });
    expect(screen.queryByRole('button', { name: /^Study th/ })).not.toBeInTheDocument();
    expect(screen.getByLabelText('New deck name')).toHaveValue('Other notes');
  });
});
