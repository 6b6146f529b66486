/**
 * Issue 34, image occlusion in the browser: an occlusion note made from an uploaded labelled diagram with the masks
 * the server suggests (tesseract runs for real in the test server), one mask moved by mouse and one resized by touch,
 * saved, and studied at 1280 and 390 px (the image at its own resolution, the masks on their labels, the answer
 * uncovering the target); editing the note later keeps the cards, and the history, of the groups still there. axe
 * finds nothing on the editor and on review.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Auth, createDeck, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { baseUrl, signInWithToken } from './support/pages';

const browser = useBrowser();
const diagram = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/labelled-diagram.png');
const diagramWidth = 720;

interface Mask {
  x: number;
  y: number;
  w: number;
  h: number;
  group: number;
}
interface OcclusionNote {
  _id: string;
  fields: { image: string; masks: Mask[]; mode: string };
  card_ids: string[];
}
interface DeckCard {
  _id: string;
  note_id: string;
  card_type: string;
  ord: number;
  reps: number;
}

async function newContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
  return await browser().newContext({ baseURL: baseUrl(), viewport, bypassCSP: true, hasTouch: true });
}

async function deckCards(page: Page, auth: Auth, deckId: string): Promise<DeckCard[]> {
  const response = await page.request.get(`/decks/${deckId}/cards`, { headers: auth });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as DeckCard[] | { cards: DeckCard[] };
  return Array.isArray(body) ? body : body.cards;
}

async function noteOf(page: Page, auth: Auth, noteId: string): Promise<OcclusionNote> {
  const response = await page.request.get(`/notes/${noteId}`, { headers: auth });
  expect(response.status()).toBe(200);
  return (await response.json()) as OcclusionNote;
}

/** The on-screen box of an element. */
async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

/** Within a pixel and a half: masks are stored as fractions, so a drag lands to the sub-pixel. */
function expectNear(measured: number, wanted: number) {
  expect(measured).toBeGreaterThanOrEqual(wanted - 1.5);
  expect(measured).toBeLessThanOrEqual(wanted + 1.5);
}

