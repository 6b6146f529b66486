import type { GenerateResponse } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { noSubscription } from '@flashcards/shared/plans';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type fakeServer, json } from '../../../test/fake-server';
import { biologyDeck } from '../../../test/fixtures';
import { renderApp, signedInServer } from '../../../test/render-app';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';

const deck = biologyDeck;

const mitochondria = {
  type: 'cloze' as const,
  fields: { text: '{{c1::Mitochondria}} release energy from {{c2::glucose}}.' },
  question: '[...] release energy from glucose.',
  answer: '**Mitochondria** release energy from glucose.',
  source: { quote: 'Mitochondria release energy from glucose.' },
  verified: true,
};
const atp = {
  question: 'Why do cells need ATP?',
  answer: 'It carries the energy for cell work.',
  source: { quote: 'Cells need ATP: it carries the energy for cell work.' },
  verified: true,
};
const generated: GenerateResponse = { cards: [mitochondria, atp], cost: 1, remaining: 9 };

function renderCreate(routes: Parameters<typeof fakeServer>[0] = {}) {
  localStore.set(storageKeys.onboardingShown, 'true');
  const server = signedInServer({
    'GET /decks': () => json(200, [deck]),
    'GET /api/subscription-status': () => json(200, { ...noSubscription, free_quota: 10, free_used: 0, remaining: 10 }),
    'POST /create': () => json(200, generated),
    'POST /save-cards': () => json(201, { saved: 3 }),
    ...routes,
  });
  const forms: FormData[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (init?.body instanceof FormData) forms.push(init.body);
    return server.fetch(input, init);
  };
  const { router } = renderApp('/create', fetch);
  return { calls: server.calls, forms, router };
}

const cardItem = (n: number) => screen.getByRole('listitem', { name: `Card ${n}` });

async function generate(style?: 'Basic' | 'Cloze' | 'Mixed') {
  const view = renderCreate();
  await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
  if (style) fireEvent.click(screen.getByRole('radio', { name: new RegExp(`^${style}`) }));
  fireEvent.change(screen.getByLabelText('Text to turn into flashcards'), {
    target: { value: 'Mitochondria release energy from glucose.' },
  });
  fireEvent.click(await screen.findByRole('button', { name: /^Generate Flashcards/ }));
  await screen.findByRole('heading', { name: 'Generated Cards' });
  return view;
}

