import type { Card, DeckStats, DeckSummary, DueCard, Note } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { checkNote, type RenderedCard } from '@flashcards/shared/notes';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, type fakeServer, json } from '../../../test/fake-server';
import { biologyDeck, newCard } from '../../../test/fixtures';
import { renderApp, signedInServer } from '../../../test/render-app';

// Issue 33: the Add Card form writes basic, reversed and cloze notes (Anki's Ctrl+Shift+C, a preview of every
// card), the Cards tab lists notes with their cards and edits a note through PUT /notes/{id}, and review shows cloze
// cards as the server renders them.

const at = '2026-11-20T10:00:00.000Z';
const deckId = biologyDeck._id;
const deck: DeckSummary = { ...biologyDeck, card_count: 5, created_at: at, counts: { new: 5, learning: 0, due: 0 } };
const stats: DeckStats = {
  total_cards: 5,
  new_cards: 5,
  learning_cards: 0,
  due_cards: 0,
  cards_reviewed_today: 0,
  next_due_time: null,
};

/** The cards a note makes, as the API answers them (rendered by the shared renderer, as the server does). */
function cardsOf(noteId: string, type: 'basic' | 'reversed' | 'cloze', fields: object, ids: string[]): Card[] {
  const checked = checkNote(type, fields);
  if (!checked.ok) throw new Error(`not a note: ${JSON.stringify(checked.problem)}`);
  return checked.cards.map((rendered: RenderedCard, index) =>
    newCard({
      _id: ids[index] ?? `${noteId}-${index}`,
      note_id: noteId,
      card_type: rendered.card_type,
      ord: rendered.ord,
      question: rendered.question,
      answer: rendered.answer,
    }),
  );
}

const clozeFields = { text: 'The {{c1::mitochondrion}} makes {{c2::ATP::a molecule}}.', extra: 'Cell biology' };
const basicCards = cardsOf('n-basic', 'basic', { front: 'Capital of France?', back: 'Paris' }, ['b1']);
const clozeCards = cardsOf('n-cloze', 'cloze', clozeFields, ['z1', 'z2']);
const reversedCards = cardsOf('n-rev', 'reversed', { front: 'la casa', back: 'the house' }, ['r1', 'r2']);
const clozeNote: Note = {
  _id: 'n-cloze',
  deck_id: deckId,
  type: 'cloze',
  fields: clozeFields,
  card_ids: ['z1', 'z2'],
  created_at: at,
  updated_at: at,
};

type Routes = Parameters<typeof fakeServer>[0];

function start(routes: Routes = {}) {
  const server = signedInServer({
    'GET /decks': () => json(200, [deck]),
    'GET /decks/stats': () => json(200, stats),
    [`GET /decks/${deckId}/stats`]: () => json(200, stats),
    [`GET /decks/${deckId}/cards`]: () =>
      json(200, { cards: [...basicCards, ...clozeCards, ...reversedCards], next_cursor: null }),
    ...routes,
  });
  renderApp('/review', server.fetch);
  return { calls: server.calls };
}

const bodyOf = (call: FakeCall | undefined) => JSON.parse(call?.body ?? 'null');
/** The bodies sent to `path` by POST or PUT. */
const posted = (calls: FakeCall[], path: string) =>
  calls.filter((call) => call.path === path && call.method !== 'GET').map(bodyOf);

/** Selects `part` of a text box's value, then presses Ctrl+Shift+C there (with Alt when `same`). */
function clozeShortcut(box: HTMLTextAreaElement, part: string, same = false) {
  const start = box.value.indexOf(part);
  box.setSelectionRange(start, start + part.length);
  fireEvent.keyDown(box, { key: 'C', code: 'KeyC', ctrlKey: true, shiftKey: true, altKey: same });
}

