/**
 * The create page end to end against the real server and its offline generator: sign up, paste text, generate,
 * edit a card, create a deck, save, and check through the API that the deck holds exactly the saved cards.
 */

import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, signUpInBrowser, submitSignUp, uniqueEmail } from './support/pages';

const browser = useBrowser();

const notes = [
  'Photosynthesis is the process by which green plants turn light, water and carbon dioxide into glucose and oxygen.',
  'The mitochondrion is the organelle that produces most of the chemical energy of the cell in the form of ATP.',
  'DNA is the molecule that carries the genetic instructions of every known living organism.',
  'Osmosis is the movement of water across a semipermeable membrane from a dilute to a concentrated solution.',
  'The ribosome is the structure that builds proteins by reading messenger RNA.',
].join(' ');

describe('creating cards', () => {
  it('generates cards from text, edits one, saves the selection to a new deck', async () => {
    const page = await newPage(browser());
    await submitSignUp(page, uniqueEmail('cleo'), 'Cleo');

    // First visit: the tutorial opens once.
    await page.getByRole('dialog', { name: 'Welcome' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Paste the notes and generate (text costs 1).
    await page.getByLabel('Text to turn into flashcards').fill(notes);
    await page.getByText(`${notes.length} / 10000 characters`).waitFor();
    const generate = page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' });
    await generate.click();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 30_000 });
    const cards = page.locator('.create-results__grid > li');
    const count = await cards.count();
    expect(count).toBeGreaterThanOrEqual(2);
    expect(await page.getByText(`${count} of ${count} selected`).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // The text, cards and selection survive a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor();
    expect(await page.getByLabel('Text to turn into flashcards').inputValue()).toBe(notes);
    expect(await cards.count()).toBe(count);

    // Edit the first card, leave the last one out.
    await page.getByRole('button', { name: 'Edit card 1' }).click();
    const first = page.getByRole('listitem', { name: 'Card 1' });
    await first.getByLabel('Question').fill('What does photosynthesis make?');
    await first.getByLabel('Answer').fill('Glucose and **oxygen**.');
    await first.getByRole('button', { name: 'Save Card' }).click();
    await first.getByText('What does photosynthesis make?').waitFor();
    await page
      .getByRole('listitem', { name: `Card ${count}` })
      .getByRole('checkbox')
      .uncheck();

    // A new deck (the form is open with a name taken from the text), then save.
    const deckName = `Biology ${Date.now().toString(36)}`;
    expect(await page.getByLabel('New deck name').inputValue()).toBe(
      'Photosynthesis is the process by which green plants turn…',
    );
    await page.getByLabel('New deck name').fill(deckName);
    await page.getByRole('button', { name: 'Create Deck' }).click();
    await page.getByLabel('New deck name').waitFor({ state: 'detached' });
    expect(await page.getByLabel('Deck', { exact: true }).locator('option:checked').textContent()).toBe(deckName);
    const expected = count - 1;
    await page.getByRole('button', { name: `Save Selected Cards (${expected})` }).click();
    await page
      .getByRole('status')
      .getByText(expected === 1 ? `1 card saved to "${deckName}".` : `${expected} cards saved to "${deckName}".`)
      .waitFor();
    expect(await page.getByRole('heading', { name: 'Generated Cards' }).count()).toBe(0);
    expect(await page.getByLabel('Text to turn into flashcards').inputValue()).toBe('');
    const stored = await page.evaluate(() => [
      localStorage.getItem('generated_cards'),
      localStorage.getItem('selected_cards'),
      localStorage.getItem('input_text'),
    ]);
    expect(stored).toEqual([null, null, null]);

    // The deck holds the saved cards, the edited one included; the quota went down by 1.
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    const auth = { authorization: `Bearer ${token}` };
    const decks = (await (await page.request.get('/decks', { headers: auth })).json()) as {
      _id: string;
      name: string;
      card_count: number;
    }[];
    const deck = decks.find((d) => d.name === deckName);
    expect(deck?.card_count).toBe(expected);
    const deckCards = (await (await page.request.get(`/decks/${deck?._id}/cards`, { headers: auth })).json()) as {
      question: string;
      answer: string;
    }[];
    expect(deckCards).toHaveLength(expected);
    expect(deckCards).toContainEqual(
      expect.objectContaining({ question: 'What does photosynthesis make?', answer: 'Glucose and **oxygen**.' }),
    );
    const status = (await (await page.request.get('/api/subscription-status', { headers: auth })).json()) as {
      free_used: number;
    };
    expect(status.free_used).toBe(1);
    await page.context().close();
  });

  it('fits a 320 px phone and stays accessible with cards shown', async () => {
    const page = await newPage(browser(), { width: 320, height: 640 });
    await signUpInBrowser(page, uniqueEmail('phone'));
    await page.getByLabel('Text to turn into flashcards').fill(notes);
    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).click();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('New deck name').fill('');
    await page.getByRole('button', { name: 'Create Deck' }).click();
    await page.getByText('Deck name cannot be empty').waitFor();
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1] ?? 0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