describe('Create page: card style and cloze notes', () => {
  it('offers Basic, Cloze and Mixed as one labelled radio group, Basic first, and sends the choice', async () => {
    const { forms } = await generate('Cloze');
    const group = screen.getByRole('group', { name: messages.cardStyleLegend });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['basic', 'cloze', 'mixed']);
    expect(within(group).getByRole('radio', { name: /^Cloze/ })).toBeChecked();
    expect(forms[0]?.get('card_style')).toBe('cloze');
    expect(localStore.get(storageKeys.cardStyle)).toBe('cloze');
  });

  it('sends basic unless another style is chosen', async () => {
    const { forms } = await generate();
    expect(screen.getByRole('radio', { name: /^Basic/ })).toBeChecked();
    expect(forms[0]?.get('card_style')).toBe('basic');
  });

  it('starts from the stored style', async () => {
    localStore.set(storageKeys.cardStyle, 'mixed');
    renderCreate();
    expect(await screen.findByRole('radio', { name: /^Mixed/ })).toBeChecked();
  });

  it('reads a stored style it does not know as basic', async () => {
    localStore.set(storageKeys.cardStyle, 'nonsense');
    renderCreate();
    expect(await screen.findByRole('radio', { name: /^Basic/ })).toBeChecked();
  });

  it('shows a cloze note as its text with each deletion marked and numbered', async () => {
    await generate('Cloze');
    const item = cardItem(1);
    expect(within(item).getByText(messages.clozeLabel)).toBeInTheDocument();
    const marks = item.querySelectorAll('mark.cloze-deletion');
    expect([...marks].map((mark) => mark.textContent)).toEqual(['Blank 1: Mitochondria1', 'Blank 2: glucose2']);
    expect(within(item).getByText('Makes 2 cards, one per number')).toBeInTheDocument();
    // A basic card beside it keeps its question and answer.
    expect(within(cardItem(2)).getByText('Why do cells need ATP?')).toBeInTheDocument();
  });

  it('edits a cloze note as cloze text: refuses a text without a deletion, keeps it a cloze note', async () => {
    await generate('Cloze');
    fireEvent.click(within(cardItem(1)).getByRole('button', { name: 'Edit card 1' }));
    const field = screen.getByLabelText(messages.generatedClozeTextLabel);
    expect(field).toHaveValue(mitochondria.fields.text);
    expect(field).toHaveAccessibleDescription(messages.clozeTextHelp);
    fireEvent.change(field, { target: { value: 'Mitochondria release energy.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Card' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.clozeMissing);
    fireEvent.change(field, { target: { value: '{{c1::Mitochondria}} release {{c1::energy::what}}.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Card' }));
    await waitFor(() => expect(cardItem(1).querySelectorAll('mark.cloze-deletion')).toHaveLength(2));
    expect(within(cardItem(1)).getByText('Makes 1 card')).toBeInTheDocument();
    const stored = JSON.parse(localStore.get(storageKeys.generatedCards) ?? '[]');
    expect(stored[0]).toEqual({
      type: 'cloze',
      fields: { text: '{{c1::Mitochondria}} release {{c1::energy::what}}.' },
      question: '[...] release [what].',
      answer: '**Mitochondria** release **energy**.',
      source: mitochondria.source,
      verified: true,
    });
  });

  it('saves a cloze note as { type, fields } and a basic card as { question, answer }, each with its source', async () => {
    const { calls } = await generate('Mixed');
    await within(await screen.findByLabelText('Deck')).findByRole('option', { name: 'Biology' });
    fireEvent.change(screen.getByLabelText('Deck'), { target: { value: deck._id } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Selected Cards (2)' }));
    await screen.findByText('2 cards saved to "Biology".');
    const save = calls.find((call) => call.path === '/save-cards');
    expect(JSON.parse(save?.body ?? '')).toEqual({
      deck_id: deck._id,
      cards: [
        { type: 'cloze', fields: { text: mitochondria.fields.text }, source: mitochondria.source },
        { question: atp.question, answer: atp.answer, source: atp.source },
      ],
    });
  });

  it('drops a stored cloze card whose fields are broken, keeps the well-formed ones', async () => {
    localStore.set(
      storageKeys.generatedCards,
      JSON.stringify([mitochondria, { ...mitochondria, fields: null }, { ...mitochondria, type: 'odd' }, atp]),
    );
    renderCreate();
    await screen.findByRole('heading', { name: 'Generated Cards' });
    expect(screen.getAllByRole('listitem', { name: /^Card \d/ })).toHaveLength(2);
  });
});

describe('Create page: figures of generated cards', () => {
  const figures = ['/media/a1-slide-figure.webp', '/media/b2-slide-figure.webp'];
  const fromSlide = { ...atp, source: { ...atp.source, slide: 2 }, images: figures };

  async function generateWithFigures() {
    const view = renderCreate({ 'POST /create': () => json(200, { cards: [fromSlide], cost: 1, remaining: 9 }) });
    await screen.findByRole('heading', { name: 'Create Cards', level: 1 });
    fireEvent.change(screen.getByLabelText('Text to turn into flashcards'), { target: { value: 'ATP.' } });
    fireEvent.click(await screen.findByRole('button', { name: /^Generate Flashcards/ }));
    await screen.findByRole('heading', { name: 'Generated Cards' });
    await within(await screen.findByLabelText('Deck')).findByRole('option', { name: 'Biology' });
    fireEvent.change(screen.getByLabelText('Deck'), { target: { value: deck._id } });
    return view;
  }

  it('shows the figures as thumbnails, each kept unless unticked, and saves the kept ones with the card', async () => {
    const { calls } = await generateWithFigures();
    const group = within(cardItem(1)).getByRole('group', { name: messages.generatedFiguresLabel });
    const images = within(group).getAllByRole('img');
    expect(images.map((image) => image.getAttribute('src'))).toEqual(figures);
    expect(images.map((image) => image.getAttribute('alt'))).toEqual([
      'Figure 1 of this card',
      'Figure 2 of this card',
    ]);
    const keepFirst = within(group).getByRole('checkbox', { name: 'Keep figure 1' });
    expect(keepFirst).toBeChecked();
    fireEvent.click(keepFirst);
    expect(keepFirst).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Save Selected Cards (1)' }));
    await screen.findByText('1 card saved to "Biology".');
    const save = calls.find((call) => call.path === '/save-cards');
    expect(JSON.parse(save?.body ?? '')).toEqual({
      deck_id: deck._id,
      cards: [{ question: atp.question, answer: atp.answer, source: fromSlide.source, images: [figures[1]] }],
    });
  });

  it('offers each figure for an image occlusion note: the review page with that media name', async () => {
    const { router } = await generateWithFigures();
    const group = within(cardItem(1)).getByRole('group', { name: messages.generatedFiguresLabel });
    const link = within(group).getByRole('link', { name: 'Image occlusion note of figure 2' });
    expect(link).toHaveAttribute('href', '/review');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/review'));
    expect(router.state.location.state).toEqual({ occlusionImage: 'b2-slide-figure.webp' });
  });

  it('a figure unticked can be kept again; with none kept the card is saved without images', async () => {
    const { calls } = await generateWithFigures();
    const group = within(cardItem(1)).getByRole('group', { name: messages.generatedFiguresLabel });
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Keep figure 1' }));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Keep figure 1' }));
    expect(within(group).getByRole('checkbox', { name: 'Keep figure 1' })).toBeChecked();
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Keep figure 1' }));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Keep figure 2' }));
    // The thumbnails stay, so that the learner can change their mind before saving.
    expect(within(group).getAllByRole('img')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Save Selected Cards (1)' }));
    await screen.findByText('1 card saved to "Biology".');
    const save = calls.find((call) => call.path === '/save-cards');
    expect(JSON.parse(save?.body ?? '').cards).toEqual([
      { question: atp.question, answer: atp.answer, source: fromSlide.source },
    ]);
  });
});
