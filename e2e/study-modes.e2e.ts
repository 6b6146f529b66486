/**
 * Study modes end to end: a typed answer with a typo checked as close, its diff shown and the verdict overruled;
 * multiple choice and matching quizzes by keyboard and by touch on a 390 px phone; reading aloud in the deck's
 * language through a stand-in for the browser's speech synthesis; axe on each of these screens.
 */
import type { Browser, CDPSession, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Auth, createDeck, saveCards, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { baseUrl, newPage, signInWithToken } from './support/pages';

const browser = useBrowser();

const elements = [
  { question: 'Symbol of sodium?', answer: 'Na' },
  { question: 'Symbol of iron?', answer: 'Fe' },
  { question: 'Symbol of gold?', answer: 'Au' },
  { question: 'Symbol of silver?', answer: 'Ag' },
  { question: 'Symbol of potassium?', answer: 'K' },
  { question: 'Symbol of lead?', answer: 'Pb' },
];

interface MultipleChoice {
  questions: { card_id: string; question: string; options: string[]; answer_index: number }[];
}
interface Matching {
  questions: { pairs: { card_id: string; left: string; right: string }[] }[];
}

async function deckWith(page: Page, label: string, cards: readonly { question: string; answer: string }[]) {
  const { token, auth } = await signUpByApi(page.request, label, 'Student');
  const deckName = `Elements ${Date.now().toString(36)}`;
  const deckId = await createDeck(page.request, auth, deckName);
  await saveCards(page.request, auth, deckId, cards);
  return { token, auth, deckId, deckName };
}

/** A phone: 390 px wide, touch. */
async function phonePage(from: Browser): Promise<Page> {
  const context = await from.newContext({
    baseURL: baseUrl(),
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    bypassCSP: true,
  });
  return await context.newPage();
}

/** Generates a quiz of `mode` on the Quiz page and hands back the server's questions. */
async function generate<T>(page: Page, deckName: string, mode: string): Promise<T> {
  await page.getByLabel('Deck').selectOption({ label: `${deckName} (6 cards)` });
  await page.getByLabel('Quiz type').selectOption(mode);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/quiz/generate') && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Generate Quiz' }).click(),
  ]);
  expect(response.status()).toBe(200);
  return (await response.json()) as T;
}