/** A finger dragging from one point to another (Chromium's touch input: pointer events of type touch). */
async function touchDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let step = 1; step <= 5; step++) {
    const x = from.x + ((to.x - from.x) * step) / 5;
    const y = from.y + ((to.y - from.y) * step) / 5;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/**
 * Checks the occlusion image on the review card: drawn no wider than its own pixels (no upscaling blur), fully
 * loaded, and each covered mask where the note's fractions put it on the image.
 */
async function expectSharpAndInPlace(page: Page, masks: Mask[]) {
  const figure = page.getByTestId('swipe-card').locator('.occlusion-image').first();
  const image = figure.locator('img');
  await image.waitFor();
  await page.waitForFunction(
    () => (document.querySelector('.occlusion-image img') as HTMLImageElement | null)?.complete === true,
  );
  const size = await image.evaluate((element) => {
    const img = element as HTMLImageElement;
    return { natural: img.naturalWidth, shown: img.getBoundingClientRect().width };
  });
  expect(size.natural).toBe(diagramWidth);
  expect(size.shown).toBeLessThanOrEqual(size.natural);
  const imageBox = await boxOf(image);
  const shapes = figure.locator('svg .occlusion-image__mask');
  const covered = await shapes.count();
  expect(covered).toBeGreaterThan(0);
  const onScreen = await Promise.all(
    Array.from({ length: covered }, async (_, index) => {
      const box = await boxOf(shapes.nth(index));
      return { x: (box.x - imageBox.x) / imageBox.width, y: (box.y - imageBox.y) / imageBox.height };
    }),
  );
  // Every mask drawn sits (within 1.5 px at this width, plus its stroke) at a mask of the note.
  const slackX = 3 / imageBox.width;
  const slackY = 3 / imageBox.height;
  for (const drawn of onScreen) {
    expect(masks.some((mask) => Math.abs(mask.x - drawn.x) <= slackX && Math.abs(mask.y - drawn.y) <= slackY)).toBe(
      true,
    );
  }
}

describe('image occlusion notes', () => {
  it('makes a note from an upload with suggested masks, adjusts by mouse and touch, studies it at 1280 and 390 px, and edits it keeping history', async () => {
    const context = await newContext({ width: 1280, height: 900 });
    const page = await context.newPage();
    const { token, auth } = await signUpByApi(page.request, 'occlusion', 'Olga');
    const deckName = `Cells ${Date.now().toString(36)}`;
    const deckId = await createDeck(page.request, auth, deckName);
    await signInWithToken(page, token, '/review');
    await page.getByRole('heading', { name: deckName, level: 2 }).waitFor();

    // Add Card → Image occlusion → upload: the masks come from the image's own labels.
    await page.getByRole('button', { name: 'Add Card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Card' });
    await dialog.getByRole('radio', { name: 'Image occlusion' }).check();
    const suggested = page.waitForResponse((response) => response.url().endsWith('/occlusion/suggest'), {
      timeout: 90_000,
    });
    await dialog.getByLabel('Image to occlude (JPG, PNG, WebP or GIF)').setInputFiles(diagram);
    const suggestion = (await (await suggested).json()) as { boxes: (Mask & { text: string })[] };
    const labels = suggestion.boxes.map((box) => box.text.toUpperCase());
    expect(labels).toEqual(expect.arrayContaining(['NUCLEUS', 'MEMBRANE', 'RIBOSOME', 'VACUOLE']));
    const count = suggestion.boxes.length;
    await dialog.getByText(`${count} masks suggested, one per label found.`, { exact: false }).waitFor();
    const stage = dialog.getByRole('group', { name: 'Masks over the image' });
    await stage.getByRole('button', { name: `Mask ${count}, card ${count}` }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Mouse: mask 1 dragged 60 px right and 30 px down.
    const first = stage.getByRole('button', { name: 'Mask 1, card 1' });
    const stageBox = await boxOf(stage);
    const firstBox = await boxOf(first);
    await page.mouse.move(firstBox.x + firstBox.width / 2, firstBox.y + firstBox.height / 2);
    await page.mouse.down();
    await page.mouse.move(firstBox.x + firstBox.width / 2 + 60, firstBox.y + firstBox.height / 2 + 30, { steps: 6 });
    await page.mouse.up();
    const movedBox = await boxOf(first);
    expectNear(movedBox.x - firstBox.x, 60);
    expectNear(movedBox.y - firstBox.y, 30);

    // Touch: a tap selects mask 2, then a finger drags its bottom-right corner 40 px right and 20 px down.
    const second = stage.getByRole('button', { name: 'Mask 2, card 2' });
    const unselected = await boxOf(second);
    const middle = { x: unselected.x + unselected.width / 2, y: unselected.y + unselected.height / 2 };
    await touchDrag(page, middle, middle);
    expect(await second.getAttribute('aria-pressed')).toBe('true');
    const secondBox = await boxOf(second);
    const corner = stage.locator('[data-corner="se"]');
    const cornerBox = await boxOf(corner);
    const grab = { x: cornerBox.x + cornerBox.width / 2, y: cornerBox.y + cornerBox.height / 2 };
    await touchDrag(page, grab, { x: grab.x + 40, y: grab.y + 20 });
    const resizedBox = await boxOf(second);
    expectNear(resizedBox.x - secondBox.x, 0);
    expectNear(resizedBox.width - secondBox.width, 40);
    expectNear(resizedBox.height - secondBox.height, 20);

    // Keyboard: Escape drops the selection (mask 2), then the last two masks are grouped into one card.
    await stage.getByRole('button', { name: `Mask ${count - 1}, card ${count - 1}` }).focus();
    await page.keyboard.press('Escape');
    expect(await second.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('g');
    await dialog.getByText(`${count} masks, ${count - 1} cards`).waitFor();
    await dialog.getByRole('button', { name: 'Save occlusion note' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The note: the moved and resized masks as fractions of the image, one card per group.
    let cards = await deckCards(page, auth, deckId);
    expect(cards).toHaveLength(count - 1);
    const noteId = (cards[0] as DeckCard).note_id;
    const note = await noteOf(page, auth, noteId);
    const scale = stageBox.width;
    const [moved, resized] = note.fields.masks as [Mask, Mask];
    expect(Math.abs(moved.x - (suggestion.boxes[0] as Mask).x - 60 / scale)).toBeLessThan(0.005);
    expect(Math.abs(resized.w - (suggestion.boxes[1] as Mask).w - 40 / scale)).toBeLessThan(0.005);
    expect(note.fields.mode).toBe('hide_one');

    // Study at 1280 px: the question covers the target; the answer outlines it.
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await page.getByTestId('swipe-card').waitFor();
    await expectSharpAndInPlace(page, note.fields.masks);
    expect(await page.locator('.occlusion-image__reveal').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Space');
    await page.getByTestId('swipe-card').locator('.swipe-card__face--back').waitFor();
    expect(await page.locator('.occlusion-image__reveal').count()).toBeGreaterThan(0);
    expect(await page.locator('.occlusion-image__mask--target').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    // Study at 390 px: the same card, the image scaled down, the masks still on their labels; answered "Know it".
    const phone = await newContext({ width: 390, height: 844 });
    const small = await phone.newPage();
    await signInWithToken(small, token, '/review');
    await small.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await small.getByTestId('swipe-card').waitFor();
    await expectSharpAndInPlace(small, note.fields.masks);
    expect(await seriousViolations(small)).toEqual([]);
    await small.keyboard.press('Space');
    await small.getByTestId('swipe-card').locator('.swipe-card__face--back').waitFor();
    expect(await small.locator('.occlusion-image__reveal').count()).toBeGreaterThan(0);
    await small.keyboard.press('d');
    await small.locator('[role="progressbar"][aria-valuenow="1"]').waitFor();
    const studied = (await deckCards(small, auth, deckId)).find((card) => card.reps === 1) as DeckCard;
    expect(studied).toBeDefined();
    await phone.close();

    // Editing the note: the same editor opens from the Cards tab; the last group's masks are deleted.
    const again = await newContext({ width: 1280, height: 900 });
    const editorPage = await again.newPage();
    await signInWithToken(editorPage, token, '/review');
    await editorPage.getByRole('button', { name: `Settings: ${deckName}` }).click();
    const settings = editorPage.getByRole('dialog', { name: `Deck settings: ${deckName}` });
    await settings.getByRole('tab', { name: 'Cards' }).click();
    await settings.getByRole('button', { name: `Edit note of cards 1 to ${count - 1}` }).click();
    const editor = settings.getByRole('form', { name: 'Image occlusion note' });
    const editStage = editor.getByRole('group', { name: 'Masks over the image' });
    await editStage.getByRole('button', { name: `Mask ${count}, card ${count - 1}` }).focus();
    await editorPage.keyboard.press('Shift+Tab');
    await editorPage.keyboard.press('Space');
    await editorPage.keyboard.press('Tab');
    await editorPage.keyboard.press('Space');
    await editorPage.keyboard.press('Delete');
    await editor.getByText(`${count - 2} masks, ${count - 2} cards`).waitFor();
    expect(await seriousViolations(editorPage)).toEqual([]);
    await editor.getByRole('button', { name: 'Save note' }).click();
    await editor.waitFor({ state: 'detached' });

    // The cards of the groups still there are the same cards, the studied one with its review kept.
    const before = new Map(cards.map((card) => [card.ord, card._id]));
    cards = await deckCards(editorPage, auth, deckId);
    expect(cards).toHaveLength(count - 2);
    for (const card of cards) expect(card._id).toBe(before.get(card.ord));
    const kept = cards.find((card) => card._id === studied._id);
    if (studied.ord < count - 2) expect(kept?.reps).toBe(1);
    else expect(kept).toBeUndefined();
    await again.close();
  }, 240_000);
});
