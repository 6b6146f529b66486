import type { Card, DeckStats, DeckSummary } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, type fakeServer, json, never } from '../../../test/fake-server';
import { biologyDeck, newCard } from '../../../test/fixtures';
import { giveEveryElementASize } from '../../../test/lay-out';
import { renderApp, signedInServer } from '../../../test/render-app';

// Issue 31: the deck list starts with the decks and their counts; decks are renamed in deck settings; Escape in
// a card editor asks before dropping the edit and leaves deck settings open; search results read as the card does.

const deckId = biologyDeck._id;
const deck: DeckSummary = { ...biologyDeck, card_count: 40, counts: { new: 20, learning: 3, due: 7 } };
const other: DeckSummary = {
  ...deck,
  _id: '65a1b2c3d4e5f6a7b8c9d0bb',
  name: 'Chemistry',
  counts: { new: 0, learning: 0, due: 1 },
};
const stats: DeckStats = {
  total_cards: 40,
  new_cards: 30,
  learning_cards: 3,
  due_cards: 7,
  cards_reviewed_today: 0,
  next_due_time: null,
};
const card = newCard({
  _id: 'c1aaaaaaaaaaaaaaaaaaaaaa',
  question: 'What is $\\frac{1}{2}$ of **four**?',
  answer: 'Two',
});

type Routes = Parameters<typeof fakeServer>[0];

function start(routes: Routes = {}) {
  const server = signedInServer({
    'GET /decks': () => json(200, [deck, other]),
    'GET /decks/stats': () => json(200, stats),
    [`GET /decks/${deckId}/stats`]: () => json(200, stats),
    [`GET /decks/${deckId}/cards`]: () => json(200, { cards: [card], next_cursor: null }),
    ...routes,
  });
  renderApp('/review', server.fetch);
  return { calls: server.calls };
}

const bodyOf = (call: FakeCall | undefined) => JSON.parse(call?.body ?? 'null');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('deck list', () => {
  it('starts with the decks, each with its New / Learning / Due counts, before the tools and the create form', async () => {
    start();
    const biology = (await screen.findByRole('heading', { name: 'Biology', level: 2 })).closest('li');
    if (!biology) throw new Error('no deck row');
    expect(within(biology).getByText('20 new, 3 learning, 7 due')).toBeInTheDocument();
    expect(within(biology).getByText('New').parentElement).toHaveTextContent('New 20');
    expect(within(biology).getByText('Learning').parentElement).toHaveTextContent('Learning 3');
    expect(within(biology).getByText('Due').parentElement).toHaveTextContent('Due 7');
    const chemistry = screen.getByRole('heading', { name: 'Chemistry', level: 2 }).closest('li');
    expect(chemistry).toHaveTextContent('0 new, 0 learning, 1 due');

    // Document order: the deck list before the totals, the search, the create form and Import.
    const list = biology.closest('ul') as HTMLElement;
    const after = (element: HTMLElement) =>
      (list.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    expect(after(await screen.findByRole('button', { name: 'Review All Decks' }))).toBe(true);
    expect(after(screen.getByRole('searchbox', { name: 'Search all decks' }))).toBe(true);
    expect(after(screen.getByLabelText('New deck name'))).toBe(true);
    expect(after(screen.getByRole('button', { name: 'Import' }))).toBe(true);
  });

  it('draws the all-decks totals with the decks, dashes until they arrive, and the create form and Import only below the decks', async () => {
    const pending: { release?: (response: Response) => void } = {};
    start({
      'GET /decks': () => new Promise<Response>((resolve) => (pending.release = resolve)),
      'GET /decks/stats': never,
    });
    await waitFor(() => expect(pending.release).toBeDefined());
    expect(await screen.findByText(messages.loading)).toBeInTheDocument();
    expect(screen.queryByLabelText('New deck name')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: messages.importTitle })).not.toBeInTheDocument();
    pending.release?.(json(200, [deck, other]));
    const totals = await screen.findByRole('region', { name: 'All decks' });
    expect(totals).toHaveAttribute('aria-busy', 'true');
    for (const label of ['Due now', 'Learning', 'New', 'Reviewed today']) {
      expect(within(totals).getByText(label).nextElementSibling).toHaveTextContent(messages.figurePending);
    }
    expect(within(totals).getByRole('button', { name: 'Review All Decks' })).toBeEnabled();
    expect(screen.getByLabelText('New deck name')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.importTitle })).toBeInTheDocument();
  });
});

