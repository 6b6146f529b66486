import type { FastifyInstance } from 'fastify';
import { createIdGenerator } from '../../src/adapters/ids';
import { newCardRow } from '../../src/modules/study-core/card-state';
import { insertCards } from '../../src/modules/study-core/deck-counters';
import type { TestContext } from './test-app';

/**
 * A deck named `name` holding `cards` (new, saved in the given order), written straight into the database: the
 * quiz tests stay clear of the /decks and /save-cards modules. Returns the deck's id.
 */
export async function insertDeck(
  ctx: Pick<TestContext, 'database' | 'clock'>,
  userId: string,
  cards: { question: string; answer: string }[],
  name = 'Biology',
): Promise<string> {
  const now = ctx.clock.now();
  const newId = createIdGenerator(ctx.clock);
  const deckId = newId();
  await ctx.database.db
    .insertInto('decks')
    .values({ id: deckId, user_id: userId, name, daily_new_card_limit: 20, created_at: now, updated_at: now })
    .execute();
  const rows = cards.map((card, index) => ({
    ...newCardRow({ id: newId(), userId, deckId }, card, now),
    created_at: now + index + 1,
  }));
  await ctx.database.db.transaction().execute((trx) => insertCards(trx, rows));
  return deckId;
}

/** POST /api/quiz/generate with `payload` as its JSON body; the answer is the caller's to check. */
export function postQuiz(app: FastifyInstance, headers: Record<string, string>, payload: unknown) {
  return app.inject({ method: 'POST', url: '/api/quiz/generate', headers, payload: payload as object });
}
