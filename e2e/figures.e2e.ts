/**
 * Figures of a slide deck against the real server and its offline generator (issue 34): the generated cards show
 * their slide's pictures as thumbnails, one is unticked, the card is saved with the other, and review shows it on
 * the answer side (axe at 1280 and 390 px).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { occlusionMessages } from '@flashcards/shared/occlusion-messages';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, signUpInBrowser, uniqueEmail } from './support/pages';

const browser = useBrowser();
const slides = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../apps/server/test/fixtures/figures/slides.pptx',
);

describe('figures from a slide deck', () => {
  it('generates from a deck, keeps one figure of a card, saves it and sees it on the answer in review', async () => {
    const page = await newPage(browser());
    await signUpInBrowser(page, uniqueEmail('figures'));

    await page.getByLabel(/^Or upload a file/).setInputFiles(slides);
    await page.getByRole('button', { name: /^Generate Flashcards/ }).click();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 60_000 });
    const first = page.getByRole('listitem', { name: 'Card 1' });
    const figures = first.getByRole('group', { name: /^Figures from the source/ });
    await figures.getByRole('img').first().waitFor();
    expect(await figures.getByRole('img').count()).toBe(2);
    // The thumbnails are loaded images, not broken links.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('.generated-card__figures img')].every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    );
    const urls = await figures.getByRole('img').evaluateAll((images) => images.map((i) => i.getAttribute('src')));
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Keep the second figure only, and save that card alone to a new deck.
    await figures.getByRole('checkbox', { name: 'Keep figure 1' }).uncheck();
    const selectAll = page.getByRole('listitem', { name: /^Card \d+$/ });
    const count = await selectAll.count();
    for (let n = 2; n <= count; n++) {
      const box = page.getByRole('listitem', { name: `Card ${n}` }).getByRole('checkbox', { name: `Select card ${n}` });
      if (await box.isChecked()) await box.uncheck();
    }
    if (!(await first.getByRole('checkbox', { name: 'Select card 1' }).isChecked())) {
      await first.getByRole('checkbox', { name: 'Select card 1' }).check();
    }
    const deckName = `Heart ${Date.now().toString(36)}`;
    await page.getByLabel('New deck name').fill(deckName);
    await page.getByRole('button', { name: 'Save Selected Cards (1)' }).click();
    await page.getByRole('status').getByText(`1 card saved to "${deckName}".`).waitFor();

    // Review: the question without the figure, the answer with it.
    await page.goto('/review');
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    const card = page.getByTestId('swipe-card');
    await card.waitFor();
    expect(await card.locator('.card-images img').count()).toBe(0);
    await page.keyboard.press('Space');
    await card.getByText('Answer', { exact: true }).waitFor();
    const shown = card.locator('.card-images img');
    await shown.first().waitFor();
    expect(await shown.evaluateAll((images) => images.map((i) => i.getAttribute('src')))).toEqual([urls[1]]);
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('.card-images img')].every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);

    await page.context().close();
  });

  it('makes an image occlusion note of a generated card’s figure: the editor opens on it, no upload', async () => {
    const page = await newPage(browser());
    await signUpInBrowser(page, uniqueEmail('figure-occlusion'));
    const deckName = `Slides ${Date.now().toString(36)}`;
    const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
      page.evaluate(
        async ({ path, init }) => {
          const response = await fetch(path, {
            method: init.method ?? 'GET',
            headers: {
              authorization: `Bearer ${localStorage.getItem('access_token')}`,
              'content-type': 'application/json',
            },
            ...(init.body ? { body: JSON.stringify(init.body) } : {}),
          });
          return response.json();
        },
        { path, init },
      );
    const deck = (await api('/decks', { method: 'POST', body: { name: deckName } })) as { _id: string };

    await page.goto('/create');
    await page.getByLabel(/^Or upload a file/).setInputFiles(slides);
    await page.getByRole('button', { name: /^Generate Flashcards/ }).click();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 60_000 });
    const first = page.getByRole('listitem', { name: 'Card 1' });
    const figure = await first.getByRole('img').first().getAttribute('src');
    await first.getByRole('link', { name: 'Image occlusion note of figure 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Card' });
    await dialog.getByRole('group', { name: occlusionMessages.editorLabel }).waitFor({ timeout: 60_000 });
    await dialog.getByText(/masks suggested|No labels were found/).waitFor({ timeout: 60_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: occlusionMessages.addMask }).click();
    await dialog.getByRole('button', { name: occlusionMessages.saveNote }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = (await api(`/decks/${deck._id}`)) as {
      flashcards: { card_type: string; occlusion?: { image_url: string } }[];
    };
    const occlusion = saved.flashcards.filter((card) => card.card_type === 'occlusion');
    expect(occlusion.length).toBeGreaterThan(0);
    expect(occlusion.map((card) => card.occlusion?.image_url)).toEqual(occlusion.map(() => figure));
    await page.context().close();
  });
});
