/**
 * axe-core over every page and every modal of the web app, signed out and signed in (issue 31): nothing rated
 * serious or critical anywhere. Each check names where it ran, so a failure says which page or dialog it was.
 */

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createDeck, saveCards, signUpByApi } from './support/api';
import { type AxeViolation, seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, signInWithToken } from './support/pages';

const browser = useBrowser();

const audiences = ['medical-students', 'language-learners', 'stem-majors', 'professionals', 'teachers'];

/** Runs axe where the page stands now and records what it found under `where`. */
async function check(page: Page, where: string, found: Record<string, AxeViolation[]>): Promise<void> {
  const violations = await seriousViolations(page);
  if (violations.length > 0) found[where] = violations;
}

/** A deck of cards with markdown and math, shared, owned by a new account; its token, deck id and share code. */
async function seededAccount(page: Page) {
  const { token, auth } = await signUpByApi(page.request, 'axe', 'Axel');
  const deckId = await createDeck(page.request, auth, 'Physics');
  await saveCards(page.request, auth, deckId, [
    { question: 'What is $E$ for a mass **m**?', answer: '$$E = mc^2$$' },
    { question: 'Unit of force?', answer: 'The *newton*, $1\\,N = 1\\,kg\\,m/s^2$' },
    { question: 'What is $\\frac{1}{2} + \\frac{1}{4}$?', answer: '$\\frac{3}{4}$' },
    { question: 'Speed of light?', answer: 'About $3 \\times 10^8$ m/s' },
  ]);
  const share = await page.request.post(`/decks/${deckId}/share`, { headers: auth });
  const code = ((await share.json()) as { share_code: string }).share_code;
  return { token, deckId, code };
}