/** A finger drag from the middle of one element to the middle of another (touch events, as a phone sends them). */
async function touchDrag(page: Page, cdp: CDPSession, from: string, to: string) {
  // Both ends on screen: the finger can only let go over what it sees.
  await page.locator(to).scrollIntoViewIfNeeded();
  await page.locator(from).scrollIntoViewIfNeeded();
  const start = await page.locator(from).boundingBox();
  const end = await page.locator(to).boundingBox();
  if (!start || !end) throw new Error('nothing to drag');
  const a = { x: start.x + start.width / 2, y: start.y + start.height / 2 };
  const b = { x: end.x + end.width / 2, y: end.y + end.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [a] });
  for (let step = 1; step <= 8; step++) {
    const point = { x: a.x + ((b.x - a.x) * step) / 8, y: a.y + ((b.y - a.y) * step) / 8 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

async function putSettings(page: Page, auth: Auth, deckId: string, body: object) {
  const response = await page.request.put(`/decks/${deckId}/settings`, { headers: auth, data: body });
  expect(response.status()).toBe(200);
}

describe('study modes', () => {
  it('a typed answer with a typo is close, shows what differed, and the learner overrules it', async () => {
    const page = await newPage(browser());
    const { token, deckName } = await deckWith(page, 'typed', [
      { question: 'Powerhouse of the cell?', answer: 'mitochondria' },
    ]);
    const reviews: Request[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/cards/review') && request.method() === 'POST') reviews.push(request);
    });
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await page.getByLabel('Type the answer').check();
    const field = page.getByLabel('Your answer');
    await field.waitFor();
    await field.fill('mitocondria');
    await field.press('Enter');
    await page.getByText('Your answer: Close').waitFor();
    // The hidden word is for screen readers; what shows is the struck-through letter.
    expect(await page.locator('.answer-diff__text del').textContent()).toBe('missing: h');
    expect(
      await page.locator('.answer-diff__text del').evaluate((node) => getComputedStyle(node).textDecorationLine),
    ).toBe('line-through');
    expect(await page.getByRole('button', { name: /^Know it/ }).getAttribute('aria-describedby')).toBeTruthy();
    expect(await seriousViolations(page)).toEqual([]);
    // Close suggests "Know it"; A overrules it.
    await page.keyboard.press('a');
    await page.getByRole('progressbar', { name: 'Review progress' }).and(page.locator('[aria-valuenow="1"]')).waitFor();
    await expect.poll(() => reviews.length).toBe(1);
    expect(reviews[0]?.postDataJSON()).toMatchObject({ result: 'fail', typed: 'mitocondria', verdict: 'close' });
  });

  it('a multiple-choice quiz by keyboard, and its missed card sent to review, on a 390 px phone', async () => {
    const page = await phonePage(browser());
    const { token, auth, deckName } = await deckWith(page, 'choice', elements);
    await signInWithToken(page, token, '/quiz');
    const quiz = await generate<MultipleChoice>(page, deckName, 'multiple_choice');
    expect(quiz.questions.length).toBeGreaterThan(0);
    for (const [index, question] of quiz.questions.entries()) {
      await page.getByText(`Question ${index + 1} of ${quiz.questions.length}`).waitFor();
      // The first question is missed on purpose; the others are answered right.
      const pick = index === 0 ? (question.answer_index + 1) % 4 : question.answer_index;
      await page.keyboard.press(String(pick + 1));
      await page.getByText(index === 0 ? /^Not quite\. The answer:/ : 'Right!').waitFor();
      if (index === 0) expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Enter');
    }
    const total = quiz.questions.length;
    await page.getByRole('heading', { name: `You scored ${total - 1} of ${total}.` }).waitFor();
    expect(await page.getByRole('list', { name: 'Missed' }).innerText()).toContain(quiz.questions[0]?.question);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send the missed ones to review' }).click();
    await page.getByText('The missed cards are due for review now.').waitFor();
    const due = await page.request.get('/cards/due', { headers: auth });
    const dueIds = ((await due.json()) as { _id: string }[]).map((card) => card._id);
    expect(dueIds).toContain(quiz.questions[0]?.card_id);
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('a matching quiz by keyboard, tap and touch drag on a 390 px phone', async () => {
    const page = await phonePage(browser());
    const { token, deckName } = await deckWith(page, 'matching', elements);
    await signInWithToken(page, token, '/quiz');
    const quiz = await generate<Matching>(page, deckName, 'matching');
    const pairs = quiz.questions[0]?.pairs ?? [];
    expect(pairs.length).toBeGreaterThanOrEqual(4);
    const left = (text: string) => page.getByRole('list', { name: 'Questions' }).getByRole('button', { name: text });
    const right = (text: string) => page.getByRole('list', { name: 'Answers' }).getByRole('button', { name: text });
    await left(pairs[0]?.left ?? '').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Keyboard: focus the question, Enter; then its answer, Enter.
    const [first, second, ...rest] = pairs;
    if (!first || !second) throw new Error('too few pairs');
    await left(first.left).focus();
    await page.keyboard.press('Enter');
    await right(first.right).focus();
    await page.keyboard.press('Enter');
    await left(`${first.left}: matched with ${first.right}`).waitFor();
    // A tap on each.
    await left(second.left).tap();
    await right(second.right).tap();
    await left(`${second.left}: matched with ${second.right}`).waitFor();
    // A finger drags each other answer onto its question.
    const cdp = await page.context().newCDPSession(page);
    for (const pair of rest) {
      await page.evaluate(() => {
        for (const node of document.querySelectorAll('[data-drag]')) node.removeAttribute('data-drag');
      });
      await right(pair.right).evaluate((node) => node.setAttribute('data-drag', 'answer'));
      await left(pair.left).evaluate((node) => node.setAttribute('data-drag', 'question'));
      await touchDrag(page, cdp, '[data-drag="answer"]', '[data-drag="question"]');
      await left(`${pair.left}: matched with ${pair.right}`).waitFor();
    }
    await page.getByRole('button', { name: 'Next' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // Six cards make one round.
    expect(quiz.questions).toHaveLength(1);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `You scored ${pairs.length} of ${pairs.length}.` }).waitFor();
  }, 180_000);

  it("reads a card aloud in the deck's language, and says once when the device has no voice for one", async () => {
    const page = await newPage(browser());
    const { token, auth, deckId, deckName } = await deckWith(page, 'speech', [
      { question: 'le chat', answer: 'die Katze' },
    ]);
    await putSettings(page, auth, deckId, { tts: { question_lang: 'fr-FR', answer_lang: 'de-DE', auto: false } });
    // A stand-in for speech synthesis with a French voice only: what it is asked to say, in which language.
    await page.addInitScript(() => {
      const spoken: { text: string; lang: string }[] = [];
      (window as unknown as { spoken: typeof spoken }).spoken = spoken;
      class Utterance {
        text: string;
        lang = '';
        voice: unknown = null;
        constructor(text: string) {
          this.text = text;
        }
      }
      Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: Utterance, configurable: true });
      Object.defineProperty(window, 'speechSynthesis', {
        configurable: true,
        value: {
          getVoices: () => [{ lang: 'fr-FR', name: 'Amélie' }],
          speak: (utterance: Utterance) => spoken.push({ text: utterance.text, lang: utterance.lang }),
          cancel: () => {},
          addEventListener: () => {},
        },
      });
    });
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await page.getByRole('button', { name: 'Read the question aloud' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { spoken: unknown[] }).spoken))
      .toEqual([{ text: 'le chat', lang: 'fr-FR' }]);
    // Space would press the focused speaker button again: the Show answer button flips the card.
    await page.getByRole('button', { name: 'Show answer' }).click();
    await page.getByRole('button', { name: 'Read the answer aloud' }).click();
    // The browser names the tag: "German (Germany)".
    await page.getByText(/^This device has no voice for German.*, so it is not read aloud\.$/).waitFor();
    expect(await page.evaluate(() => (window as unknown as { spoken: unknown[] }).spoken)).toHaveLength(1);
    expect(await seriousViolations(page)).toEqual([]);
  }, 180_000);

  it('the deck settings show the exam date and read-aloud settings without an axe finding', async () => {
    const page = await newPage(browser());
    const { token, deckName } = await deckWith(page, 'exam', elements);
    await signInWithToken(page, token, '/review');
    await page.getByRole('button', { name: `Settings: ${deckName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Deck settings: ${deckName}` });
    const future = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByLabel('Exam date').fill(future);
    await dialog.getByRole('button', { name: 'Save exam date' }).click();
    await dialog.getByText('Exam date saved.').waitFor();
    await dialog.getByText('Predicted recall on the exam day').waitFor();
    expect(await dialog.getByText('Cards not studied yet').locator('xpath=following-sibling::dd').innerText()).toBe(
      '6',
    );
    expect(await seriousViolations(page)).toEqual([]);
  });
});
