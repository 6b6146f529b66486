/**
 * Card management end to end: a card added by hand (math in the live preview, Ctrl+Enter keeping the form open),
 * found by search and edited; an answer taken back with the Undo button and the U key; the top navigation's Review
 * link ending a session; and a 30,000-card deck's Cards tab scrolled to its last card, a page at a time.
 */
import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ApiCard, type Auth, createDeck, saveCards, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, signInWithToken } from './support/pages';

const browser = useBrowser();

async function deckCards(request: APIRequestContext, auth: Auth, deckId: string): Promise<ApiCard[]> {
  const response = await request.get(`/decks/${deckId}/cards`, { headers: auth });
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiCard[];
}

/** A fresh page and a new user (signed up through the API) owning an empty deck named `prefix` and a time stamp. */
async function ownerOfNewDeck(prefix: string) {
  const page = await newPage(browser());
  const { token, auth } = await signUpByApi(page.request, 'cards', 'Carder');
  const deckName = `${prefix} ${Date.now().toString(36)}`;
  const deckId = await createDeck(page.request, auth, deckName);
  return { page, token, auth, deckName, deckId };
}

const progress = (page: Page, done: number) => page.locator(`[role="progressbar"][aria-valuenow="${done}"]`).waitFor();

describe('card management', () => {
  it('adds cards by hand with a live math preview, finds one by search, edits it; Review ends a session', async () => {
    const { page, token, auth, deckName, deckId } = await ownerOfNewDeck('Physics');
    await signInWithToken(page, token, '/review');
    await page.getByRole('heading', { name: deckName, level: 2 }).waitFor();

    // Add Card from the deck list: the preview renders markdown and math as review does.
    await page.getByRole('button', { name: 'Add Card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Card' });
    await dialog.getByLabel('Question').fill('What does $E=mc^2$ say about **mass**?');
    await dialog.getByLabel('Answer').fill('Mass is energy: $$E = m c^2$$');
    const preview = dialog.getByRole('region', { name: 'Preview' });
    await preview.locator('.katex').first().waitFor();
    expect(await preview.locator('.katex').count()).toBe(2);
    expect(await preview.locator('strong').innerText()).toBe('mass');
    expect(await seriousViolations(page)).toEqual([]);

    // Ctrl+Enter saves and keeps the form open, empty, for the next card.
    await dialog.getByLabel('Answer').press('Control+Enter');
    await dialog.getByText(`Card added to "${deckName}". Add the next one.`).waitFor();
    expect(await dialog.getByLabel('Question').inputValue()).toBe('');
    expect(await dialog.getByLabel('Question').evaluate((element) => element === document.activeElement)).toBe(true);
    await dialog.getByLabel('Question').fill('What is the unit of force?');
    await dialog.getByLabel('Answer').fill('The newton, $1\\,N = 1\\,kg\\,m/s^2$');
    await dialog.getByLabel('Question').press('Control+Enter');
    await dialog.getByText(`Card added to "${deckName}". Add the next one.`).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    let saved = await deckCards(page.request, auth, deckId);
    expect(saved.map((card) => card.question)).toEqual([
      'What does $E=mc^2$ say about **mass**?',
      'What is the unit of force?',
    ]);
    await page.getByText('2 cards · 20 new a day').waitFor();

    // Search all decks: a prefix finds the card; the result opens it for editing.
    await page.getByRole('searchbox', { name: 'Search all decks' }).fill('ener');
    const hit = page.getByRole('button', { name: /^Edit card: What does E=mc² say about mass\? / });
    await hit.waitFor();
    expect(await page.locator('.search-hit').count()).toBe(1);
    expect(await page.locator('.search-hit__deck').innerText()).toBe(deckName);
    await hit.click();
    const editor = page.getByRole('form', { name: 'Edit card' });
    await editor.getByLabel('Answer').fill('Mass and energy are equivalent: $$E = m c^2$$');
    await editor.getByRole('region', { name: 'Preview' }).locator('.katex').first().waitFor();
    await editor.getByRole('button', { name: 'Save card' }).click();
    await editor.waitFor({ state: 'detached' });
    saved = await deckCards(page.request, auth, deckId);
    expect(saved[0]?.answer).toBe('Mass and energy are equivalent: $$E = m c^2$$');
    await page.getByRole('searchbox', { name: 'Search all decks' }).fill('');

    // The Cards tab searches this deck; Add Card there adds to it.
    await page.getByRole('button', { name: `Settings: ${deckName}` }).click();
    const settings = page.getByRole('dialog', { name: `Deck settings: ${deckName}` });
    await settings.getByRole('tab', { name: 'Cards' }).click();
    await settings.getByText('Card 2', { exact: true }).waitFor();
    await settings.getByRole('searchbox', { name: 'Search cards' }).fill('newton unit');
    await settings.getByRole('button', { name: /^Edit card: What is the unit of force\? / }).waitFor();
    await settings.getByRole('searchbox', { name: 'Search cards' }).fill('');
    await settings.getByRole('button', { name: 'Add Card' }).click();
    await settings.getByLabel('Question').fill('What is $F$?');
    await settings.getByLabel('Answer').fill('$F = ma$');
    await settings.getByRole('button', { name: 'Add card' }).click();
    await settings.getByText('Card 3', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    // During a session, the top navigation's Review link comes back to the deck list, with a deck made meanwhile.
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await page.getByRole('button', { name: 'Know it' }).waitFor();
    const later = `Chemistry ${Date.now().toString(36)}`;
    await createDeck(page.request, auth, later);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
    await page.getByRole('heading', { name: later, level: 2 }).waitFor();
    expect(await page.getByRole('button', { name: 'Know it' }).count()).toBe(0);
    await page.context().close();
  });

  it('takes back answers with the Undo button and the U key', async () => {
    const { page, token, auth, deckName, deckId } = await ownerOfNewDeck('Undo');
    const texts = ['One', 'Two', 'Three'].map((word) => ({ question: `Question ${word}`, answer: `Answer ${word}` }));
    await saveCards(page.request, auth, deckId, texts);
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    const question = () => page.getByTestId('swipe-card').locator('.card-markdown').first().innerText();
    await page.getByRole('button', { name: 'Know it' }).waitFor();
    const first = await question();

    await page.keyboard.press('d');
    await progress(page, 1);
    await page.getByRole('button', { name: 'Undo' }).click();
    await progress(page, 0);
    expect(await question()).toBe(first);
    // Answers and undos reach the server in the background, in order: wait for it to have them.
    await expect
      .poll(async () => (await deckCards(page.request, auth, deckId)).map((card) => [card.status, card.reps]))
      .toEqual([
        ['new', 0],
        ['new', 0],
        ['new', 0],
      ]);

    await page.keyboard.press('a');
    await progress(page, 1);
    await page.keyboard.press('d');
    await progress(page, 2);
    await page.keyboard.press('d');
    // The failed card is back within the session (due in a minute, within the learn-ahead).
    await progress(page, 3);
    // U brings the last card back, and again the one before.
    await page.keyboard.press('u');
    await progress(page, 2);
    await page.keyboard.press('u');
    await progress(page, 1);
    await expect
      .poll(async () => (await deckCards(page.request, auth, deckId)).filter((card) => card.status === 'new'))
      .toHaveLength(2);
    await expect
      .poll(async () => (await page.request.get(`/decks/${deckId}/stats`, { headers: auth })).json())
      .toMatchObject({ cards_reviewed_today: 1, new_cards: 2, learning_cards: 1 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('scrolls a 30,000-card deck page by page with a bounded DOM', async () => {
    const { page, token, auth, deckName, deckId } = await ownerOfNewDeck('Big');
    const total = 30_000;
    for (let start = 0; start < total; start += 1000) {
      const batch = Array.from({ length: 1000 }, (_, index) => ({
        question: `Question ${start + index + 1}: what is $x_{${start + index + 1}}$?`,
        answer: `Answer ${start + index + 1}`,
      }));
      await saveCards(page.request, auth, deckId, batch);
    }
    await signInWithToken(page, token, '/review');
    await page.getByText('30000 cards · 20 new a day').waitFor();
    await page.getByRole('button', { name: `Settings: ${deckName}` }).click();
    const settings = page.getByRole('dialog', { name: `Deck settings: ${deckName}` });
    await settings.getByRole('tab', { name: 'Cards' }).click();
    await settings.getByText('Card 1', { exact: true }).waitFor();
    const domNodes = () => page.evaluate(() => document.getElementsByTagName('*').length);
    expect(await domNodes()).toBeLessThan(3000);

    const scroller = page.getByTestId('deck-cards-scroller');
    const lastCard = settings.getByText(`Card ${total}`, { exact: true });
    let most = 0;
    for (let step = 0; step < 2000 && !(await lastCard.isVisible()); step++) {
      await scroller.evaluate((element) => {
        element.scrollTop = element.scrollHeight;
      });
      await page.waitForTimeout(25);
      if (step % 20 === 0) most = Math.max(most, await domNodes());
    }
    await lastCard.waitFor();
    expect(await settings.locator('.deck-cards__slot').last().innerText()).toContain(`Answer ${total}`);
    most = Math.max(most, await domNodes());
    expect(most).toBeLessThan(3000);
    await page.context().close();
  }, 180_000);
});