async function openAddCard() {
  // The deck list first: on a loaded machine it takes longer than findBy's one second.
  fireEvent.click(await screen.findByRole('button', { name: 'Add Card' }, { timeout: 4000 }));
  return screen.getByRole('dialog', { name: 'Add Card' });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Add Card: notes of each type', () => {
  it('wraps selections with Ctrl+Shift+C (the next number; with Alt the same) and the Cloze button', async () => {
    const { calls } = start();
    const dialog = await openAddCard();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Cloze' }));
    const text = within(dialog).getByLabelText('Text') as HTMLTextAreaElement;
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent(messages.cardPreviewEmpty);

    fireEvent.change(text, { target: { value: 'Water is H2O; salt is NaCl; $x^2$ grows.' } });
    // No deletion yet: the preview says so in the words the server would use.
    expect(preview).toHaveTextContent(messages.clozeMissing);
    clozeShortcut(text, 'H2O');
    expect(text).toHaveValue('Water is {{c1::H2O}}; salt is NaCl; $x^2$ grows.');
    // The caret is after the deletion.
    expect(text.selectionStart).toBe('Water is {{c1::H2O}}'.length);
    clozeShortcut(text, 'NaCl');
    clozeShortcut(text, '$x^2$', true);
    expect(text).toHaveValue('Water is {{c1::H2O}}; salt is {{c2::NaCl}}; {{c2::$x^2$}} grows.');
    // The button: nothing selected puts an empty deletion of the next number at the caret, the caret inside it.
    text.setSelectionRange(text.value.length, text.value.length);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cloze' }));
    expect(text).toHaveValue('Water is {{c1::H2O}}; salt is {{c2::NaCl}}; {{c2::$x^2$}} grows.{{c3::}}');
    expect(text.selectionStart).toBe(text.value.length - 2);
    expect(preview).toHaveTextContent('Cloze deletion {{c3::}} is empty: write its answer after the two colons.');
    expect(calls.filter((call) => call.path === '/notes')).toEqual([]);
  });

  it('previews each card of a cloze note as review shows it, and Ctrl+Enter saves it, keeping the form open', async () => {
    const { calls } = start({
      'POST /notes': (call) => json(201, { note: clozeNote, cards: cardsOf('n', 'cloze', bodyOf(call).fields, []) }),
    });
    const dialog = await openAddCard();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Cloze' }));
    const text = within(dialog).getByLabelText('Text') as HTMLTextAreaElement;
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    fireEvent.change(text, { target: { value: 'Water is {{c1::H2O}}; salt is {{c2::NaCl}}; {{c2::$x^2$}} grows.' } });

    // One card per number, each question with its own deletions hidden, its answer in bold; math renders inside.
    const previewCards = await within(preview).findAllByRole('listitem');
    expect(previewCards.map((item) => item.querySelector('.note-preview__title')?.textContent)).toEqual([
      'Card 1 (cloze 1)',
      'Card 2 (cloze 2)',
    ]);
    const [first, second] = previewCards as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('Water is [...]; salt is NaCl;');
    expect(await within(first).findByText('H2O', { selector: 'strong' })).toBeInTheDocument();
    expect(second).toHaveTextContent('Water is H2O; salt is [...]; [...] grows.');
    await waitFor(() => expect(second.querySelector('strong .katex')).not.toBeNull());

    fireEvent.keyDown(text, { key: 'Enter', ctrlKey: true });
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      '2 cards added to "Biology". Add the next note.',
    );
    expect(posted(calls, '/notes')).toEqual([
      {
        deck_id: deckId,
        type: 'cloze',
        fields: { text: 'Water is {{c1::H2O}}; salt is {{c2::NaCl}}; {{c2::$x^2$}} grows.' },
      },
    ]);
    // The form stays open, empty, on the same type, the text box focused for the next note.
    expect(text).toHaveValue('');
    expect(text).toHaveFocus();
    expect(within(dialog).getByRole('radio', { name: 'Cloze' })).toBeChecked();
  });

  it('previews a reversed note’s two cards and sends it; the server’s refusal shows in its own words', async () => {
    let refuse = true;
    const { calls } = start({
      'POST /notes': () =>
        refuse
          ? json(422, { detail: 'The back field cannot be empty.', code: 'validation_failed' })
          : json(201, { note: { ...clozeNote, type: 'reversed' }, cards: reversedCards }),
    });
    const dialog = await openAddCard();
    const types = within(dialog).getByRole('group', { name: messages.noteTypeLegend });
    expect(
      within(types)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['Basic', 'Basic and reversed', 'Cloze', 'Image occlusion']);
    expect(within(types).getByRole('radio', { name: 'Basic' })).toBeChecked();
    // What was typed stays in the boxes when the type changes, as in Anki.
    fireEvent.change(within(dialog).getByLabelText('Question'), { target: { value: 'la **casa**' } });
    fireEvent.click(within(types).getByRole('radio', { name: 'Basic and reversed' }));
    expect(within(dialog).getByLabelText('Front')).toHaveValue('la **casa**');
    fireEvent.change(within(dialog).getByLabelText('Back'), { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add card' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The back field cannot be empty.');

    refuse = false;
    fireEvent.change(within(dialog).getByLabelText('Back'), { target: { value: 'the house' } });
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    const [forward, backward] = within(preview).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(forward.querySelector('.note-preview__title')).toHaveTextContent('Card 1');
    expect(backward.querySelector('.note-preview__title')).toHaveTextContent('Card 2 (reversed)');
    expect(await within(forward).findByText('casa', { selector: 'strong' })).toBeInTheDocument();
    expect(backward.querySelector('.card-markdown')).toHaveTextContent('the house');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add card' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted(calls, '/notes').at(-1)).toEqual({
      deck_id: deckId,
      type: 'reversed',
      fields: { front: 'la **casa**', back: 'the house' },
    });
  });
});

