/**
 * Sharing end to end. Needs the deck and sharing endpoints of docs/api.md (POST /decks, POST /save-cards,
 * POST /decks/{id}/share, GET /shared/{code}, POST /shared/{code}/import, GET /decks); kept in its own file so
 * that it can be told apart while those endpoints land on another branch.
 */
import { describe, expect, it } from 'vitest';
import { createDeck, saveCards, signUpByApi } from './support/api';
import { useBrowser } from './support/browser';
import { newPage, PASSWORD, uniqueEmail } from './support/pages';

const browser = useBrowser();

describe('a shared deck', () => {
  it('is imported by a visitor who signs up from the share link', async () => {
    const page = await newPage(browser());
    const request = page.request;

    // The owner makes a deck with two cards and shares it.
    const { auth } = await signUpByApi(request, 'owner', 'Owner');
    const deckName = `Cell biology ${Date.now().toString(36)}`;
    const deckId = await createDeck(request, auth, deckName);
    await saveCards(request, auth, deckId, [
      { question: 'What is the powerhouse of the cell?', answer: 'The mitochondrion.' },
      { question: 'What holds the genetic material?', answer: 'The nucleus.' },
    ]);
    const share = await request.post(`/decks/${deckId}/share`, { headers: auth });
    expect(share.status()).toBe(200);
    const { share_code: code } = (await share.json()) as { share_code: string };

    // A visitor opens the link, sees the deck, and is sent to sign in when importing.
    await page.goto(`/share/${code}`);
    await page.getByRole('heading', { name: deckName }).waitFor();
    expect(await page.getByText('Owner', { exact: true }).count()).toBe(1);
    expect(await page.getByText('2', { exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Import Deck' }).click();
    await page.waitForURL('**/login');
    await page.getByText('Log in or sign up to import the shared deck.').waitFor();

    // Signing up brings them back to the deck, which is imported, and on to /review after 3 s.
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Name').fill('Visitor');
    await page.getByLabel('Email').fill(uniqueEmail('visitor'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL(`**/share/${code}`);
    await page.getByText(`Deck "${deckName}" imported! Taking you to your decks...`).waitFor();
    await page.waitForURL('**/review', { timeout: 10_000 });

    const visitorToken = await page.evaluate(() => localStorage.getItem('access_token'));
    const decks = await request.get('/decks', { headers: { authorization: `Bearer ${visitorToken}` } });
    expect(decks.status()).toBe(200);
    const list = (await decks.json()) as { name: string; card_count: number }[];
    expect(list).toEqual([expect.objectContaining({ name: deckName, card_count: 2 })]);
    expect(await page.evaluate(() => localStorage.getItem('pending_share_import'))).toBeNull();
    await page.context().close();
  });
});