describe('deck settings', () => {
  beforeEach(giveEveryElementASize);

  async function openSettings(routes: Routes = {}) {
    const app = start(routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Settings: Biology' }));
    return { ...app, dialog: screen.getByRole('dialog', { name: 'Deck settings: Biology' }) };
  }

  it('renames the deck (trimmed), and the title follows', async () => {
    let decks = [deck, other];
    const { calls, dialog } = await openSettings({
      'GET /decks': () => json(200, decks),
      [`PUT /decks/${deckId}/settings`]: (call) => {
        decks = [{ ...deck, name: bodyOf(call).name }, other];
        return json(200, { daily_new_card_limit: 20, desired_retention: 0.9 });
      },
    });
    const name = within(dialog).getByLabelText('Deck name');
    expect(name).toHaveValue('Biology');
    fireEvent.change(name, { target: { value: '  Cell biology ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Deck settings saved.');
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(bodyOf(puts.at(-1))).toEqual({ daily_new_card_limit: 20, desired_retention: 0.9, name: 'Cell biology' });
    expect(await screen.findByRole('dialog', { name: 'Deck settings: Cell biology' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Cell biology', level: 2 })).toBeInTheDocument();
  });

  it('refuses an empty name with the rule and sends nothing; the server’s refusal is shown too', async () => {
    const { calls, dialog } = await openSettings({
      [`PUT /decks/${deckId}/settings`]: () =>
        json(422, { detail: 'Deck name must be at most 200 characters.', code: 'validation_failed' }),
    });
    const name = within(dialog).getByLabelText('Deck name');
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Deck name cannot be empty');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(0);
    fireEvent.change(name, { target: { value: 'Another name' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Deck name must be at most 200 characters.');
  });

  it("the Cards tab shows an AI card's source behind its Source button; Delete source removes it", async () => {
    const quote = 'Half of four is two.';
    let source: Card['source'] = { document: 'arithmetic.pptx', slide: 2, quote };
    const { calls, dialog } = await openSettings({
      [`GET /decks/${deckId}/cards`]: () => json(200, { cards: [{ ...card, source }], next_cursor: null }),
      [`DELETE /cards/${card._id}/source`]: () => {
        source = null;
        return new Response(null, { status: 204 });
      },
    });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Cards' }));
    const toggle = await within(dialog).findByRole('button', { name: messages.sourceShow });
    expect(within(dialog).queryByText(quote)).not.toBeInTheDocument();
    fireEvent.click(toggle);
    const panel = within(dialog).getByRole('region', { name: messages.sourceTitle });
    expect(within(panel).getByText(quote)).toBeInTheDocument();
    expect(within(panel).getByText('From arithmetic.pptx, Slide 2')).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole('button', { name: messages.sourceDelete }));
    expect(await within(dialog).findByText(messages.sourceDeleted)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === `/cards/${card._id}/source`)).toBe(true);
    // The list is fetched again and the card has no source left to show.
    await waitFor(() =>
      expect(calls.filter((call) => call.path === `/decks/${deckId}/cards`).length).toBeGreaterThanOrEqual(2),
    );
    expect(within(dialog).queryByRole('button', { name: messages.sourceShow })).not.toBeInTheDocument();
    expect(within(dialog).queryByText(quote)).not.toBeInTheDocument();
  });

  it('Escape in a card being edited asks before dropping the edit, and never closes deck settings', async () => {
    const { calls, dialog } = await openSettings();
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Cards' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Edit card 1' }));
    const question = within(dialog).getByLabelText('Question');

    // Nothing typed yet: Escape just closes the editor.
    fireEvent.keyDown(question, { key: 'Escape' });
    expect(within(dialog).queryByLabelText('Question')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Deck settings: Biology' })).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit card 1' }));
    fireEvent.change(within(dialog).getByLabelText('Question'), { target: { value: 'A better question' } });
    fireEvent.keyDown(within(dialog).getByLabelText('Question'), { key: 'Escape' });
    expect(within(dialog).getByText('Discard what you typed in this card?')).toBeInTheDocument();
    const keep = within(dialog).getByRole('button', { name: 'Keep editing' });
    await waitFor(() => expect(keep).toHaveFocus());
    // Keep editing: the text stays, focus goes back to where it was.
    fireEvent.click(keep);
    expect(within(dialog).getByLabelText('Question')).toHaveValue('A better question');
    expect(within(dialog).getByLabelText('Question')).toHaveFocus();
    expect(within(dialog).queryByText('Discard what you typed in this card?')).not.toBeInTheDocument();

    // A second Escape while asked is "keep editing" too; Discard changes drops the edit.
    fireEvent.keyDown(within(dialog).getByLabelText('Question'), { key: 'Escape' });
    fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Keep editing' }), { key: 'Escape' });
    expect(within(dialog).getByLabelText('Question')).toHaveValue('A better question');
    fireEvent.keyDown(within(dialog).getByLabelText('Question'), { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Discard changes' }));
    expect(within(dialog).queryByLabelText('Question')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Deck settings: Biology' })).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(0);

    // Outside an editor, Escape still closes the dialog.
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('Add Card dialog', () => {
  it('Escape closes it at once when nothing was typed, and asks first when something was', async () => {
    start();
    fireEvent.click(await screen.findByRole('button', { name: 'Add Card' }));
    let dialog = screen.getByRole('dialog', { name: 'Add Card' });
    fireEvent.keyDown(within(dialog).getByLabelText('Question'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Add Card' }));
    dialog = screen.getByRole('dialog', { name: 'Add Card' });
    fireEvent.change(within(dialog).getByLabelText('Question'), { target: { value: 'Half typed' } });
    fireEvent.keyDown(within(dialog).getByLabelText('Question'), { key: 'Escape' });
    expect(within(dialog).getByText('Discard what you typed in this card?')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByLabelText('Question')).toHaveValue('Half typed');
    fireEvent.keyDown(within(dialog).getByLabelText('Question'), { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Discard changes' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('search results', () => {
  it('are buttons named and shown with the plain text of the rendered card, not raw markdown or LaTeX', async () => {
    start({
      'GET /cards/search': () => json(200, { cards: [{ ...card, deck_name: 'Biology' }], next_cursor: null }),
    });
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Search all decks' }), {
      target: { value: 'four' },
    });
    const hit = await screen.findByRole('button', { name: 'Edit card: What is 1/2 of four? Two Biology' });
    expect(hit).toHaveTextContent('What is 1/2 of four?');
    expect(hit.textContent).not.toMatch(/[$*\\]/);
  });
});
