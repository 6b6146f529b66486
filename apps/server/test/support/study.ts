import type { Card, Deck, DueCard, ReviewResult } from '@flashcards/shared/api-types';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { type AuthHeaders, signUpAndLogIn } from './factories';
import { postForm } from './request-bodies';

/** POST /decks with the url-encoded form field `deck_name`; expects 201. */
export async function createDeck(app: FastifyInstance, headers: AuthHeaders, name = 'Biology'): Promise<Deck> {
  const response = await postForm(app, '/decks', headers, { deck_name: name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Deck>();
}

/** POST /save-cards with `payload` as its JSON body; the answer is the caller's to check. */
export function postSaveCards(app: FastifyInstance, headers: AuthHeaders, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/save-cards', headers, payload });
}

/** PUT /decks/{id}/settings with `settings` as its JSON body; the answer is the caller's to check. */
export function putDeckSettings(
  app: FastifyInstance,
  headers: AuthHeaders,
  deckId: string,
  settings: Record<string, unknown>,
) {
  return app.inject({ method: 'PUT', url: `/decks/${deckId}/settings`, headers, payload: settings });
}

/** POST /save-cards with `count` numbered cards (or the given texts); expects 201. */
export async function saveCards(
  app: FastifyInstance,
  headers: AuthHeaders,
  deckId: string,
  cards: number | { question: string; answer: string }[],
): Promise<Card[]> {
  const texts =
    typeof cards === 'number'
      ? Array.from({ length: cards }, (_, index) => ({
          question: `Question ${index + 1}`,
          answer: `Answer ${index + 1}`,
        }))
      : cards;
  const response = await postSaveCards(app, headers, { deck_id: deckId, cards: texts });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ saved: number; cards: Card[] }>().cards;
}

/**
 * A new user, logged in, with one deck ("Biology") holding `cards` (numbered cards, or the given texts; none by
 * default): the start of most study tests.
 */
export async function learnerWithDeck(app: FastifyInstance, cards: Parameters<typeof saveCards>[3] = 0) {
  const learner = await signUpAndLogIn(app);
  const deck = await createDeck(app, learner.headers);
  const saved = cards === 0 ? [] : await saveCards(app, learner.headers, deck._id, cards);
  return { ...learner, deck, cards: saved };
}

/** A new user, logged in, with one deck holding one new card ("Question 1"): the start of most single-card tests. */
export async function learnerWithCard(app: FastifyInstance) {
  const { cards, ...learner } = await learnerWithDeck(app, 1);
  const [card] = cards;
  if (!card) throw new Error('the card was not saved');
  return { ...learner, card };
}

/** POST /cards/review; expects 200 and returns the card (without `next_due`). */
export async function reviewCard(
  app: FastifyInstance,
  headers: AuthHeaders,
  cardId: string,
  result: ReviewResult,
): Promise<Card> {
  const response = await app.inject({
    method: 'POST',
    url: '/cards/review',
    headers,
    payload: { card_id: cardId, result },
  });
  expect(response.statusCode, response.body).toBe(200);
  return withoutNextDue(response.json<{ card: DueCard }>().card);
}

/**
 * A card of GET /cards/due or POST /cards/review as a plain Card (next-due.test.ts checks `next_due` itself, and
 * offline-schedule.test.ts `memory`): its `last_review` is a time once the card has been answered, null before.
 */
export function withoutNextDue({ next_due, last_review, memory, ...card }: DueCard): Card {
  expect(Object.keys(next_due).sort()).toEqual(['fail', 'pass']);
  expect(Object.keys(memory).sort()).toEqual(['difficulty', 'learning_steps', 'scheduled_days', 'stability']);
  expect(last_review === null ? card.reps === 0 : Date.parse(last_review) <= Date.parse(card.due_date)).toBe(true);
  return card;
}

/** GET /cards/due (optionally for one deck); expects 200 (the cards without `next_due`). */
export async function dueCards(app: FastifyInstance, headers: AuthHeaders, deckId?: string): Promise<Card[]> {
  const response = await app.inject({
    method: 'GET',
    url: deckId ? `/cards/due?deck_id=${deckId}` : '/cards/due',
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DueCard[]>().map(withoutNextDue);
}

/** A deterministic random source: the given values in turn, forever. */
export function fixedRandom(values: number[] = [0.11, 0.42, 0.73, 0.05, 0.96, 0.58]): () => number {
  let index = 0;
  return () => {
    const value = values[index % values.length] ?? 0.5;
    index += 1;
    return value;
  };
}

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** POST /decks/{id}/share; expects 200 and answers the share code. */
export async function shareDeck(app: FastifyInstance, headers: AuthHeaders, deckId: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: `/decks/${deckId}/share`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ share_code: string }>().share_code;
}

/** POST /shared/{code}/import; the answer is the caller's to check. */
export function importShare(app: FastifyInstance, headers: AuthHeaders, code: string) {
  return app.inject({ method: 'POST', url: `/shared/${code}/import`, headers });
}
