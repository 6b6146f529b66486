/**
 * Cloze notes from the Create page against the real server and its offline generator: the Card style control (axe
 * at 1280 and 390 px), generation in the cloze style, editing a note as cloze text, saving, and the saved note's
 * cards (one per cloze number) in the deck.
 */

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, signUpInBrowser, uniqueEmail } from './support/pages';

const browser = useBrowser();

const notes = [
  'Photosynthesis is the process by which green plants turn light, water and carbon dioxide into glucose and oxygen.',
  'The mitochondrion is the organelle that produces most of the chemical energy of the cell in the form of ATP.',
  'The human body has 206 bones.',
].join(' ');

interface SavedCard {
  question: string;
  answer: string;
  note_id?: string;
  card_type?: string;
  ord?: number;
}

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  return (await (await page.request.get(path, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
}

describe('cloze notes from the Create page', () => {
  it('generates in the cloze style, edits a note, saves it, and the deck holds one card per cloze number', async () => {
    const page = await newPage(browser());
    await signUpInBrowser(page, uniqueEmail('cloze'));

    // The control, checked by axe at desktop and phone widths.
    const style = page.getByRole('group', { name: 'Card style' });
    await style.getByRole('radio', { name: /^Basic/ }).waitFor();
    expect(await style.getByRole('radio', { name: /^Basic/ }).isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1] ?? 0);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Cloze, by keyboard: the arrow keys move within the radio group.
    await style.getByRole('radio', { name: /^Basic/ }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await style.getByRole('radio', { name: /^Cloze/ }).isChecked()).toBe(true);

    await page.getByLabel('Text to turn into flashcards').fill(notes);
    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).click();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 30_000 });
    const first = page.getByRole('listitem', { name: 'Card 1' });
    await first.locator('mark.cloze-deletion').first().waitFor();
    expect(await first.locator('mark.cloze-deletion').allTextContents()).toEqual(['Blank 1: Photosynthesis1']);
    expect(await page.locator('.create-results__grid > li').count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Edit the first note: a second cloze number makes it two cards, and it stays a cloze note.
    await first.getByRole('button', { name: 'Edit card 1' }).click();
    const edited =
      '{{c1::Photosynthesis}} is the process by which green plants turn light, water and carbon dioxide into {{c2::glucose}} and oxygen.';
    await first.getByLabel('Cloze text').fill(edited);
    await first.getByRole('button', { name: 'Save Card' }).click();
    await first.getByText('Makes 2 cards, one per number').waitFor();
    expect(await first.locator('mark.cloze-deletion').count()).toBe(2);

    // Save the three notes to a new deck: four cards.
    const deckName = `Cells ${Date.now().toString(36)}`;
    await page.getByLabel('New deck name').fill(deckName);
    await page.getByRole('button', { name: 'Save Selected Cards (3)' }).click();
    await page.getByRole('status').getByText(`3 cards saved to "${deckName}".`).waitFor();

    const decks = await api<{ _id: string; name: string; card_count: number }[]>(page, '/decks');
    const deck = decks.find((d) => d.name === deckName);
    expect(deck?.card_count).toBe(4);
    const cards = await api<SavedCard[]>(page, `/decks/${deck?._id}/cards`);
    const photosynthesis = cards.filter(
      (card) => card.answer.includes('**Photosynthesis**') || card.answer.includes('**glucose**'),
    );
    expect(photosynthesis.map(({ card_type, ord, question }) => ({ card_type, ord, question }))).toEqual([
      {
        card_type: 'cloze',
        ord: 0,
        question:
          '[...] is the process by which green plants turn light, water and carbon dioxide into glucose and oxygen.',
      },
      {
        card_type: 'cloze',
        ord: 1,
        question:
          'Photosynthesis is the process by which green plants turn light, water and carbon dioxide into [...] and oxygen.',
      },
    ]);
    expect(photosynthesis[0]?.note_id).toBe(photosynthesis[1]?.note_id);
    expect(cards.every((card) => card.card_type === 'cloze')).toBe(true);

    // The saved note's cards in the deck's Cards tab.
    await page.goto('/review');
    await page.getByRole('button', { name: `Settings: ${deckName}` }).click();
    const settings = page.getByRole('dialog', { name: `Deck settings: ${deckName}` });
    await settings.getByRole('tab', { name: 'Cards' }).click();
    await settings.getByText('[...] is the process by which green plants', { exact: false }).first().waitFor();
    await settings.getByText('into [...] and oxygen', { exact: false }).first().waitFor();
    await settings.getByText('The human body has [...] bones.', { exact: false }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
