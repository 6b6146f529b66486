/**
 * The quiz and account screens end to end, against the real server (offline AI, payments in local test mode):
 * a quiz generated from a deck adds a card to it, and a Generation Pack (50) bought through the test checkout
 * shows up in the usage meters after the return.
 */

import { describe, expect, it } from 'vitest';
import { createDeck, saveCards } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, signUpInBrowser, uniqueEmail } from './support/pages';

const browser = useBrowser();

describe('quiz and account', () => {
  it('a quiz card is added to its deck; a pack bought through checkout shows in the usage meters', async () => {
    const page = await newPage(browser());
    const request = page.request;

    const token = await signUpInBrowser(page, uniqueEmail('quinn'), 'Quinn Quiz');
    const auth = { authorization: `Bearer ${token}` };

    // A deck with cards, made through the API.
    const deckName = `Cells ${Date.now().toString(36)}`;
    const deckId = await createDeck(request, auth, deckName);
    await saveCards(request, auth, deckId, [
      { question: 'What is the powerhouse of the cell?', answer: 'The mitochondrion, which makes ATP.' },
      { question: 'What holds the genetic material?', answer: 'The nucleus holds the DNA of the cell.' },
      { question: 'What do ribosomes do?', answer: 'Ribosomes build proteins from amino acids.' },
    ]);
    const cardCount = async () => {
      const response = await request.get(`/decks/${deckId}/cards`, { headers: auth });
      expect(response.status()).toBe(200);
      return (await response.json()) as { question: string; answer: string }[];
    };
    expect(await cardCount()).toHaveLength(3);

    // The quiz: generate from the deck, flip, and add the current card to the deck.
    await page.getByRole('link', { name: 'Quiz', exact: true }).click();
    await page.waitForURL('**/quiz');
    const select = page.getByLabel('Deck');
    await select.waitFor();
    expect(await select.inputValue()).toBe(deckId);
    await page.getByRole('button', { name: 'Generate Quiz' }).click();
    await page.getByText(/^Card 1 of \d+$/).waitFor({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
    const progress = (await page.getByText(/^Card 1 of \d+$/).textContent()) ?? '';
    const total = Number(/of (\d+)$/.exec(progress)?.[1]);
    await page.getByRole('button', { name: 'Show Answer' }).click();
    await page.getByRole('button', { name: 'Show Question' }).waitFor();
    expect(total).toBeGreaterThan(1);
    // The keyboard: D is the next card, A the previous one, space flips.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('d');
    await page.getByText(`Card 2 of ${total}`).waitFor();
    await page.keyboard.press('a');
    await page.getByText(`Card 1 of ${total}`).waitFor();
    // Moving shows the new card's question; space turns it to the answer.
    await page.getByRole('button', { name: 'Show Answer' }).waitFor();
    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Show Question' }).waitFor();
    await page.getByRole('button', { name: 'Add to Deck' }).click();
    await page.getByText('Card added successfully!').waitFor();
    const after = await cardCount();
    expect(after).toHaveLength(4);
    const originals = new Set([
      'What is the powerhouse of the cell?',
      'What holds the genetic material?',
      'What do ribosomes do?',
    ]);
    expect(after.filter((card) => !originals.has(card.question))).toHaveLength(1);
    // The message goes away after 3 s.
    await page.getByText('Card added successfully!').waitFor({ state: 'detached', timeout: 6000 });

    // The account: buy Generation Pack (50) through the test-mode checkout.
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.waitForURL('**/account');
    await page.getByRole('heading', { name: 'Welcome, Quinn Quiz!', level: 1 }).waitFor();
    await page.getByTestId('purchased-generations').waitFor();
    expect(await page.getByTestId('purchased-generations').textContent()).toBe('0');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Buy Generation Pack (50)' }).click();
    await page.waitForURL('**/test-checkout/**');
    expect(await page.evaluate(() => localStorage.getItem('selected_plan_type'))).toBe('generations');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await page.getByText(/^Payment successful!/).waitFor();
    await page.waitForURL((url) => url.pathname === '/account' && url.search === '');
    await page.getByTestId('purchased-generations').filter({ hasText: /^50$/ }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('selected_plan_type'))).toBeNull();

    // The updates modal, and the page on a 320 px phone: accessible, nothing wider than the screen.
    await page.getByRole('button', { name: "What's New" }).click();
    await page.getByRole('dialog', { name: "What's New" }).getByText('April 6, 2025').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 320, height: 700 });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/quiz');
    await page.waitForURL('**/quiz');
    await page.getByRole('button', { name: 'Generate Quiz' }).click();
    await page.getByText(/^Card 1 of \d+$/).waitFor({ timeout: 30_000 });
    expect(await overflow()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    const status = await request.get('/api/subscription-status', { headers: auth });
    expect(((await status.json()) as { purchased_generations: number }).purchased_generations).toBe(50);
    await page.context().close();
  });
});
