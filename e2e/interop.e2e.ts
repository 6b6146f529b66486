/**
 * Anki interop end to end: an .apkg (built by the server tests' package builder, with an image) imported through
 * the Import dialog on /review, a card studied with its image loaded from /media, then the deck exported as .apkg
 * from the share dialog and the download checked.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, basicNote, buildPackage, pngBytes } from '../apps/server/test/support/anki-packages';
import { signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { newPage, signInWithToken } from './support/pages';

let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dir = mkdtempSync(path.join(os.tmpdir(), 'interop-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Anki import and export', () => {
  it('imports a package, studies a card with its image, and exports the deck as .apkg', async () => {
    const page = await newPage(browser);
    const request = page.request;
    const { token } = await signUpByApi(request, 'anki', 'Anki user');

    const deckName = `Animals ${Date.now().toString(36)}`;
    const file = path.join(dir, 'animals.apkg');
    writeFileSync(
      file,
      await buildPackage({
        notetypes: [basic],
        decks: { 1: 'Default', 1700000000009: deckName },
        notes: [
          basicNote(1, 'e2eCat', ['Which animal is this? <img src="cat.png">', 'A <b>cat</b>'], 1_700_000_000_009),
        ],
        media: { 'cat.png': pngBytes },
      }),
    );

    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByLabel('File to import').setInputFiles(file);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByText('Imported 1 cards into 1 decks; 0 skipped.').waitFor();
    await dialog.getByRole('button', { name: /close/i }).click();

    await page.getByRole('heading', { name: deckName, level: 2 }).waitFor();
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    const card = page.getByTestId('swipe-card');
    await card.getByText('Which animal is this?').waitFor();
    const image = card.locator('img');
    await image.waitFor();
    const src = (await image.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/media\/[0-9a-f]{40}\.png$/);
    await page.waitForFunction(() => {
      const img = document.querySelector('.swipe-card img') as HTMLImageElement | null;
      return img?.complete && img.naturalWidth === 1;
    });
    await page.keyboard.press('Space');
    await card.getByText('Answer', { exact: true }).waitFor();
    expect((await card.locator('.card-markdown').last().innerText()).trim()).toBe('A cat');
    await page.keyboard.press('d');
    // Back within the session for its 10-minute step (within the learn-ahead); a second pass graduates it.
    await page.locator('[role="progressbar"][aria-valuenow="1"]').waitFor();
    await page.keyboard.press('d');
    await page.getByRole('heading', { name: 'Review completed!' }).waitFor();

    // Export from the share dialog: the package has the collection and the image.
    await page.goto('/review');
    await page.getByRole('button', { name: `Share: ${deckName}` }).click();
    const share = page.getByRole('dialog', { name: `Share deck: ${deckName}` });
    const download = page.waitForEvent('download');
    await share.getByRole('button', { name: 'Export Anki package (.apkg)' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(`${deckName}.apkg`);
    const savedPath = path.join(dir, 'export.apkg');
    await saved.saveAs(savedPath);
    const bytes = readFileSync(savedPath);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from('collection.anki2'))).toBe(true);
    expect(bytes.includes(pngBytes)).toBe(true);
    await share.getByText(`Downloaded ${deckName}.apkg.`).waitFor();
  });
});
