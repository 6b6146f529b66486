import type { Deck } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type fakeServer, json, never } from '../../../test/fake-server';
import { biologyDeck, freeQuota } from '../../../test/fixtures';
import { renderApp, signedInServer } from '../../../test/render-app';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';
import { saveBannerMs } from './create-rules';

type Routes = Parameters<typeof fakeServer>[0];

const deck = biologyDeck;
const quota = freeQuota;

const generated = {
  cards: [
    { question: 'What is a cell?', answer: 'The basic unit of life.' },
    { question: 'What is DNA?', answer: 'The molecule of heredity.' },
    { question: 'What is ATP?', answer: 'The energy currency of the cell.' },
  ],
  cost: 1,
  remaining: 9,
};

/** Renders /create for a signed-in user; the tutorial counts as seen unless `firstVisit`. */
function renderCreate(routes: Routes = {}, options: { firstVisit?: boolean; remaining?: number } = {}) {
  if (!options.firstVisit) localStore.set(storageKeys.onboardingShown, 'true');
  const server = signedInServer({
    'GET /decks': () => json(200, [deck]),
    'GET /api/subscription-status': () => json(200, quota(options.remaining ?? 10)),
    ...routes,
  });
  const forms: FormData[] = [];
  const signals: AbortSignal[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (init?.body instanceof FormData) forms.push(init.body);
    if (init?.body instanceof FormData && init.signal) signals.push(init.signal);
    return server.fetch(input, init);
  };
  const view = renderApp('/create', fetch);
  return { ...view, calls: server.calls, forms, signals };
}

const textArea = () => screen.getByLabelText('Text to turn into flashcards');
const fileInput = () => screen.getByLabelText(/Or upload a file/);
const typeText = (value: string) => fireEvent.change(textArea(), { target: { value } });
const generateButton = () => screen.findByRole('button', { name: /^Generate Flashcards/ });

