/**
 * Issue 33, notes written by hand and studied: a cloze note made with Anki's shortcut (Ctrl+Shift+C, with Alt the same
 * number), its live preview, and both of its cards studied, the second on the next study day (its sibling held it back
 * on the first); a reversed note studied both ways the same way; the Cards tab's notes and the note editor; axe on
 * each new screen at 1280 and 390 px. The server is one of this file's own, whose clock the test moves a day ahead.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, createDeck, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { signInWithToken } from './support/pages';
import { type ClockedServer, startServerWithMovableClock } from './support/server';

const DAY = 24 * 60 * 60 * 1000;

let server: ClockedServer;
let browser: Browser;

beforeAll(async () => {
  // Beside the run's shared server (E2E_PORT), on the next port of the same band when one is pinned.
  server = await startServerWithMovableClock({
    port: process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 1 : undefined,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface NotedCard {
  _id: string;
  note_id: string;
  card_type: string;
  ord: number;
  question: string;
  answer: string;
  status: string;
  reps: number;
}

/** A fresh browser profile on this file's server, its clock on the server's time (time flows on from there). */
async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport, bypassCSP: true });
  await context.clock.install({ time: Date.now() + server.offsetMs() });
  return await context.newPage();
}

/** The server's and the page's clocks both move on a day: the next study day, for the learner and the server. */
async function nextDay(page: Page): Promise<void> {
  server.advanceClock(DAY);
  await page.clock.setSystemTime(Date.now() + server.offsetMs());
}

/** A new learner with an empty deck, signed in on the deck list. */
async function learnerWithDeck(page: Page, prefix: string) {
  const { token, auth } = await signUpByApi(page.request, 'notes', 'Nora');
  const deckName = `${prefix} ${Date.now().toString(36)}`;
  const deckId = await createDeck(page.request, auth, deckName);
  await signInWithToken(page, token, '/review');
  await page.getByRole('heading', { name: deckName, level: 2 }).waitFor();
  return { auth, deckName, deckId };
}

async function deckCards(page: Page, auth: Auth, deckId: string): Promise<NotedCard[]> {
  const response = await page.request.get(`/decks/${deckId}/cards`, { headers: auth });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as NotedCard[] | { cards: NotedCard[] };
  return Array.isArray(body) ? body : body.cards;
}

async function dueIds(page: Page, auth: Auth, deckId: string): Promise<string[]> {
  const response = await page.request.get(`/cards/due?deck_id=${deckId}`, { headers: auth });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { _id: string }[]).map((card) => card._id);
}

/** Selects the first `part` of the text box's text, as a learner would with the mouse. */
async function select(box: Locator, part: string): Promise<void> {
  await box.evaluate((element, wanted) => {
    const area = element as HTMLTextAreaElement;
    const start = area.value.indexOf(wanted);
    if (start < 0) throw new Error(`"${wanted}" is not in the text`);
    area.focus();
    area.setSelectionRange(start, start + wanted.length);
  }, part);
}

const swipeCard = (page: Page) => page.getByTestId('swipe-card');

/**
 * Studies the deck's session to its end with "Know it", checking each card shown is one of `expected` (by a piece
 * of its question) and never one of `heldBack` (with `axe`, axe checks the first card once flipped); the questions
 * seen, in order.
 */
async function studyToTheEnd(page: Page, deckName: string, expected: string[], heldBack: string[], axe = false) {
  await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
  const seen: string[] = [];
  const completed = page.getByRole('heading', { name: 'Review completed!' });
  for (let step = 0; step < 8; step++) {
    await swipeCard(page).or(completed).first().waitFor();
    if (await completed.isVisible()) break;
    const question = await swipeCard(page).locator('.card-markdown').first().innerText();
    expect(expected.some((piece) => question.includes(piece))).toBe(true);
    expect(heldBack.some((piece) => question.includes(piece))).toBe(false);
    seen.push(question);
    await page.keyboard.press('Space');
    await swipeCard(page).locator('.swipe-card__face--back').waitFor();
    if (axe && step === 0) expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('d');
    // The answer is taken: the dial moved on, or the session ended.
    await page
      .locator(`[role="progressbar"][aria-valuenow="${step + 1}"]`)
      .or(completed)
      .first()
      .waitFor();
  }
  await completed.waitFor();
  await page.getByRole('button', { name: 'Back to Decks' }).click();
  return seen;
}

