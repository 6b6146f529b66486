import type { APIRequestContext } from 'playwright-core';
import { expect } from 'vitest';
import { PASSWORD, uniqueEmail } from './pages';

/** A card as the API answers it (the fields these tests read). */
export interface ApiCard {
  _id: string;
  question: string;
  answer: string;
  status: string;
  due_date: string;
  reps: number;
}

/** The header that makes an API request on behalf of a signed-in user. */
export type Auth = { authorization: string };

/** Signs a new user up and logs in through the API; the access token and its header. */
export async function signUpByApi(
  request: APIRequestContext,
  label: string,
  name: string,
): Promise<{ token: string; auth: Auth; email: string }> {
  const email = uniqueEmail(label);
  expect((await request.post('/signup', { data: { email, password: PASSWORD, name } })).status()).toBe(201);
  const login = await request.post('/login', { form: { username: email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const token = ((await login.json()) as { access_token: string }).access_token;
  return { token, auth: { authorization: `Bearer ${token}` }, email };
}

/** Creates a deck through the API; its id. */
export async function createDeck(request: APIRequestContext, auth: Auth, name: string): Promise<string> {
  const response = await request.post('/decks', { form: { deck_name: name }, headers: auth });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { _id: string })._id;
}

/** Saves cards into a deck through the API; the saved cards' ids, in order. */
export async function saveCards(
  request: APIRequestContext,
  auth: Auth,
  deckId: string,
  cards: readonly {
    question: string;
    answer: string;
    source?: { document?: string; page?: number; slide?: number; quote: string; paragraph?: string };
  }[],
): Promise<string[]> {
  const response = await request.post('/save-cards', { headers: auth, data: { deck_id: deckId, cards } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { cards: { _id: string }[] }).cards.map((card) => card._id);
}
