/**
 * Requests that could hold the server for seconds within the caps (issue 30, audit turn 3 findings 7 and 8): the card
 * list always pages, a deck of many cards is deleted in batches with its counters kept, one-letter search words match
 * only whole tokens, and imports, exports, deck deletions and searches are rate-limited per user.
 * On SQLite, and on PostgreSQL with DATABASE_URL.
 */
import type { Card, CardSearchResponse } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from './support/api-error';
import { type AuthHeaders, signUpAndLogIn } from './support/factories';
import { postMultipart } from './support/multipart';
import { createDeck, learnerWithDeck, reviewCard, saveCards } from './support/study';
import { useTestApp } from './support/test-app';

const ctx = useTestApp({
  env: {
    AUTH_RATE_LIMIT_PER_IP: '1000',
    SEARCH_RATE_LIMIT_PER_MINUTE: '4',
    EXPORT_RATE_LIMIT_PER_HOUR: '2',
    IMPORT_RATE_LIMIT_PER_HOUR: '2',
    DECK_DELETE_RATE_LIMIT_PER_HOUR: '3',
    MAX_CARDS_PER_USER: '100000',
  },
});

async function fillDeck(headers: AuthHeaders, deckId: string, count: number, text = (i: number) => `Question ${i}`) {
  for (let start = 0; start < count; start += limits.maxCardsPerSave) {
    const size = Math.min(limits.maxCardsPerSave, count - start);
    await saveCards(
      ctx.app,
      headers,
      deckId,
      Array.from({ length: size }, (_, index) => ({ question: text(start + index), answer: 'an answer' })),
    );
  }
}

function search(headers: AuthHeaders, q: string) {
  return ctx.app.inject({ method: 'GET', url: `/cards/search?${new URLSearchParams({ q })}`, headers });
}

function importCsv(headers: AuthHeaders, csv: string) {
  return postMultipart(ctx.app, '/import', headers, [{ name: 'file', value: Buffer.from(csv), filename: 'cards.csv' }]);
}