function pickFile(name: string, type: string, size?: number) {
  const file = new File(['some content'], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  fireEvent.change(fileInput(), { target: { files: [file] } });
  return file;
}

async function generateFromText(routes: Routes = {}) {
  const view = renderCreate({ 'POST /create': () => json(200, generated), ...routes });
  await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
  typeText('Cells are the basic unit of life.');
  fireEvent.click(await generateButton());
  await screen.findByRole('heading', { name: 'Generated Cards' });
  return view;
}

const cardItem = (n: number) => screen.getByRole('listitem', { name: `Card ${n}` });
const storedJson = (key: (typeof storageKeys)[keyof typeof storageKeys]) => JSON.parse(localStore.get(key) ?? 'null');

afterEach(() => {
  vi.useRealTimers();
});

describe('create page onboarding', () => {
  it('shows the 3-step tutorial on the first visit only, and Show Tutorial reopens it', async () => {
    const first = renderCreate({}, { firstVisit: true });
    expect(await screen.findByRole('dialog', { name: 'Welcome' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
    expect(localStore.get(storageKeys.onboardingShown)).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('dialog', { name: 'Add Your Content' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('dialog', { name: 'Welcome' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('dialog', { name: 'Review & Save' })).toBeInTheDocument();
    expect(screen.getByText('Step 3 of 3')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Get Started' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    first.unmount();

    // Coming back: the flag is kept, so no tutorial, but the first-time helper and Show Tutorial are there.
    renderCreate({}, { firstVisit: true });
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Getting started' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show Tutorial' }));
    expect(screen.getByRole('dialog', { name: 'Welcome' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('create page input rules', () => {
  it('counts characters and stops at 10,000 with the limit message', async () => {
    renderCreate();
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    expect(screen.getByText('0 / 10000 characters')).toBeInTheDocument();
    typeText('Hello');
    expect(screen.getByText('5 / 10000 characters')).toBeInTheDocument();
    typeText('a'.repeat(10_000));
    expect(screen.getByText('10000 / 10000 characters')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    typeText('b'.repeat(10_001));
    expect(textArea()).toHaveValue('b'.repeat(10_000));
    expect(screen.getByText('10000 / 10000 characters')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(messages.textTooLong);
  });

  it('asks for text or a file before generating, and sends nothing', async () => {
    const { calls } = renderCreate();
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    typeText('   ');
    fireEvent.click(await generateButton());
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Please enter some text or upload a file to generate flashcards',
    );
    expect(calls.some((call) => call.path === '/create')).toBe(false);
  });

  it('refuses a file over 10 MB and a file of another type, with the pptx variant', async () => {
    renderCreate();
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    pickFile('big.pdf', 'application/pdf', 10_485_761);
    expect(screen.getByRole('alert')).toHaveTextContent('File is too large. Maximum file size is 10MB.');
    expect(screen.queryByRole('button', { name: 'Remove file' })).not.toBeInTheDocument();
    pickFile('movie.mp4', 'video/mp4');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Invalid file type. Please upload PDF, TXT, DOCX, PPTX, JPG, or PNG.',
    );
    pickFile('slides.pptx', 'application/zip');
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid file type or unknown MIME type...');
    pickFile('notes.pdf', 'application/pdf', 10_485_760);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('notes.pdf (10.0 MB)')).toBeInTheDocument();
  });

  it('shows the cost of each input kind on the Generate button', async () => {
    renderCreate();
    expect(await generateButton()).toHaveTextContent('Generate Flashcards (Cost: 1)');
    pickFile('notes.pdf', 'application/pdf');
    expect(await generateButton()).toHaveTextContent('Generate Flashcards (Cost: 3)');
    pickFile('photo.png', 'image/png');
    expect(await generateButton()).toHaveTextContent('Generate Flashcards (Cost: 3)');
    pickFile('slides.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation');
    expect(await generateButton()).toHaveTextContent('Generate Flashcards (Cost: 5)');
    fireEvent.click(screen.getByRole('button', { name: 'Remove file' }));
    expect(await generateButton()).toHaveTextContent('Generate Flashcards (Cost: 1)');
    expect(screen.getByText('Generation may take up to 2 minutes...')).toBeInTheDocument();
  });

  it("replaces the Generate button with 'Need X, Have Y.' and an Upgrade link when the quota is short", async () => {
    renderCreate({}, { remaining: 2 });
    expect(await generateButton()).toHaveTextContent('Cost: 1');
    pickFile('notes.pdf', 'application/pdf');
    expect(await screen.findByText(/Need 3, Have 2\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Generate Flashcards/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/account');
    pickFile('slides.pptx', '');
    expect(screen.getByText(/Need 5, Have 2\./)).toBeInTheDocument();
  });
});

describe('generating', () => {
  it('posts the text as multipart with the file, disables the button while generating, refreshes the quota', async () => {
    let answer: (response: Response) => void = () => {};
    const { calls, forms } = renderCreate({
      'POST /create': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    typeText('Cells are the basic unit of life.');
    const file = pickFile('notes.pdf', 'application/pdf');
    fireEvent.click(await generateButton());
    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeDisabled();
    expect(forms).toHaveLength(1);
    expect(forms[0]?.get('text')).toBe('Cells are the basic unit of life.');
    const sentFile = forms[0]?.get('file');
    expect(sentFile instanceof File ? sentFile.name : null).toBe(file.name);
    const statusCalls = () => calls.filter((call) => call.path === '/api/subscription-status').length;
    const before = statusCalls();
    await act(async () => answer(json(200, generated)));
    expect(await screen.findByRole('heading', { name: 'Generated Cards' })).toBeInTheDocument();
    expect(within(cardItem(1)).getByText('What is a cell?')).toBeInTheDocument();
    expect(within(cardItem(3)).getByText('The energy currency of the cell.')).toBeInTheDocument();
    expect(screen.getByText('3 of 3 selected')).toBeInTheDocument();
    await waitFor(() => expect(statusCalls()).toBe(before + 1));
    expect(screen.getByRole('button', { name: /^Generate Flashcards/ })).toBeEnabled();
  });

  it('sends a text-only generation without a file field', async () => {
    const { forms } = await generateFromText();
    expect(forms[0]?.get('text')).toBe('Cells are the basic unit of life.');
    expect(forms[0]?.has('file')).toBe(false);
  });

  it.each([
    [
      'a 402',
      () => json(402, { detail: 'Not enough.', code: 'insufficient_quota' }),
      'Insufficient quota. Please upgrade your plan or purchase more generations.',
    ],
    [
      'another server reply, with its detail',
      () => json(415, { detail: messages.invalidFileType, code: 'unsupported_file_type' }),
      `Server error: ${messages.invalidFileType}`,
    ],
    [
      'another server reply without a detail',
      () => json(500, null),
      'Server error: Failed to generate flashcards. Please try again.',
    ],
    [
      'no response',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'No response from server. Please check your connection and try again.',
    ],
    ['an unusable reply', () => json(200, { nothing: true }), 'Failed to generate flashcards. Please try again.'],
  ])('shows the message for %s', async (_case, handler, text) => {
    const { calls } = renderCreate({ 'POST /create': handler });
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    typeText('Some text');
    fireEvent.click(await generateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.getByRole('alert').textContent).toBe(text);
    expect(screen.queryByRole('heading', { name: 'Generated Cards' })).not.toBeInTheDocument();
    // The quota is refreshed after a failed generation too (the server refunds it).
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/subscription-status').length).toBe(2));
  });

  it('times out after 180 seconds with the timeout message', async () => {
    renderCreate({ 'POST /create': never });
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    typeText('Some text');
    const button = await generateButton();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(button);
    await screen.findByRole('button', { name: 'Generating...' });
    await act(async () => vi.advanceTimersByTime(179_000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(1_500));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Request timed out. The input might be too large or the server is busy. Please try with a smaller text or try again later.',
    );
  });
});

describe('generated cards', () => {
  it('selects, deselects, selects all and deselects all', async () => {
    await generateFromText();
    const box = (n: number) => within(cardItem(n)).getByRole('checkbox');
    expect(box(1)).toBeChecked();
    expect(screen.getByRole('button', { name: 'Deselect All' })).toBeInTheDocument();
    fireEvent.click(box(2));
    expect(box(2)).not.toBeChecked();
    expect(screen.getByText('2 of 3 selected')).toBeInTheDocument();
    expect(storedJson(storageKeys.selectedCards)).toEqual([0, 2]);
    fireEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect([box(1), box(2), box(3)].every((b) => (b as HTMLInputElement).checked)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect([box(1), box(2), box(3)].some((b) => (b as HTMLInputElement).checked)).toBe(false);
    expect(screen.getByText('0 of 3 selected')).toBeInTheDocument();
    expect(localStore.get(storageKeys.selectedCards)).toBeNull();
    fireEvent.click(box(3));
    expect(storedJson(storageKeys.selectedCards)).toEqual([2]);
  });

  it('edits a card, refusing an empty side', async () => {
    await generateFromText();
    fireEvent.click(within(cardItem(2)).getByRole('button', { name: 'Edit card 2' }));
    const item = cardItem(2);
    fireEvent.change(within(item).getByLabelText('Question'), { target: { value: '  ' } });
    fireEvent.click(within(item).getByRole('button', { name: 'Save Card' }));
    expect(within(item).getByRole('alert')).toHaveTextContent('Question and answer cannot be empty');
    fireEvent.change(within(item).getByLabelText('Question'), { target: { value: 'What does DNA stand for?' } });
    fireEvent.change(within(item).getByLabelText('Answer'), { target: { value: '' } });
    fireEvent.click(within(item).getByRole('button', { name: 'Save Card' }));
    expect(within(item).getByRole('alert')).toHaveTextContent('Question and answer cannot be empty');
    fireEvent.change(within(item).getByLabelText('Answer'), { target: { value: 'Deoxyribonucleic acid' } });
    fireEvent.click(within(item).getByRole('button', { name: 'Save Card' }));
    expect(within(cardItem(2)).getByText('What does DNA stand for?')).toBeInTheDocument();
    expect(within(cardItem(2)).getByText('Deoxyribonucleic acid')).toBeInTheDocument();
    expect(storedJson(storageKeys.generatedCards)[1]).toEqual({
      question: 'What does DNA stand for?',
      answer: 'Deoxyribonucleic acid',
    });

    // Cancel keeps the card as it was.
    fireEvent.click(within(cardItem(1)).getByRole('button', { name: 'Edit card 1' }));
    fireEvent.change(within(cardItem(1)).getByLabelText('Question'), { target: { value: 'Changed' } });
    fireEvent.click(within(cardItem(1)).getByRole('button', { name: 'Cancel' }));
    expect(within(cardItem(1)).getByText('What is a cell?')).toBeInTheDocument();
  });
});

describe('saving', () => {
  it('needs a selected card, then a deck (or a name for a new one)', async () => {
    const { calls } = await generateFromText();
    fireEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    fireEvent.click(screen.getByRole('button', { name: /^Save Selected Cards/ }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one card to save');
    fireEvent.click(within(cardItem(1)).getByRole('checkbox'));
    fireEvent.change(screen.getByLabelText('New deck name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: /^Save Selected Cards/ }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please select a deck to save cards to'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel new deck' }));
    fireEvent.click(screen.getByRole('button', { name: /^Save Selected Cards/ }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please select a deck to save cards to'));
    expect(calls.some((call) => call.method === 'POST' && call.path === '/decks')).toBe(false);
    expect(calls.some((call) => call.path === '/save-cards')).toBe(false);
  });

  it('saves the selected cards to the chosen deck, clears everything and shows the banner for exactly 5 s', async () => {
    const { calls } = await generateFromText({
      'POST /save-cards': () => json(201, { saved: 2 }),
    });
    fireEvent.click(within(cardItem(2)).getByRole('checkbox'));
    await within(await screen.findByLabelText('Deck')).findByRole('option', { name: 'Biology' });
    fireEvent.change(screen.getByLabelText('Deck'), { target: { value: deck._id } });
    // The clock stands still from the click on: only the banner's own 5 s may pass.
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Save Selected Cards (2)' }));
    for (let i = 0; i < 50 && !screen.queryByRole('status'); i++) {
      await act(async () => vi.advanceTimersByTimeAsync(0));
    }
    expect(screen.getByRole('status')).toHaveTextContent('2 cards saved to "Biology".');
    expect(screen.getByRole('status')).toHaveFocus();
    const save = calls.find((call) => call.path === '/save-cards');
    expect(JSON.parse(save?.body ?? '')).toEqual({
      deck_id: deck._id,
      cards: [generated.cards[0], generated.cards[2]],
    });
    expect(screen.queryByRole('heading', { name: 'Generated Cards' })).not.toBeInTheDocument();
    expect(textArea()).toHaveValue('');
    expect(localStore.get(storageKeys.generatedCards)).toBeNull();
    expect(localStore.get(storageKeys.selectedCards)).toBeNull();
    expect(localStore.get(storageKeys.inputText)).toBeNull();
    await act(async () => vi.advanceTimersByTime(saveBannerMs - 1));
    expect(screen.getByText('2 cards saved to "Biology".')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(1));
    expect(screen.queryByText('2 cards saved to "Biology".')).not.toBeInTheDocument();
    expect(saveBannerMs).toBe(5000);
  });

  it('shows the save failure and keeps the cards', async () => {
    await generateFromText({ 'POST /save-cards': () => json(500, null) });
    await within(await screen.findByLabelText('Deck')).findByRole('option', { name: 'Biology' });
    fireEvent.change(screen.getByLabelText('Deck'), { target: { value: deck._id } });
    fireEvent.click(screen.getByRole('button', { name: /^Save Selected Cards/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save flashcards. Please try again.');
    expect(screen.getByRole('heading', { name: 'Generated Cards' })).toBeInTheDocument();
    expect(storedJson(storageKeys.generatedCards)).toHaveLength(3);
  });

  it('creates a deck (not with an empty name) and picks it', async () => {
    const created: Deck = { ...deck, _id: '65a1b2c3d4e5f6a7b8c9d0bb', name: 'Chemistry' };
    let decks = [deck];
    const { calls } = await generateFromText({
      'GET /decks': () => json(200, decks),
      'POST /decks': () => {
        decks = [deck, created];
        return json(201, created);
      },
    });
    // The form is open with the name taken from the text; emptied, it refuses to create.
    expect(screen.getByLabelText('New deck name')).toHaveValue('Cells are the basic unit of life.');
    fireEvent.change(screen.getByLabelText('New deck name'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Deck' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Deck name cannot be empty');
    fireEvent.change(screen.getByLabelText('New deck name'), { target: { value: '  Chemistry ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Deck' }));
    await waitFor(() => expect(screen.getByLabelText('Deck')).toHaveValue(created._id));
    expect(within(screen.getByLabelText('Deck')).getByRole('option', { name: 'Chemistry' })).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST' && call.path === '/decks')?.body).toBe('deck_name=Chemistry');
    expect(screen.queryByLabelText('New deck name')).not.toBeInTheDocument();
  });

  it('reports a failed deck creation and a failed deck list', async () => {
    await generateFromText({
      'GET /decks': () => json(500, null),
      'POST /decks': () => json(500, null),
    });
    expect(
      await screen.findByText('Failed to load decks. Please try again later.', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('New deck name'), { target: { value: 'Chemistry' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Deck' }));
    expect(await screen.findByText('Failed to create deck. Please try again.')).toBeInTheDocument();
    // Cancelled, the form gives way to the New Deck button, which opens it empty.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel new deck' }));
    fireEvent.click(screen.getByRole('button', { name: 'New Deck' }));
    expect(screen.getByLabelText('New deck name')).toHaveValue('');
  });
});

describe('duplicates of a deck (issue 36)', () => {
  const checked = {
    cards: [
      { question: 'What is a cell?', answer: 'The basic unit of life.', source: { quote: 'Cells' }, verified: true },
      {
        question: 'What is the unit of life?',
        answer: 'The cell.',
        source: { quote: 'Cells' },
        verified: true,
        duplicate_of: { card_id: 'c9aaaaaaaaaaaaaaaaaaaaaa', question: 'What is the basic unit of life?' },
      },
      { question: 'Who found cells?', answer: 'Hooke', source: { quote: 'Hooke, 1665' }, verified: false },
    ],
    cost: 1,
    remaining: 9,
  };

  it('sends deck_id only when a deck is chosen to check against', async () => {
    const { forms } = renderCreate({ 'POST /create': () => json(200, generated) });
    const check = await screen.findByLabelText(messages.createCheckDeck);
    expect(check).toHaveValue('');
    expect(within(check).getByRole('option', { name: messages.createCheckDeckNone })).toBeInTheDocument();
    typeText('Cells are the basic unit of life.');
    fireEvent.click(await generateButton());
    await screen.findByRole('heading', { name: 'Generated Cards' });
    expect(forms[0]?.has('deck_id')).toBe(false);

    fireEvent.change(check, { target: { value: deck._id } });
    fireEvent.click(await generateButton());
    await waitFor(() => expect(forms).toHaveLength(2));
    expect(forms[1]?.get('deck_id')).toBe(deck._id);
  });

  it('leaves a duplicate unselected naming the card it repeats, and an unverified card unselected with its reason', async () => {
    renderCreate({ 'POST /create': () => json(200, checked) });
    fireEvent.change(await screen.findByLabelText(messages.createCheckDeck), { target: { value: deck._id } });
    typeText('Cells are the basic unit of life. Hooke, 1665.');
    fireEvent.click(await generateButton());
    await screen.findByRole('heading', { name: 'Generated Cards' });
    expect(within(cardItem(1)).getByRole('checkbox')).toBeChecked();
    expect(within(cardItem(2)).getByRole('checkbox')).not.toBeChecked();
    expect(
      within(cardItem(2)).getByText(
        'Not selected: your deck already has this fact: "What is the basic unit of life?".',
      ),
    ).toBeInTheDocument();
    expect(within(cardItem(3)).getByRole('checkbox')).not.toBeChecked();
    expect(within(cardItem(3)).getByText(messages.sourceUnverified)).toBeInTheDocument();
    expect(screen.getByText('1 of 3 selected')).toBeInTheDocument();
    // The deck checked against is where Save goes unless the learner picks another.
    expect(screen.getByLabelText('Deck')).toHaveValue(deck._id);
    expect(screen.queryByLabelText('New deck name')).not.toBeInTheDocument();
  });

  it('says how many selected cards the deck already had and skipped on save', async () => {
    const { calls } = await generateFromText({
      'POST /save-cards': () => json(201, { saved: 1, cards: [], skipped_duplicates: 2 }),
    });
    await within(await screen.findByLabelText('Deck')).findByRole('option', { name: 'Biology' });
    fireEvent.change(screen.getByLabelText('Deck'), { target: { value: deck._id } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Selected Cards (3)' }));
    expect(
      await screen.findByText('1 card saved to "Biology". 2 cards were already in the deck and were skipped.'),
    ).toBeInTheDocument();
    expect(JSON.parse(calls.find((call) => call.path === '/save-cards')?.body ?? '').cards).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Study this card now' })).toBeInTheDocument();
  });
});

describe('local persistence', () => {
  it('keeps the text, cards and selection and restores them on return', async () => {
    const first = await generateFromText();
    fireEvent.click(within(cardItem(1)).getByRole('checkbox'));
    expect(localStore.get(storageKeys.inputText)).toBe('Cells are the basic unit of life.');
    expect(storedJson(storageKeys.generatedCards)).toEqual(generated.cards);
    expect(storedJson(storageKeys.selectedCards)).toEqual([1, 2]);
    first.unmount();

    renderCreate();
    expect(await screen.findByRole('heading', { name: 'Generated Cards' })).toBeInTheDocument();
    expect(textArea()).toHaveValue('Cells are the basic unit of life.');
    expect(within(cardItem(1)).getByRole('checkbox')).not.toBeChecked();
    expect(within(cardItem(2)).getByRole('checkbox')).toBeChecked();
    expect(within(cardItem(3)).getByText('What is ATP?')).toBeInTheDocument();
    expect(screen.getByText('2 of 3 selected')).toBeInTheDocument();
  });

  it('keeps cards that arrive after the user left the page', async () => {
    let answer: (response: Response) => void = () => {};
    const first = renderCreate({ 'POST /create': () => new Promise<Response>((resolve) => (answer = resolve)) });
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    typeText('Cells are the basic unit of life.');
    fireEvent.click(await generateButton());
    await screen.findByRole('button', { name: 'Generating...' });
    first.unmount();
    await act(async () => answer(json(200, generated)));
    await waitFor(() => expect(storedJson(storageKeys.generatedCards)).toEqual(generated.cards));

    renderCreate();
    expect(await screen.findByRole('heading', { name: 'Generated Cards' })).toBeInTheDocument();
    expect(screen.getByText('3 of 3 selected')).toBeInTheDocument();
  });

  it('ignores malformed stored data', async () => {
    localStore.set(storageKeys.generatedCards, '{not json');
    localStore.set(storageKeys.selectedCards, '[0, 5, "x"]');
    renderCreate();
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    expect(screen.queryByRole('heading', { name: 'Generated Cards' })).not.toBeInTheDocument();
    await waitFor(() => expect(localStore.get(storageKeys.selectedCards)).toBeNull());
    expect(localStore.get(storageKeys.generatedCards)).toBeNull();
  });
});

/** A `text/event-stream` response the test writes to as it goes; it fails like a closed connection on `signal`. */
function eventStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: () =>
      new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } }),
    send: (event: string, data: unknown) =>
      act(async () => controller?.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`))),
    comment: () => act(async () => controller?.enqueue(encoder.encode(': keep-alive\n\n'))),
    end: () => act(async () => controller?.close()),
    abortWith: (signal: AbortSignal) =>
      signal.addEventListener('abort', () => controller?.error(new DOMException('aborted', 'AbortError'))),
  };
}

/**
 * The create page with POST /create answering from an event stream the test writes: `fill` gives the input (notes by
 * default), then Generate is clicked.
 */
async function generateStreaming(fill: () => void = () => typeText('Cells are the basic unit of life.')) {
  const stream = eventStream();
  const view = renderCreate({ 'POST /create': () => stream.response() });
  await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
  fill();
  fireEvent.click(await generateButton());
  return { ...view, stream };
}

const [cell, dna, atp] = generated.cards as [
  (typeof generated.cards)[0],
  (typeof generated.cards)[0],
  (typeof generated.cards)[0],
];

describe('streaming generation', () => {
  it('asks for an event stream and shows each card as it arrives, with a progress bar and a sentence', async () => {
    const { calls, stream } = await generateStreaming();
    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeDisabled();
    expect(calls.find((call) => call.path === '/create')?.headers.get('accept')).toBe('text/event-stream');
    expect(screen.getByText(messages.generationNote)).toBeInTheDocument();
    expect(screen.getByText('Starting…')).toBeInTheDocument();

    await stream.send('progress', { stage: 'generating', done: 0, total: 3 });
    expect(await screen.findByText('Writing cards… 0 so far')).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: 'Generation progress' });
    expect(bar).toHaveAttribute('max', '3');
    expect(bar).toHaveAttribute('value', '0');

    // DNA's chunk answers first; its card is readable at once, and stored.
    await stream.send('card', dna);
    await stream.send('progress', { stage: 'generating', done: 1, total: 3 });
    await stream.comment();
    expect(await screen.findByText('Writing cards… 1 so far')).toBeInTheDocument();
    expect(within(cardItem(1)).getByText('What is DNA?')).toBeInTheDocument();
    expect(JSON.parse(localStore.get(storageKeys.generatedCards) ?? '[]')).toEqual([dna]);
    expect(screen.getByRole('button', { name: 'Generating...' })).toBeDisabled();

    await stream.send('card', cell);
    expect(within(cardItem(2)).getByText('What is a cell?')).toBeInTheDocument();
    // Choices made while streaming: leave the cell out.
    fireEvent.click(within(cardItem(2)).getByRole('checkbox'));
    expect(screen.getByText('1 of 2 selected')).toBeInTheDocument();

    await stream.send('done', generated);
    await stream.end();
    // The final list in source order replaces the streamed one; the cell stays left out, ATP comes selected.
    await waitFor(() => expect(within(cardItem(1)).getByText('What is a cell?')).toBeInTheDocument());
    expect(within(cardItem(2)).getByText('What is DNA?')).toBeInTheDocument();
    expect(within(cardItem(3)).getByText('What is ATP?')).toBeInTheDocument();
    expect(screen.getByText('2 of 3 selected')).toBeInTheDocument();
    expect(within(cardItem(1)).getByRole('checkbox')).not.toBeChecked();
    expect(JSON.parse(localStore.get(storageKeys.generatedCards) ?? '[]')).toEqual([cell, dna, atp]);
    expect(JSON.parse(localStore.get(storageKeys.selectedCards) ?? '[]')).toEqual([1, 2]);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Generate Flashcards/ })).toBeEnabled();
  });

  it('says which page of a PDF is being read', async () => {
    const { stream } = await generateStreaming(() => pickFile('notes.pdf', 'application/pdf'));
    await stream.send('progress', { stage: 'extracting', done: 12, total: 300 });
    expect(await screen.findByText('Reading page 12 of 300…')).toBeInTheDocument();
    await stream.end();
  });

  it('Cancel stops the request, keeps the cards that arrived, and says so', async () => {
    const { signals, stream } = await generateStreaming();
    await screen.findByRole('button', { name: 'Generating...' });
    const signal = signals.at(-1);
    if (!signal) throw new Error('no request signal');
    stream.abortWith(signal);
    await stream.send('card', cell);
    await screen.findByText('What is a cell?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(signal.aborted).toBe(true);
    expect(await screen.findByText(messages.generationCancelled)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(within(cardItem(1)).getByText('What is a cell?')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Generate Flashcards/ })).toBeEnabled();
  });

  it.each([
    [
      { status: 502, code: 'ai_unavailable', detail: serverMessages.aiUnavailable },
      `Server error: ${serverMessages.aiUnavailable}`,
    ],
    [{ status: 402, code: 'insufficient_quota', detail: messages.insufficientQuota }, messages.insufficientQuota],
    [
      { status: 504, code: 'ai_timeout', detail: messages.generationTimeout },
      `Server error: ${messages.generationTimeout}`,
    ],
  ])('shows the spec’s text for an error event %#', async (error, text) => {
    const { stream } = await generateStreaming();
    await stream.send('progress', { stage: 'generating', done: 0, total: 3 });
    await stream.send('error', error);
    await stream.end();
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it('a stream that ends without done or error is a lost connection', async () => {
    const { stream } = await generateStreaming();
    await stream.send('card', cell);
    await stream.end();
    expect((await screen.findByRole('alert')).textContent).toBe(messages.noResponse);
    // What arrived stays.
    expect(within(cardItem(1)).getByText('What is a cell?')).toBeInTheDocument();
  });
});