describe('Add Card: keyboard', () => {
  it('goes from the type to the text, the Cloze button, Extra, then Close and Add card', async () => {
    start();
    const user = userEvent.setup();
    const dialog = await openAddCard();
    const cloze = within(dialog).getByRole('radio', { name: 'Cloze' });
    await user.click(cloze);
    expect(cloze).toHaveFocus();
    const form = within(dialog).getByRole('form', { name: 'Add card' });
    const order = [
      within(form).getByLabelText('Text'),
      within(form).getByRole('button', { name: 'Cloze' }),
      within(form).getByLabelText('Extra (optional)'),
      within(form).getByRole('button', { name: 'Close' }),
      within(form).getByRole('button', { name: 'Add card' }),
    ];
    for (const element of order) {
      await user.tab();
      expect(element).toHaveFocus();
    }
    // The Cloze button names its shortcuts for assistive technology, and the text box is described by the hint.
    expect(order[1]).toHaveAttribute('aria-keyshortcuts', 'Control+Shift+C Control+Shift+Alt+C');
    expect(order[0]).toHaveAccessibleDescription(messages.clozeHint);
  });
});

describe('Cards tab: notes with their cards', () => {
  // jsdom lays nothing out: give every element a size, so that the Cards tab's virtual list shows its rows.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 480, 150));
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(150);
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(480);
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(150);
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(480);
  });

  /** Deck settings on the Cards tab, once `shown` is listed. */
  async function openCardsTab(routes: Routes = {}, shown = 'Cloze note, 2 cards') {
    const app = start(routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Settings: Biology' }, { timeout: 4000 }));
    const dialog = screen.getByRole('dialog', { name: 'Deck settings: Biology' });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Cards' }));
    await within(dialog).findByText(shown);
    return { ...app, dialog };
  }

  it('groups each note’s cards under it, numbered on from card to card', async () => {
    const { dialog } = await openCardsTab();
    const rows = within(dialog)
      .getAllByRole('listitem')
      .filter((item) => item.classList.contains('deck-cards__slot'));
    expect(rows.map((row) => row.querySelector('.deck-cards__meta span')?.textContent)).toEqual([
      'Card 1',
      'Cloze note, 2 cards',
      'Basic and reversed note, 2 cards',
    ]);
    const [, cloze, reversed] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(cloze).getByText('Card 2 (cloze 1)')).toBeInTheDocument();
    expect(within(cloze).getByText('Card 3 (cloze 2)')).toBeInTheDocument();
    expect(within(reversed).getByText('Card 4')).toBeInTheDocument();
    expect(within(reversed).getByText('Card 5 (reversed)')).toBeInTheDocument();
    // A basic card edits as before; a note of several cards is edited as a note, each card deleted on its own.
    expect(within(dialog).getByRole('button', { name: 'Edit card 1' })).toBeInTheDocument();
    expect(within(cloze).getByRole('button', { name: 'Edit note of cards 2 to 3' })).toBeInTheDocument();
    expect(within(cloze).getByRole('button', { name: 'Delete card 3' })).toBeInTheDocument();
    expect(within(cloze).queryByRole('button', { name: 'Edit card 2' })).toBeNull();
  });

  it('opens a cloze note, names the card a removed cloze deletes, and saves it with PUT /notes/{id}', async () => {
    const { calls, dialog } = await openCardsTab({
      'GET /notes/n-cloze': () => json(200, clozeNote),
      'PUT /notes/n-cloze': (call) =>
        json(200, { note: { ...clozeNote, fields: bodyOf(call).fields }, cards: clozeCards.slice(0, 1) }),
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit note of cards 2 to 3' }));
    const editor = await within(dialog).findByRole('form', { name: 'Edit note' });
    expect(within(editor).getByText(`${messages.noteTypeLegend}: Cloze`)).toBeInTheDocument();
    const text = within(editor).getByLabelText('Text');
    expect(text).toHaveValue(clozeFields.text);
    expect(within(editor).getByLabelText('Extra (optional)')).toHaveValue('Cell biology');

    fireEvent.change(text, { target: { value: 'The {{c1::mitochondrion}} makes ATP.' } });
    expect(within(editor).getByRole('status')).toHaveTextContent(
      'Saving deletes the cards of the clozes no longer in the text (c2), with their review history.',
    );
    fireEvent.click(within(editor).getByRole('button', { name: 'Save note' }));
    await waitFor(() => expect(within(dialog).queryByRole('form', { name: 'Edit note' })).toBeNull());
    expect(posted(calls, '/notes/n-cloze')).toEqual([
      { fields: { text: 'The {{c1::mitochondrion}} makes ATP.', extra: 'Cell biology' } },
    ]);
  });

  it('a basic-looking card the server says belongs to a note of several cards opens that note', async () => {
    // Only the reversed note's first card is in the list (its sibling not loaded yet): it looks like a basic card.
    const { calls, dialog } = await openCardsTab(
      {
        [`GET /decks/${deckId}/cards`]: () => json(200, { cards: [reversedCards[0]], next_cursor: null }),
        'PUT /cards/r1': () => json(422, { detail: messages.editNoteInstead, code: 'edit_note_instead' }),
        'GET /notes/n-rev': () =>
          json(200, { ...clozeNote, _id: 'n-rev', type: 'reversed', fields: { front: 'la casa', back: 'the house' } }),
      },
      'Card 1',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit card 1' }));
    fireEvent.change(within(dialog).getByLabelText('Answer'), { target: { value: 'the home' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
    const editor = await within(dialog).findByRole('form', { name: 'Edit note' });
    expect(within(editor).getByRole('status')).toHaveTextContent(messages.editNoteInstead);
    expect(within(editor).getByLabelText('Front')).toHaveValue('la casa');
    expect(within(editor).getByLabelText('Back')).toHaveValue('the house');
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.path)).toEqual(['/cards/r1']);
  });
});

describe('review of cloze and reversed cards', () => {
  it('shows a cloze card’s [hint] and [...], its answer in bold, and math inside a deletion', async () => {
    const [mathCard] = cardsOf('n-math', 'cloze', { text: 'Energy: {{c1::$E = mc^2$::formula}}, {{c1::exactly}}.' }, [
      'm1',
    ]);
    const due: DueCard[] = [
      {
        ...(mathCard as Card),
        next_due: {
          pass: new Date(Date.now() + 600_000).toISOString(),
          fail: new Date(Date.now() + 60_000).toISOString(),
        },
        last_review: null,
        memory: { stability: 0, difficulty: 0, scheduled_days: 0, learning_steps: 0 },
      },
    ];
    start({ 'GET /cards/due': () => json(200, due) });
    fireEvent.click(await screen.findByRole('button', { name: 'Review Deck: Biology' }, { timeout: 4000 }));
    const card = await screen.findByTestId('swipe-card');
    await within(card).findByText('Energy: [formula], [...].');
    fireEvent.click(screen.getByRole('button', { name: messages.reviewShowAnswer }));
    const back = card.querySelector('.swipe-card__face--back') as HTMLElement;
    await waitFor(() => expect(back.querySelector('strong .katex')).not.toBeNull());
    expect(within(back).getByText('exactly', { selector: 'strong' })).toBeInTheDocument();
    expect(back).not.toHaveTextContent('**');
  });
});