async function expectRateLimited(
  response: { statusCode: number; body: string; json(): unknown; headers: Record<string, unknown> },
  windowSeconds: number,
) {
  expectError(response, 429, 'rate_limited', serverMessages.rateLimited);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('GET /decks/{id}/cards without limit (audit: 55 MB unpaged for 199,000 cards)', () => {
  it('answers the first page only, as a Card[] in creation order; the rest pages with limit and cursor', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    await fillDeck(headers, deck._id, limits.maxCardsPage + 20);
    const response = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}/cards`, headers });
    expect(response.statusCode).toBe(200);
    const cards = response.json<Card[]>();
    expect(cards).toHaveLength(limits.maxCardsPage);
    expect(cards.map((card) => card.question)).toEqual(
      Array.from({ length: limits.maxCardsPage }, (_, index) => `Question ${index}`),
    );
  });
});

describe('DELETE /decks/{id} of a large deck (audit: 4.1 s in one statement)', () => {
  it('deletes every card, review and image link of the deck in batches, and leaves other decks as they were', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    await fillDeck(headers, deck._id, 2_345);
    const reviewed = await ctx.database.db
      .selectFrom('cards')
      .select('id')
      .where('deck_id', '=', deck._id)
      .limit(3)
      .execute();
    for (const card of reviewed) await reviewCard(ctx.app, headers, card.id, 'pass');
    const other = await createDeck(ctx.app, headers, 'Kept');
    await fillDeck(headers, other._id, 7);
    // Import records of the deck's notes (an Anki package of 1,234 notes), and one of the other deck.
    const guids = Array.from({ length: 1_234 }, (_, index) => ({
      user_id: user._id,
      guid: `guid-${index}`,
      deck_id: deck._id,
      created_at: 0,
    }));
    for (let start = 0; start < guids.length; start += 200) {
      await ctx.database.db
        .insertInto('imported_notes')
        .values(guids.slice(start, start + 200))
        .execute();
    }
    await ctx.database.db
      .insertInto('imported_notes')
      .values({ user_id: user._id, guid: 'kept', deck_id: other._id, created_at: 0 })
      .execute();

    const response = await ctx.app.inject({ method: 'DELETE', url: `/decks/${deck._id}`, headers });
    expect(response.statusCode).toBe(204);
    const db = ctx.database.db;
    const count = async (table: 'cards' | 'review_logs', deckId: string) => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user._id)
        .where('deck_id', '=', deckId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    expect(await count('cards', deck._id)).toBe(0);
    expect(await count('review_logs', deck._id)).toBe(0);
    expect(await db.selectFrom('decks').select('id').where('id', '=', deck._id).execute()).toEqual([]);
    expect(await count('cards', other._id)).toBe(7);
    const notes = await db
      .selectFrom('imported_notes')
      .select(['guid', 'deck_id'])
      .where('user_id', '=', user._id)
      .execute();
    expect(notes).toEqual([{ guid: 'kept', deck_id: other._id }]);
    const kept = await db
      .selectFrom('decks')
      .select(['new_cards', 'learning_cards', 'review_cards'])
      .where('id', '=', other._id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ new_cards: 7, learning_cards: 0, review_cards: 0 });
  });

  it('answers 429 rate_limited past DECK_DELETE_RATE_LIMIT_PER_HOUR, and the deck stays', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const decks = [];
    for (const name of ['a', 'b', 'c', 'd']) decks.push(await createDeck(ctx.app, headers, name));
    for (const deck of decks.slice(0, 3)) {
      expect((await ctx.app.inject({ method: 'DELETE', url: `/decks/${deck._id}`, headers })).statusCode).toBe(204);
    }
    const refused = await ctx.app.inject({ method: 'DELETE', url: `/decks/${decks[3]?._id}`, headers });
    await expectRateLimited(refused, 3600);
    expect(
      await ctx.database.db
        .selectFrom('decks')
        .select('id')
        .where('id', '=', decks[3]?._id ?? '')
        .execute(),
    ).toHaveLength(1);
    const someoneElse = await learnerWithDeck(ctx.app);
    const allowed = await ctx.app.inject({
      method: 'DELETE',
      url: `/decks/${someoneElse.deck._id}`,
      headers: someoneElse.headers,
    });
    expect(allowed.statusCode).toBe(204);
  });
});

describe('GET /cards/search (audit: a search of single letters walks every user’s index)', () => {
  it('matches a one-letter word only as a whole token, and longer words still as prefixes', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    await saveCards(ctx.app, headers, deck._id, [
      { question: 'apple pie', answer: 'dessert' },
      { question: 'vitamin a', answer: 'retinol' },
      { question: 'type 2 diabetes', answer: 'insulin' },
      { question: 'type 22 bus', answer: 'a route' },
    ]);
    const found = async (q: string) =>
      search(headers, q).then((response) =>
        response
          .json<CardSearchResponse>()
          .cards.map((card) => card.question)
          .sort(),
      );
    expect(await found('a')).toEqual(['type 22 bus', 'vitamin a']);
    expect(await found('ap')).toEqual(['apple pie']);
    const more = await signUpAndLogIn(ctx.app);
    const deck2 = await createDeck(ctx.app, more.headers, 'Types');
    await saveCards(ctx.app, more.headers, deck2._id, [
      { question: 'type 2 diabetes', answer: 'insulin' },
      { question: 'type 22 bus', answer: 'a route' },
      { question: 'x y z', answer: 'letters' },
    ]);
    const theirs = async (q: string) =>
      search(more.headers, q).then((response) =>
        response
          .json<CardSearchResponse>()
          .cards.map((card) => card.question)
          .sort(),
      );
    expect(await theirs('type 2')).toEqual(['type 2 diabetes']);
    expect(await theirs('x y z')).toEqual(['x y z']);
    expect(await theirs('ty 22')).toEqual(['type 22 bus']);
  });

  it('answers 429 rate_limited past SEARCH_RATE_LIMIT_PER_MINUTE for that user only', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    for (let index = 0; index < 4; index++) expect((await search(headers, 'a b c d e')).statusCode).toBe(200);
    await expectRateLimited(await search(headers, 'a b c d e'), 60);
    const other = await signUpAndLogIn(ctx.app);
    expect((await search(other.headers, 'a b c d e')).statusCode).toBe(200);
  });
});

describe('per-user limits on import and export', () => {
  it('answers 429 rate_limited past IMPORT_RATE_LIMIT_PER_HOUR before reading the upload; nothing is imported', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    for (const name of ['One', 'Two']) {
      expect((await importCsv(headers, `#separator:comma\n#deck:${name}\nCapital of Italy?,Rome\n`)).statusCode).toBe(
        201,
      );
    }
    await expectRateLimited(await importCsv(headers, '#separator:comma\n#deck:Three\nCapital of Italy?,Rome\n'), 3600);
    const decks = await ctx.database.db
      .selectFrom('decks')
      .select('name')
      .where('user_id', '=', user._id)
      .orderBy('name')
      .execute();
    expect(decks.map((deck) => deck.name)).toEqual(['One', 'Two']);
  });

  it('answers 429 rate_limited past EXPORT_RATE_LIMIT_PER_HOUR for that user only', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app, 2);
    const exportDeck = (h: AuthHeaders, id: string) =>
      ctx.app.inject({ method: 'GET', url: `/decks/${id}/export.apkg`, headers: h });
    for (let index = 0; index < 2; index++) expect((await exportDeck(headers, deck._id)).statusCode).toBe(200);
    await expectRateLimited(await exportDeck(headers, deck._id), 3600);
    const other = await learnerWithDeck(ctx.app, 1);
    expect((await exportDeck(other.headers, other.deck._id)).statusCode).toBe(200);
  });
});
