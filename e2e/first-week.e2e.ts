/**
 * Issue 31, a learner's first week (decks, the Create flow, account mistakes, share preview), end to end against the
 * real server: save -> "Study these" -> a session of that deck; a wrong current password keeps the learner signed in;
 * the share page lists cards to a visitor; the deck list starts with the decks on a phone; Escape in a card editor.
 */

import { describe, expect, it } from 'vitest';
import { type ApiCard, createDeck, saveCards, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, PASSWORD, signInWithToken, signUpInBrowser, uniqueEmail } from './support/pages';

const browser = useBrowser();

const notes = [
  'Photosynthesis is the process by which green plants turn light, water and carbon dioxide into glucose and oxygen.',
  'The mitochondrion is the organelle that produces most of the chemical energy of the cell in the form of ATP.',
  'DNA is the molecule that carries the genetic instructions of every known living organism.',
].join(' ');

interface ApiDeck {
  _id: string;
  name: string;
  card_count: number;
  counts: { new: number; learning: number; due: number };
}

describe('from a file to studying', () => {
  it('offers a deck name, saves in one click, and "Study these" opens a session of that deck', async () => {
    const page = await newPage(browser());
    const token = await signUpInBrowser(page, uniqueEmail('study'), 'Stella');
    const auth = { authorization: `Bearer ${token}` };
    // Another deck exists, so that the session must be of the new deck, not of all decks.
    const otherDeck = await createDeck(page.request, auth, 'Other deck');
    await saveCards(page.request, auth, otherDeck, [{ question: 'Not from these notes?', answer: 'No' }]);
    await page.reload();

    await page.getByLabel('Text to turn into flashcards').fill(`# Cell biology\n${notes}`);
    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).click();
    const heading = page.getByRole('heading', { name: 'Generated Cards' });
    await heading.waitFor({ timeout: 30_000 });
    // The results have the focus (and so the view).
    await page.waitForFunction(() => document.activeElement?.textContent === 'Generated Cards');
    expect(await page.getByLabel('New deck name').inputValue()).toBe('Cell biology');
    const count = await page.locator('.create-results__grid > li').count();
    expect(count).toBeGreaterThanOrEqual(2);

    // One click saves into a new deck of that name.
    await page.getByRole('button', { name: `Save Selected Cards (${count})` }).click();
    await page.getByText(`${count} cards saved to "Cell biology".`).waitFor();
    const decks = (await (await page.request.get('/decks', { headers: auth })).json()) as ApiDeck[];
    const deck = decks.find((item) => item.name === 'Cell biology');
    expect(deck?.card_count).toBe(count);
    expect(deck?.counts).toEqual({ new: count, learning: 0, due: 0 });
    const saved = (await (await page.request.get(`/decks/${deck?._id}/cards`, { headers: auth })).json()) as ApiCard[];
    expect(await seriousViolations(page)).toEqual([]);

    // "Study these N cards now": the review page, in a session of that deck.
    await page.getByRole('button', { name: `Study these ${count} cards now` }).click();
    await page.waitForURL((url) => url.pathname === '/review');
    await page.getByRole('button', { name: 'Know it' }).waitFor();
    const shown = await page.locator('.card-markdown').first().innerText();
    expect(saved.map((card) => card.question.trim())).toContain(shown.trim());
    expect(shown).not.toContain('Not from these notes?');
    await page.context().close();
  });
});