describe('notes written by hand', () => {
  it('writes a cloze note with Ctrl+Shift+C and studies both of its cards, the second on the next study day', async () => {
    const page = await newPage();
    const { auth, deckName, deckId } = await learnerWithDeck(page, 'Chemistry');

    await page.getByRole('button', { name: 'Add Card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Card' });
    await dialog.getByRole('radio', { name: 'Cloze' }).check();
    const text = dialog.getByLabel('Text', { exact: true });
    await text.fill('Water is H2O. It boils at $100^\\circ C$ at sea level.');

    // The shortcut wraps the selection in the next number; the caret lands after the deletion, so a hint is typed
    // before its closing braces.
    await select(text, 'H2O');
    await text.press('Control+Shift+C');
    await text.press('ArrowLeft');
    await text.press('ArrowLeft');
    await text.pressSequentially('::formula');
    await select(text, '$100^\\circ C$');
    await text.press('Control+Shift+C');
    // With Alt, the same number as the last: one card hides both.
    await select(text, 'sea level');
    await text.press('Control+Shift+Alt+C');
    const written = 'Water is {{c1::H2O::formula}}. It boils at {{c2::$100^\\circ C$}} at {{c2::sea level}}.';
    expect(await text.inputValue()).toBe(written);
    // The wrap is in the browser's undo history: Ctrl+Z takes it back, and the Cloze button does it again.
    await text.press('Control+Z');
    expect(await text.inputValue()).toBe(
      'Water is {{c1::H2O::formula}}. It boils at {{c2::$100^\\circ C$}} at sea level.',
    );
    await select(text, 'sea level');
    await text.press('Control+Shift+Alt+C');
    expect(await text.inputValue()).toBe(written);

    // The preview shows both cards as review will: the hint or [...] on the question, the answer in bold, math
    // rendered inside a deletion.
    const preview = dialog.getByRole('region', { name: 'Preview' });
    const previewCards = preview.locator('.note-preview__card');
    await expect.poll(() => previewCards.count()).toBe(2);
    expect(await previewCards.nth(0).locator('.note-preview__title').innerText()).toBe('Card 1 (cloze 1)');
    expect(await previewCards.nth(1).locator('.note-preview__title').innerText()).toBe('Card 2 (cloze 2)');
    await previewCards.nth(1).locator('strong .katex').waitFor();
    const firstQuestion = previewCards.nth(0).locator('.card-markdown').first();
    expect(await firstQuestion.innerText()).toContain('Water is [formula].');
    expect(await previewCards.nth(0).locator('.card-markdown').nth(1).locator('strong').innerText()).toBe('H2O');
    const secondQuestion = await previewCards.nth(1).locator('.card-markdown').first().innerText();
    expect(secondQuestion).toBe('Water is H2O. It boils at [...] at [...].');
    expect(await previewCards.nth(1).locator('.card-markdown').nth(1).locator('strong').count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Add card' }).click();
    await dialog.waitFor({ state: 'detached' });
    const cards = await deckCards(page, auth, deckId);
    expect(cards.map(({ card_type, ord, question }) => ({ card_type, ord, question }))).toEqual([
      { card_type: 'cloze', ord: 0, question: 'Water is [formula]. It boils at $100^\\circ C$ at sea level.' },
      { card_type: 'cloze', ord: 1, question: 'Water is H2O. It boils at [...] at [...].' },
    ]);
    expect(cards[0]?.note_id).toBe(cards[1]?.note_id);

    // Day one: the first cloze (through its learning step); its sibling is held back for the day.
    const dayOne = await studyToTheEnd(page, deckName, ['[formula]'], ['[...]']);
    expect(dayOne.length).toBeGreaterThan(0);
    expect(await dueIds(page, auth, deckId)).toEqual([]);

    // The next study day: the second cloze, whose answer renders its math in bold.
    await nextDay(page);
    await expect.poll(() => dueIds(page, auth, deckId)).toEqual([cards[1]?._id]);
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await swipeCard(page).getByText('Water is H2O. It boils at [...] at [...].').waitFor();
    await page.keyboard.press('Space');
    const back = swipeCard(page).locator('.swipe-card__face--back');
    await back.locator('strong .katex').waitFor();
    expect(await back.locator('strong').nth(1).innerText()).toBe('sea level');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back to Decks' }).click();
    const dayTwo = await studyToTheEnd(page, deckName, ['[...]'], ['[formula]']);
    expect(dayTwo.length).toBeGreaterThan(0);
    const studied = await deckCards(page, auth, deckId);
    expect(studied.map((card) => card.reps > 0)).toEqual([true, true]);
    await page.context().close();
  }, 120_000);

  it('studies a reversed note both ways, the reverse card on the next study day', async () => {
    const page = await newPage({ width: 390, height: 844 });
    const { auth, deckName, deckId } = await learnerWithDeck(page, 'German');

    await page.getByRole('button', { name: 'Add Card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Card' });
    await dialog.getByRole('radio', { name: 'Basic and reversed' }).check();
    await dialog.getByLabel('Front', { exact: true }).fill('der **Hund**');
    await dialog.getByLabel('Back', { exact: true }).fill('the dog');
    const preview = dialog.getByRole('region', { name: 'Preview' });
    await expect.poll(() => preview.locator('.note-preview__card').count()).toBe(2);
    expect(await preview.locator('.note-preview__title').allInnerTexts()).toEqual(['Card 1', 'Card 2 (reversed)']);
    expect(await seriousViolations(page)).toEqual([]);
    // Ctrl+Enter saves and keeps the form open, the type kept for the next note.
    await dialog.getByLabel('Back', { exact: true }).press('Control+Enter');
    await dialog.getByText(`2 cards added to "${deckName}". Add the next note.`).waitFor();
    expect(await dialog.getByRole('radio', { name: 'Basic and reversed' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });

    const cards = await deckCards(page, auth, deckId);
    expect(cards.map(({ card_type, ord, question, answer }) => ({ card_type, ord, question, answer }))).toEqual([
      { card_type: 'basic', ord: 0, question: 'der **Hund**', answer: 'the dog' },
      { card_type: 'reverse', ord: 1, question: 'the dog', answer: 'der **Hund**' },
    ]);

    expect(await studyToTheEnd(page, deckName, ['der Hund'], ['the dog'])).not.toEqual([]);
    expect(await dueIds(page, auth, deckId)).toEqual([]);
    await nextDay(page);
    await expect.poll(() => dueIds(page, auth, deckId)).toEqual([cards[1]?._id]);
    const reverse = await studyToTheEnd(page, deckName, ['the dog'], ['der Hund'], true);
    expect(reverse[0]).toBe('the dog');
    expect((await deckCards(page, auth, deckId)).map((card) => card.reps > 0)).toEqual([true, true]);
    await page.context().close();
  }, 120_000);

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`lists notes with their cards in the Cards tab and edits a cloze note (${viewport.width} px)`, async () => {
      const page = await newPage(viewport);
      const { auth, deckName, deckId } = await learnerWithDeck(page, 'Notes');
      for (const note of [
        { type: 'basic', fields: { front: 'Capital of France?', back: 'Paris' } },
        {
          type: 'cloze',
          fields: { text: '{{c1::Mitochondria}} make {{c2::ATP::a molecule}}.', extra: 'Cell biology' },
        },
        { type: 'reversed', fields: { front: 'la casa', back: 'the house' } },
      ]) {
        const response = await page.request.post('/notes', { headers: auth, data: { deck_id: deckId, ...note } });
        expect(response.status()).toBe(201);
      }
      await page.reload();
      await page.getByRole('button', { name: `Settings: ${deckName}` }).click();
      const settings = page.getByRole('dialog', { name: `Deck settings: ${deckName}` });
      await settings.getByRole('tab', { name: 'Cards' }).click();
      await settings.getByText('Cloze note, 2 cards').waitFor();
      await settings.getByText('Basic and reversed note, 2 cards').waitFor();
      expect(await settings.getByText('Card 3 (cloze 2)', { exact: true }).isVisible()).toBe(true);
      expect(await settings.getByText('Card 5 (reversed)', { exact: true }).isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      // Editing the cloze note: taking c2 out says that its card goes; saving leaves one card.
      await settings.getByRole('button', { name: 'Edit note of cards 2 to 3' }).click();
      const editor = settings.getByRole('form', { name: 'Edit note' });
      const text = editor.getByLabel('Text', { exact: true });
      expect(await text.inputValue()).toBe('{{c1::Mitochondria}} make {{c2::ATP::a molecule}}.');
      await text.fill('{{c1::Mitochondria}} make ATP.');
      await editor
        .getByText('Saving deletes the cards of the clozes no longer in the text (c2), with their review history.')
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await editor.getByRole('button', { name: 'Save note' }).click();
      await editor.waitFor({ state: 'detached' });
      await settings.getByText('Cloze note, 1 card').waitFor();
      const cards = await deckCards(page, auth, deckId);
      expect(cards.filter((card) => card.card_type === 'cloze').map((card) => card.question)).toEqual([
        '[...] make ATP.',
      ]);
      await page.context().close();
    });
  }
});
