import { describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../../test/support/factories';
import {
  createDeck,
  DAY,
  importShare,
  learnerWithDeck,
  MINUTE,
  postSaveCards,
  reviewCard,
  saveCards,
  shareDeck,
} from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

/** The per-deck card counters (migration 0003) always equal the cards actually there, by state. */

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

async function countersMatchCards(): Promise<void> {
  const db = ctx.database.db;
  const decks = await db
    .selectFrom('decks')
    .select(['id', 'new_cards', 'learning_cards', 'review_cards'])
    .orderBy('id')
    .execute();
  const actual = await db
    .selectFrom('cards')
    .select((eb) => ['deck_id', 'state', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['deck_id', 'state'])
    .execute();
  const expected = decks.map((deck) => {
    const count = (states: number[]) =>
      actual
        .filter((row) => row.deck_id === deck.id && states.includes(row.state))
        .reduce((sum, row) => sum + Number(row.n), 0);
    return { id: deck.id, new_cards: count([0]), learning_cards: count([1, 3]), review_cards: count([2]) };
  });
  expect(decks).toEqual(expected);
}

describe('deck card counters', () => {
  it('follow saves, reviews through every state, deletions and imports', async () => {
    ctx.clock.set('2026-12-01T10:00:00.000Z');
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const other = await createDeck(ctx.app, headers, 'Other');
    const cards = await saveCards(ctx.app, headers, deck._id, 8);
    await saveCards(ctx.app, headers, other._id, 2);
    await countersMatchCards();

    const id = (index: number) => cards[index]?._id ?? '';
    await reviewCard(ctx.app, headers, id(0), 'fail'); // new → learning
    await reviewCard(ctx.app, headers, id(1), 'pass'); // new → learning
    await reviewCard(ctx.app, headers, id(2), 'pass');
    ctx.clock.advance(10 * MINUTE);
    await reviewCard(ctx.app, headers, id(2), 'pass'); // learning → review
    await reviewCard(ctx.app, headers, id(1), 'pass'); // learning → review
    await countersMatchCards();
    ctx.clock.advance(5 * DAY);
    await reviewCard(ctx.app, headers, id(2), 'fail'); // review → relearning
    await reviewCard(ctx.app, headers, id(1), 'pass'); // review → review
    await countersMatchCards();

    for (const index of [0, 1, 2, 3]) {
      const response = await ctx.app.inject({ method: 'DELETE', url: `/cards/${id(index)}`, headers });
      expect(response.statusCode).toBe(204);
    }
    await countersMatchCards();

    const shareCode = await shareDeck(ctx.app, headers, deck._id);
    const importer = await signUpAndLogIn(ctx.app);
    const imported = await importShare(ctx.app, importer.headers, shareCode);
    expect(imported.statusCode).toBe(201);
    await countersMatchCards();

    const decks = await ctx.app.inject({ method: 'GET', url: '/decks', headers: importer.headers });
    expect(decks.json()[0].card_count).toBe(4);
  });

  it('stay exact under concurrent saves, reviews and deletions in one deck', async () => {
    const { headers, deck, cards: first } = await learnerWithDeck(ctx.app, 20);
    const responses = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        postSaveCards(ctx.app, headers, {
          deck_id: deck._id,
          // Distinct texts: a save skips cards the deck already has.
          cards: [
            { question: `Q${i}`, answer: `A${i}` },
            { question: `Q${i}-2`, answer: `A${i}-2` },
          ],
        }),
      ),
      ...first.slice(0, 10).map((card) =>
        ctx.app.inject({
          method: 'POST',
          url: '/cards/review',
          headers,
          payload: { card_id: card._id, result: 'pass' },
        }),
      ),
      ...first.slice(10, 20).map((card) => ctx.app.inject({ method: 'DELETE', url: `/cards/${card._id}`, headers })),
    ]);
    expect(responses.every((response) => response.statusCode < 300)).toBe(true);
    await countersMatchCards();
    const row = await ctx.database.db
      .selectFrom('decks')
      .select(['new_cards', 'learning_cards', 'review_cards'])
      .where('id', '=', deck._id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ new_cards: 20, learning_cards: 10, review_cards: 0 });
  });
});