describe('axe on every page and modal', () => {
  it('finds nothing serious signed out', async () => {
    const page = await newPage(browser());
    const owner = await seededAccount(page);
    const found: Record<string, AxeViolation[]> = {};

    await page.goto('/login');
    await page.getByRole('tab', { name: 'Sign Up' }).waitFor();
    await check(page, '/login (Log In)', found);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await check(page, '/login (Sign Up)', found);
    for (const path of ['/privacy', '/privacy-settings']) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await check(page, path, found);
    }
    for (const audience of audiences) {
      await page.goto(`/best-for/${audience}`);
      await page.locator('main h1').first().waitFor();
      await check(page, `/best-for/${audience}`, found);
    }
    await page.goto(`/share/${owner.code}`);
    const preview = page.getByRole('region', { name: 'Cards in this deck' });
    await preview.locator('.katex').first().waitFor();
    await check(page, '/share/{code}', found);
    await preview.getByRole('button', { name: 'Show answer' }).first().click();
    await preview.locator('.share-preview__answer .katex').first().waitFor();
    await check(page, '/share/{code} (an answer shown)', found);
    await page.goto('/share/AAAAAAAAAAAAAAAAAAAAAA');
    await page.getByRole('alert').waitFor();
    await check(page, '/share/{unknown code}', found);

    expect(found).toEqual({});
    await page.context().close();
  });

  it('finds nothing serious signed in, on every page and in every dialog', async () => {
    const page = await newPage(browser());
    const { token, code } = await seededAccount(page);
    const found: Record<string, AxeViolation[]> = {};
    const closeDialog = async () => {
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    };

    // Create: the first-visit tutorial (each step), the page, generated results, the feedback dialog.
    await signInWithToken(page, token, '/create');
    const tutorial = page.getByRole('dialog');
    await tutorial.waitFor();
    for (let step = 1; step <= 3; step++) {
      await check(page, `/create tutorial step ${step}`, found);
      const next = tutorial.getByRole('button', { name: step < 3 ? 'Next' : 'Get Started' });
      await next.click();
    }
    await tutorial.waitFor({ state: 'detached' });
    await check(page, '/create', found);
    await page
      .getByLabel('Text to turn into flashcards')
      .fill(
        'Photosynthesis is the process by which green plants turn light, water and carbon dioxide into glucose and oxygen. The mitochondrion produces most of the chemical energy of the cell.',
      );
    await page.getByRole('button', { name: /^Generate Flashcards/ }).click();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 30_000 });
    await check(page, '/create with results', found);
    await page.getByRole('button', { name: 'Feedback' }).click();
    await page.getByRole('dialog', { name: 'Send feedback' }).waitFor();
    await check(page, 'Feedback dialog', found);
    await closeDialog();

    // Review: the deck list, every dialog of a deck, search, a session.
    await page.goto('/review');
    await page.getByRole('button', { name: 'Review Deck: Physics' }).waitFor();
    await check(page, '/review deck list', found);
    await page.getByRole('searchbox', { name: 'Search all decks' }).fill('mass');
    await page.getByRole('button', { name: /^Edit card: What is E for a mass m\? / }).waitFor();
    await check(page, '/review search results', found);
    await page.getByRole('button', { name: /^Edit card: What is E for a mass m\? / }).click();
    await page.getByRole('form', { name: 'Edit card' }).locator('.katex').first().waitFor();
    await check(page, '/review search result being edited', found);
    await page.getByRole('searchbox', { name: 'Search all decks' }).fill('');

    await page.getByRole('button', { name: 'Add Card' }).click();
    await page.getByRole('dialog', { name: 'Add Card' }).waitFor();
    await check(page, 'Add Card dialog', found);
    await closeDialog();

    await page.getByRole('button', { name: 'Settings: Physics' }).click();
    const settings = page.getByRole('dialog', { name: 'Deck settings: Physics' });
    await settings.getByText('Reviewed today').waitFor();
    await check(page, 'Deck settings: Settings tab', found);
    await settings.getByLabel('Desired retention (%)').fill('150');
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await settings.getByRole('alert').waitFor();
    await check(page, 'Deck settings: a refused retention', found);
    await settings.getByRole('tab', { name: 'Cards' }).click();
    await settings.getByRole('button', { name: 'Edit card 1' }).waitFor();
    await check(page, 'Deck settings: Cards tab', found);
    await settings.getByRole('button', { name: 'Edit card 1' }).click();
    await settings.getByLabel('Question').fill('Changed?');
    await page.keyboard.press('Escape');
    await settings.getByRole('button', { name: 'Keep editing' }).waitFor();
    await check(page, 'Deck settings: discard prompt', found);
    await settings.getByRole('button', { name: 'Discard changes' }).click();
    await settings.getByRole('button', { name: 'Delete card 1' }).click();
    await page.getByRole('dialog', { name: 'Delete card' }).waitFor();
    await check(page, 'Delete card confirmation', found);
    await page.getByRole('dialog', { name: 'Delete card' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Deck settings: Physics' }).waitFor();
    await closeDialog();

    await page.getByRole('button', { name: 'Share: Physics' }).click();
    const link = page
      .getByRole('dialog', { name: 'Share deck: Physics' })
      .getByLabel('Anyone with this link can preview and import the deck');
    await page.waitForFunction(
      (expected) => [...document.querySelectorAll('input')].some((input) => input.value.endsWith(expected)),
      `/share/${code}`,
    );
    await link.waitFor();
    await check(page, 'Share dialog', found);
    await closeDialog();

    await page.getByRole('button', { name: 'Delete: Physics' }).click();
    await page.getByRole('dialog', { name: 'Delete deck' }).waitFor();
    await check(page, 'Delete deck confirmation', found);
    await closeDialog();

    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('dialog', { name: 'Import' }).waitFor();
    await check(page, 'Import dialog', found);
    await closeDialog();

    await page.getByRole('button', { name: 'Review Deck: Physics' }).click();
    await page.getByRole('button', { name: 'Know it' }).waitFor();
    await page.locator('.card-markdown .katex').first().waitFor();
    await check(page, '/review session: question', found);
    await page.getByRole('button', { name: 'Show answer' }).click();
    await page.getByRole('button', { name: 'Hide answer' }).waitFor();
    await page.locator('.swipe-card .katex').first().waitFor();
    await check(page, '/review session: answer', found);

    // Quiz, statistics, account (and its What's New dialog).
    await page.goto('/quiz');
    await page.getByRole('button', { name: 'Generate Quiz' }).waitFor();
    await check(page, '/quiz', found);
    await page.getByLabel('Deck', { exact: true }).selectOption({ label: 'Physics (4 cards)' });
    await page.getByRole('button', { name: 'Generate Quiz' }).click();
    await page.getByRole('region', { name: 'Quiz cards' }).waitFor();
    await check(page, '/quiz with cards', found);
    await page.goto('/stats');
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    await check(page, '/stats', found);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Sign-in and security' }).waitFor();
    await check(page, '/account', found);
    await page.getByRole('button', { name: "What's New" }).click();
    await page.getByRole('dialog', { name: "What's New" }).waitFor();
    await check(page, "What's New dialog", found);
    await closeDialog();

    expect(found).toEqual({});
    await page.context().close();
  });
});
