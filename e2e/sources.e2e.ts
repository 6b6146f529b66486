/**
 * Sources and duplicates of AI cards (issue 36) in the browser, on a server started as `npm start` with a local
 * OpenAI-compatible model that quotes its passages: review's Source control shows the quote and page and
 * regenerates from the passage for 1 generation; on the create page an invented card and a card the deck already
 * has arrive unselected, each saying why, and saving skips the exact duplicate.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeChatServer, streamCompletion } from '../apps/server/test/support/fake-chat-server';
import { type Auth, createDeck, saveCards, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { closeTutorial, signInWithToken } from './support/pages';
import { type RunningServer, startServer } from './support/server';

const fake = new FakeChatServer();
let server: RunningServer;
let browser: Browser;

const powerhouse = { question: 'What is the powerhouse of the cell?', answer: 'The mitochondrion.' };
const notes = 'The mitochondrion is the powerhouse of the cell. Ribosomes make proteins in the cytoplasm.';
const repeated = 'Not selected: your deck already has this fact: "What is the powerhouse of the cell?".';
const invented = 'Not selected: its quote was not found in your material, so this card may be invented.';

/** The model's reply to any request: a card from the text, a card whose quote is not in it, and one the deck has. */
const modelCards = JSON.stringify({
  cards: [
    { question: 'What do ribosomes make?', answer: 'Proteins.', quote: 'Ribosomes make proteins in the cytoplasm.' },
    {
      question: 'Who discovered ribosomes?',
      answer: 'George Palade.',
      quote: 'George Palade discovered ribosomes in 1955 with the electron microscope.',
    },
    { ...powerhouse, quote: 'The mitochondrion is the powerhouse of the cell.' },
  ],
});

beforeAll(async () => {
  const modelUrl = await fake.start();
  fake.handler = (_request, res) => streamCompletion(res, modelCards, { piece: 64 });
  server = await startServer(
    { AI_PROVIDER: 'openai', OPENAI_BASE_URL: modelUrl, AI_MODEL: 'e2e-model', AI_MAX_RETRIES: '0' },
    { port: 41201 },
  );
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake.stop();
});

async function newSignedInUser(label: string): Promise<{ page: Page; auth: Auth; token: string }> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 900 },
    bypassCSP: true,
  });
  const page = await context.newPage();
  const { auth, token } = await signUpByApi(page.request, label, 'Learner');
  return { page, auth, token };
}

async function remainingGenerations(page: Page, auth: Auth): Promise<number> {
  const status = await page.request.get('/api/subscription-status', { headers: auth });
  return ((await status.json()) as { remaining: number }).remaining;
}

describe('sources of AI cards', () => {
  it("review's Source control shows the quote and page, and regenerates from the passage for 1 generation", async () => {
    const { page, auth, token } = await newSignedInUser('source-review');
    const deckName = `Cells ${Date.now().toString(36)}`;
    const deckId = await createDeck(page.request, auth, deckName);
    await saveCards(page.request, auth, deckId, [
      {
        ...powerhouse,
        source: { document: 'cells.pdf', page: 2, quote: notes.split('. ')[0] ?? '', paragraph: notes },
      },
    ]);

    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await page.getByTestId('swipe-card').getByText(powerhouse.question).waitFor();
    expect(await page.getByRole('button', { name: /^Source/ }).count()).toBe(0);
    await page.keyboard.press('Space');
    const toggle = page.getByRole('button', { name: /^Source/ });
    await toggle.waitFor();

    // Reachable by keyboard: S opens it, as does the button.
    await page.keyboard.press('s');
    const panel = page.getByRole('region', { name: 'Source' });
    await panel.getByText('The mitochondrion is the powerhouse of the cell').waitFor();
    expect(await panel.getByText('From cells.pdf, Page 2').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^Hide source/ }).getAttribute('aria-expanded')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);

    const before = await remainingGenerations(page, auth);
    await panel.getByRole('button', { name: 'Regenerate from this passage' }).click();
    await page.waitForURL('**/create');
    await closeTutorial(page);
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Text to turn into flashcards').inputValue()).toBe(notes);
    expect(await remainingGenerations(page, auth)).toBe(before - 1);
    // Generated against the card's deck: the card it came from is named as repeated.
    expect(await page.getByText(repeated).count()).toBe(1);
    await page.context().close();
  });

  it('an unverified card and a duplicate of the deck arrive unselected, saying why; saving skips the duplicate', async () => {
    const { page, auth, token } = await newSignedInUser('source-create');
    const deckName = `Biology ${Date.now().toString(36)}`;
    const deckId = await createDeck(page.request, auth, deckName);
    await saveCards(page.request, auth, deckId, [powerhouse]);

    await signInWithToken(page, token, '/create');
    await closeTutorial(page);
    await page.getByLabel('Check for duplicates in deck').selectOption({ label: deckName });
    await page.getByLabel('Text to turn into flashcards').fill(notes);
    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).click();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).waitFor({ timeout: 30_000 });

    const card = (n: number) => page.getByRole('listitem', { name: `Card ${n}` });
    const selected = (n: number) => card(n).getByRole('checkbox').isChecked();
    expect(await card(1).getByText('What do ribosomes make?').count()).toBe(1);
    expect(await selected(1)).toBe(true);
    expect(await card(2).getByText('Who discovered ribosomes?').count()).toBe(1);
    expect(await selected(2)).toBe(false);
    expect(await card(2).getByText(invented).isVisible()).toBe(true);
    expect(await card(3).getByText(powerhouse.question, { exact: true }).count()).toBe(1);
    expect(await selected(3)).toBe(false);
    expect(await card(3).getByText(repeated).isVisible()).toBe(true);
    expect(await page.getByText('1 of 3 selected').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // Chosen anyway, the exact duplicate is skipped on save, and the banner says so.
    await card(3).getByRole('checkbox').check();
    expect(await page.getByLabel('Deck', { exact: true }).inputValue()).toBe(deckId);
    await page.getByRole('button', { name: 'Save Selected Cards (2)' }).click();
    await page
      .getByText(`1 card saved to "${deckName}". 1 card was already in the deck and was skipped.`)
      .waitFor({ timeout: 20_000 });
    const listed = await page.request.get(`/decks/${deckId}/cards`, { headers: auth });
    const questions = ((await listed.json()) as { question: string }[]).map((saved) => saved.question).sort();
    expect(questions).toEqual(['What do ribosomes make?', powerhouse.question]);
    await page.context().close();
  });
});
