/**
 * Streaming generation in the browser: a server started as `npm start` starts it, connected to a slow local
 * OpenAI-compatible model that streams its reply. Cards appear on the create page before the model has finished,
 * the final list replaces them, and Cancel stops the model's work.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeChatServer, streamCompletion } from '../apps/server/test/support/fake-chat-server';
import { launchBrowser } from './support/browser';
import { signUpInBrowser, uniqueEmail } from './support/pages';
import { type RunningServer, startServer } from './support/server';

const fake = new FakeChatServer();
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const modelUrl = await fake.start();
  server = await startServer({
    AI_PROVIDER: 'openai',
    OPENAI_BASE_URL: modelUrl,
    AI_MODEL: 'e2e-model',
    AI_MAX_RETRIES: '0',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake.stop();
});

function cardsReply(prefix: string, count: number): string {
  return JSON.stringify({
    cards: Array.from({ length: count }, (_, i) => ({
      question: `What does ${prefix} law ${i + 1} state?`,
      answer: `${prefix} law ${i + 1} states a distinct fact number ${i + 1}.`,
      // A passage of the pasted notes: the card is verified, so it arrives selected.
      quote: 'Newton described motion with three laws.',
    })),
  });
}

/**
 * The model's next replies: `count` cards on `prefix`'s laws, streamed `piece` characters every 60 ms. The answer
 * tells whether the model got to the end of a reply and whether it saw the client hang up.
 */
function modelStreams(prefix: string, count: number, piece: number) {
  const model = { finished: false, gone: false };
  fake.handler = async (_request, res) => {
    model.finished = false;
    await streamCompletion(res, cardsReply(prefix, count), {
      piece,
      delayMs: 60,
      onClientGone: () => {
        model.gone = true;
      },
    });
    model.finished = true;
  };
  return model;
}

async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpInBrowser(page, uniqueEmail('stream'), 'Stream');
  return page;
}

const notes = 'Newton described motion with three laws. Kepler described the orbits of planets with three more.';

describe('streaming generation on the create page', () => {
  it('shows cards while the model is still writing, then the final list', async () => {
    const model = modelStreams('Newton', 6, 6);
    const page = await signedInPage();
    await page.getByLabel('Text to turn into flashcards').fill(notes);
    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).click();
    const cards = page.locator('.create-results__grid > li');
    await cards.first().waitFor({ timeout: 20_000 });
    expect(model.finished).toBe(false);
    expect(await page.getByRole('button', { name: 'Generating...' }).isDisabled()).toBe(true);
    expect(await page.getByText('Generation may take up to 2 minutes...').count()).toBe(1);
    expect(await page.getByRole('progressbar', { name: 'Generation progress' }).count()).toBe(1);
    expect(await page.getByText(/^Writing cards… \d+ so far$/).count()).toBe(1);
    expect(await cards.count()).toBeLessThan(6);
    await page.getByText('What does Newton law 1 state?').waitFor();

    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).waitFor({ timeout: 30_000 });
    expect(model.finished).toBe(true);
    expect(await cards.count()).toBe(6);
    expect(await page.getByText('6 of 6 selected').count()).toBe(1);
    // What was shown is stored: a reload keeps it.
    await page.reload();
    await page.getByRole('heading', { name: 'Generated Cards' }).waitFor();
    expect(await cards.count()).toBe(6);
    await page.context().close();
  });

  it('Cancel stops the generation: the model request is dropped, the cards that came stay', async () => {
    const model = modelStreams('Kepler', 20, 4);
    const page = await signedInPage();
    await page.getByLabel('Text to turn into flashcards').fill(notes);
    await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).click();
    await page.getByText('What does Kepler law 1 state?').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Generation cancelled. The cards that arrived are kept.').waitFor();
    const started = Date.now();
    while (!model.gone && Date.now() - started < 2_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(model.gone).toBe(true);
    expect(await page.getByRole('button', { name: 'Generate Flashcards (Cost: 1)' }).isEnabled()).toBe(true);
    expect(await page.locator('.create-results__grid > li').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    await page.context().close();
  });
});