describe('mistakes are cheap', () => {
  it('a wrong current password says so and the learner stays signed in; so does a wrong one for Delete account', async () => {
    const page = await newPage(browser());
    await signUpInBrowser(page, uniqueEmail('typo'), 'Tyler');
    await page.goto('/account');
    const security = page.locator('section.account-security');
    await security.getByLabel('Current password (leave empty if you have only used Google)').fill('not my password');
    await security.getByLabel('New password', { exact: true }).fill('a new secret phrase');
    await security.getByLabel('New password again').fill('a new secret phrase');
    await security.getByRole('button', { name: 'Change password' }).click();
    await security
      .getByRole('alert')
      .getByText('That password is not right. Please try again; you are still signed in.')
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    expect(token).not.toBeNull();
    const me = await page.request.get('/users/me', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(200);
    // The inputs are the shared fields: as tall as every other form's.
    const height = await security.getByLabel('New password again').evaluate((input) => input.clientHeight);
    expect(height).toBeGreaterThanOrEqual(40);
    expect(await seriousViolations(page)).toEqual([]);

    page.once('dialog', (dialog) => void dialog.accept());
    await security.getByLabel('Password', { exact: true }).fill('still not it');
    await security.getByRole('button', { name: 'Delete account' }).click();
    // The change-password message stays in its form; the delete form's answer is the second.
    await security
      .getByRole('alert')
      .filter({ hasText: 'That password is not right. Please try again; you are still signed in.' })
      .nth(1)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign-in and security' }).waitFor();
    // The right password still works afterwards.
    const login = await page.request.post('/login', {
      form: { username: (await me.json()).email, password: PASSWORD },
    });
    expect(login.status()).toBe(200);
    await page.context().close();
  });

  it('Escape in a card being edited asks first and leaves deck settings open', async () => {
    const page = await newPage(browser());
    const { token, auth } = await signUpByApi(page.request, 'escape', 'Esme');
    const deckId = await createDeck(page.request, auth, 'Escape deck');
    await saveCards(page.request, auth, deckId, [{ question: 'What is 2 + 2?', answer: '4' }]);
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: 'Settings: Escape deck' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deck settings: Escape deck' });
    await dialog.getByRole('tab', { name: 'Cards' }).click();
    await dialog.getByRole('button', { name: 'Edit card 1' }).click();
    await dialog.getByLabel('Question').fill('What is 2 + 3?');
    await page.keyboard.press('Escape');
    await dialog.getByText('Discard what you typed in this card?').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(await dialog.getByLabel('Question').inputValue()).toBe('What is 2 + 3?');
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await dialog.getByLabel('Question').waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    const cards = (await (await page.request.get(`/decks/${deckId}/cards`, { headers: auth })).json()) as ApiCard[];
    expect(cards.map((card) => card.question)).toEqual(['What is 2 + 2?']);
    await page.context().close();
  });
});

describe('decks on a phone', () => {
  it('starts the review page with the decks, each with its counts, and renames a deck', async () => {
    const page = await newPage(browser(), { width: 390, height: 844 });
    const { token, auth } = await signUpByApi(page.request, 'phone', 'Phoebe');
    const deckId = await createDeck(page.request, auth, 'Phone deck');
    await saveCards(page.request, auth, deckId, [
      { question: 'One?', answer: '1' },
      { question: 'Two?', answer: '2' },
    ]);
    await signInWithToken(page, token, '/review');
    const row = page.locator('.deck-item').first();
    await row.getByText('2 new, 0 learning, 0 due').waitFor();
    const top = await row.evaluate((element) => element.getBoundingClientRect().top);
    process.stdout.write(`  first deck's top on a 390 x 844 screen: ${Math.round(top)} px\n`);
    expect(top).toBeLessThan(300);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Settings: Phone deck' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deck settings: Phone deck' });
    await dialog.getByLabel('Deck name').fill('Pocket deck');
    await dialog.getByLabel('Desired retention (%)').fill('99');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByText('Desired retention must be a whole number from 70 to 97.').waitFor();
    await dialog.getByLabel('Desired retention (%)').fill('85');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog', { name: 'Deck settings: Pocket deck' }).getByText('Deck settings saved.').waitFor();
    const decks = (await (await page.request.get('/decks', { headers: auth })).json()) as ApiDeck[];
    expect(decks.map((deck) => deck.name)).toEqual(['Pocket deck']);
    await page.context().close();
  });
});

describe('a shared link sells itself', () => {
  it('lists the deck’s cards, rendered, to a visitor who is not signed in, who can flip them', async () => {
    const owner = await newPage(browser());
    const { auth } = await signUpByApi(owner.request, 'sharer', 'Sharon');
    const deckId = await createDeck(owner.request, auth, 'Physics');
    const cards = Array.from({ length: 22 }, (_, index) => ({
      question: index === 0 ? 'What is $E$ for a mass **m**?' : `Question ${index + 1}?`,
      answer: index === 0 ? '$$E = mc^2$$' : `Answer ${index + 1}`,
    }));
    await saveCards(owner.request, auth, deckId, cards);
    const share = await owner.request.post(`/decks/${deckId}/share`, { headers: auth });
    const code = ((await share.json()) as { share_code: string }).share_code;
    await owner.context().close();

    const visitor = await newPage(browser());
    await visitor.goto(`/share/${code}`);
    const preview = visitor.getByRole('region', { name: 'Cards in this deck' });
    await preview.waitFor();
    expect(await preview.getByRole('listitem').count()).toBe(20);
    await preview.getByText('The first 20 of 22 cards. Import the deck to study them all.').waitFor();
    const first = preview.getByRole('listitem', { name: 'Card 1 of 20' });
    await first.locator('strong', { hasText: 'm' }).waitFor();
    await first.locator('.katex').first().waitFor();
    await first.getByRole('button', { name: 'Show answer' }).click();
    await first.locator('.share-preview__answer .katex').waitFor();
    expect(await seriousViolations(visitor)).toEqual([]);
    expect(await visitor.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await visitor.context().close();
  });
});
