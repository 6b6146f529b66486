/**
 * The review page end to end: decks and cards made through the API, reviewed in the browser with the keys and a
 * swipe, the results checked through the API; then the deck is shared and exported to Anki.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ApiCard, createDeck, saveCards, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { baseUrl, newPage, signInWithToken } from './support/pages';

const browser = useBrowser();

const cards = [
  { question: 'What is the powerhouse of the cell?', answer: 'The **mitochondrion**.' },
  { question: 'What holds the genetic material?', answer: 'The nucleus.' },
  { question: 'What makes proteins?', answer: 'Ribosomes.' },
];

/** The question on the card now. */
async function currentQuestion(page: Page): Promise<string> {
  const card = page.getByTestId('swipe-card');
  await card.getByText('Question', { exact: true }).waitFor();
  const text = (await card.locator('.card-markdown').first().innerText()).trim();
  expect(cards.map((c) => c.question)).toContain(text);
  return text;
}

async function drag(page: Page, dx: number) {
  const box = await page.getByTestId('swipe-card').boundingBox();
  if (!box) throw new Error('no card on screen');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 5 });
  await page.mouse.move(x + dx, y, { steps: 5 });
  await page.mouse.up();
}

describe('the review page', () => {
  it('reviews a deck with the keys and a swipe, then shares and exports it', async () => {
    const page = await newPage(browser());
    const request = page.request;
    const { token, auth } = await signUpByApi(request, 'reviewer', 'Reviewer');
    const deckName = `Cells ${Date.now().toString(36)}`;
    const deckId = await createDeck(request, auth, deckName);
    await saveCards(request, auth, deckId, cards);

    await signInWithToken(page, token, '/review');
    await page.getByRole('heading', { name: deckName, level: 2 }).waitFor();
    await page.getByText('3 cards · 20 new a day').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    const first = await currentQuestion(page);
    expect(await page.getByRole('progressbar', { name: 'Review progress' }).getAttribute('aria-valuetext')).toBe(
      '0 of 3 cards',
    );
    expect(await page.locator('.session-counts__item--new dd').innerText()).toBe('3');
    // A mouse and keyboard screen shows the keys.
    expect(await page.locator('.review-actions .kbd').first().isVisible()).toBe(true);
    expect(await page.locator('.review-hint--keys').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // Space shows the answer (markdown rendered) below the question; D: know it.
    await page.keyboard.press('Space');
    await page.getByTestId('swipe-card').getByText('Answer', { exact: true }).waitFor();
    const written = cards.find((c) => c.question === first)?.answer ?? '';
    const shownAnswer = written.replace(/\*\*/g, '');
    // Until the renderer has loaded, markdown shows as written.
    if (written !== shownAnswer) await page.getByTestId('swipe-card').locator('.card-markdown strong').waitFor();
    const sides = await page.getByTestId('swipe-card').locator('.card-markdown').allInnerTexts();
    expect(sides.map((text) => text.trim())).toEqual([first, shownAnswer]);
    await page.keyboard.press('d');
    await page.getByRole('progressbar', { name: 'Review progress' }).and(page.locator('[aria-valuenow="1"]')).waitFor();

    // A: don't know.
    const second = await currentQuestion(page);
    expect(second).not.toBe(first);
    await page.keyboard.press('a');
    await page.locator('[role="progressbar"][aria-valuenow="2"]').waitFor();

    // A short drag snaps back; a long one to the right answers "know it".
    const third = await currentQuestion(page);
    await drag(page, 60);
    await page.waitForTimeout(500);
    expect(await currentQuestion(page)).toBe(third);
    expect(await page.locator('[role="progressbar"]').getAttribute('aria-valuenow')).toBe('2');
    await drag(page, 160);
    // Nothing new is left: the failed card, due again in a minute (within the learn-ahead), comes back first.
    await page.locator('[role="progressbar"][aria-valuenow="3"]').waitFor();
    expect(await currentQuestion(page)).toBe(second);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back to Decks' }).click();

    // The server recorded pass, fail, pass: failed cards come back after 1 minute, passed ones after 10.
    const listed = (await (await request.get(`/decks/${deckId}/cards`, { headers: auth })).json()) as ApiCard[];
    const byQuestion = new Map(listed.map((c) => [c.question, c]));
    const wait = (question: string) => Date.parse(byQuestion.get(question)?.due_date ?? '') - Date.now();
    for (const question of [first, second, third]) {
      expect(byQuestion.get(question)).toMatchObject({ status: 'learning', reps: 1 });
    }
    expect(wait(second)).toBeLessThan(2 * 60_000);
    expect(wait(first)).toBeGreaterThan(5 * 60_000);
    expect(wait(third)).toBeGreaterThan(5 * 60_000);
    const stats = await (await request.get(`/decks/${deckId}/stats`, { headers: auth })).json();
    expect(stats).toMatchObject({ total_cards: 3, new_cards: 0, learning_cards: 3, cards_reviewed_today: 3 });

    // A new session finds nothing due now: the next card comes in about a minute.
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await page.getByRole('heading', { name: 'No cards to review!' }).waitFor();
    await page.getByText(/^Next cards available (very soon|in 1 minute)\.$/).waitFor();

    // Share: the link is this origin + /share/ + code, and opens the deck's preview.
    await page.getByRole('button', { name: 'Back to Decks' }).click();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.getByRole('button', { name: `Share: ${deckName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Share deck: ${deckName}` });
    const linkField = dialog.getByLabel('Anyone with this link can preview and import the deck');
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(new RegExp(`^${baseUrl().replace(/\./g, '\\.')}/share/[A-Za-z0-9_-]+$`));
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const code = link.split('/share/')[1] ?? '';
    const shared = await request.get(`/shared/${code}`);
    expect(shared.status()).toBe(200);
    expect(await shared.json()).toMatchObject({ deck_name: deckName, card_count: 3 });

    // Export to Anki: a CSV of question and answer, markdown as HTML, named after the deck.
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export Anki CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${deckName}_Anki_Export.csv`);
    const csv = readFileSync((await file.path()) ?? '', 'utf8');
    const rows = csv.split('\r\n').sort();
    expect(rows).toEqual(
      [
        'What is the powerhouse of the cell?,The <strong>mitochondrion</strong>.',
        'What holds the genetic material?,The nucleus.',
        'What makes proteins?,Ribosomes.',
      ].sort(),
    );
    await page.keyboard.press('Escape');

    const sharedPage = await newPage(browser());
    await sharedPage.goto(link);
    await sharedPage.getByRole('heading', { name: deckName }).waitFor();
    await sharedPage.context().close();
    await page.context().close();
  });

  it('works on a 320 px phone: deck actions and the review buttons fit', async () => {
    const page = await newPage(browser(), { width: 320, height: 640 });
    const { token, auth } = await signUpByApi(page.request, 'reviewer', 'Reviewer');
    await saveCards(page.request, auth, await createDeck(page.request, auth, 'Phone deck'), cards.slice(0, 1));
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: 'Review Deck: Phone deck' }).click();
    await page.getByRole('button', { name: 'Know it · 10 min' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Know it · 10 min' }).click();
    // Back at once (within the learn-ahead); a second pass graduates it and the session ends.
    await page.getByRole('button', { name: /^Know it · \d+ d$/ }).click();
    await page.getByRole('heading', { name: 'Review completed!' }).waitFor();
    await page.context().close();
  });

  it('brings a failed card back within the session, labels the grades, and ends when nothing is due within the learn-ahead', async () => {
    const page = await newPage(browser());
    const { token, auth } = await signUpByApi(page.request, 'reviewer', 'Reviewer');
    const deckName = `Steps ${Date.now().toString(36)}`;
    const deckId = await createDeck(page.request, auth, deckName);
    const [cardId] = await saveCards(page.request, auth, deckId, cards.slice(0, 1));
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    expect(await currentQuestion(page)).toBe(cards[0]?.question);
    // A new card: a fail brings it back in a minute, a pass in ten.
    await page.getByRole('button', { name: "Don't know · 1 min" }).waitFor();
    await page.getByRole('button', { name: 'Know it · 10 min' }).waitFor();

    // The answer side keeps the question above the answer.
    await page.keyboard.press('Space');
    const sides = page.getByTestId('swipe-card').locator('.card-markdown');
    // Rendered markdown (until the renderer has loaded, the text shows as written).
    await sides.nth(1).locator('strong').waitFor();
    expect((await sides.allInnerTexts()).map((text) => text.trim())).toEqual([
      cards[0]?.question,
      'The mitochondrion.',
    ]);
    expect(await seriousViolations(page)).toEqual([]);

    // Don't know: due in a minute, within the 20-minute learn-ahead, and nothing else is left: it is back at once.
    await page.keyboard.press('a');
    await page.locator('[role="progressbar"][aria-valuenow="1"]').waitFor();
    expect(await currentQuestion(page)).toBe(cards[0]?.question);
    expect(await page.getByRole('heading', { name: 'Review completed!' }).count()).toBe(0);
    // Its grades now come from the server's reply to that answer: a pass moves it to the 10-minute step.
    await page.getByRole('button', { name: 'Know it · 10 min' }).click();
    await page.locator('[role="progressbar"][aria-valuenow="2"]').waitFor();
    expect(await currentQuestion(page)).toBe(cards[0]?.question);
    // Passing the last step graduates it for days: nothing is due within the learn-ahead, and the session ends.
    const graduate = page.getByRole('button', { name: /^Know it · \d+ d$/ });
    await graduate.click();
    await page.getByRole('heading', { name: 'Review completed!' }).waitFor();
    await page.getByText('Cards reviewed today: 1').waitFor();

    const listed = (await (await page.request.get(`/decks/${deckId}/cards`, { headers: auth })).json()) as ApiCard[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ _id: cardId, status: 'due', reps: 3 });
    expect(Date.parse(listed[0]?.due_date ?? '') - Date.now()).toBeGreaterThan(20 * 60_000);
    await page.context().close();
  });

  it('answers a real touch swipe that starts on the card text, on a 390 px touch screen without keyboard hints', async () => {
    const context = await browser().newContext({
      baseURL: baseUrl(),
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      bypassCSP: true,
    });
    const page = await context.newPage();
    const { token, auth } = await signUpByApi(page.request, 'thumb', 'Thumb');
    const deckName = `Thumb ${Date.now().toString(36)}`;
    const deckId = await createDeck(page.request, auth, deckName);
    const long = `${'A long question that wraps over several lines of the card text. '.repeat(4)}$x^2$?`;
    await saveCards(page.request, auth, deckId, [
      { question: long, answer: 'Yes.' },
      { question: 'Second card', answer: 'Two' },
    ]);
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    const text = page.getByTestId('swipe-card').locator('.card-markdown').first();
    await text.locator('.katex').waitFor();

    // No keyboard hints on a touch screen; the touch one instead.
    expect(await page.locator('.review-session .kbd').first().isVisible()).toBe(false);
    expect(await page.locator('.review-hint--keys').isVisible()).toBe(false);
    expect(await page.locator('.review-hint--touch').isVisible()).toBe(true);

    const box = await text.boundingBox();
    if (!box) throw new Error('no card text on screen');
    const x = box.x + box.width / 3;
    const y = box.y + box.height / 2;
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', at: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x: at, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }],
      });
    // The swipe starts on the text and is labelled while it goes.
    expect(
      await page.evaluate(
        ([px, py]) => document.elementFromPoint(px ?? 0, py ?? 0)?.closest('.card-markdown') !== null,
        [x, y],
      ),
    ).toBe(true);
    await touch('touchStart', x);
    for (let step = 1; step <= 8; step++) await touch('touchMove', x + step * 20);
    await page.locator('.swipe-card__direction--pass').waitFor();
    expect(await page.locator('.swipe-card__direction--pass').innerText()).toBe('Know it');
    // Dragged 160 px, the card reaches past its stage, which does not clip it, and the page does not scroll sideways.
    const layout = await page.evaluate(() => {
      const stage = document.querySelector('.review-stage') as HTMLElement;
      const card = document.querySelector('[data-testid="swipe-card"]') as HTMLElement;
      return {
        stageOverflow: getComputedStyle(stage).overflow,
        pastStage: card.getBoundingClientRect().right - stage.getBoundingClientRect().right,
        sideways: document.documentElement.scrollWidth - window.innerWidth,
      };
    });
    expect(layout.stageOverflow).toBe('visible');
    expect(layout.pastStage).toBeGreaterThan(0);
    expect(layout.sideways).toBeLessThanOrEqual(0);
    await touch('touchEnd', x + 160);

    await page.locator('[role="progressbar"][aria-valuenow="1"]').waitFor();
    expect((await page.getByTestId('swipe-card').locator('.card-markdown').first().innerText()).trim()).toBe(
      'Second card',
    );
    await expect
      .poll(async () => {
        const listed = (await (
          await page.request.get(`/decks/${deckId}/cards`, { headers: auth })
        ).json()) as ApiCard[];
        return listed.find((card) => card.question === long)?.reps;
      })
      .toBe(1);
    await context.close();
  });

  it('shows no keyboard hints on a wide touch screen either', async () => {
    const context = await browser().newContext({
      baseURL: baseUrl(),
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
      isMobile: true,
      bypassCSP: true,
    });
    const page = await context.newPage();
    const { token, auth } = await signUpByApi(page.request, 'tablet', 'Tablet');
    const deckName = `Tablet ${Date.now().toString(36)}`;
    await saveCards(page.request, auth, await createDeck(page.request, auth, deckName), cards.slice(0, 1));
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await page.getByTestId('swipe-card').waitFor();
    expect(await page.evaluate(() => matchMedia('(hover: none), (pointer: coarse)').matches)).toBe(true);
    expect(await page.locator('.review-actions .kbd').first().isVisible()).toBe(false);
    expect(await page.locator('.review-hint--keys').isVisible()).toBe(false);
    expect(await page.locator('.review-hint--touch').isVisible()).toBe(true);
    await context.close();
  });
});
