import type { FastifyInstance } from 'fastify';
import { createIdGenerator } from '../../src/adapters/ids';
import { newCardState } from '../../src/modules/study-core/card-state';
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
  let offset = 0;
  for (const card of cards) {
    offset++;
    await ctx.database.db
      .insertInto('cards')
      .values({
        id: newId(),
        user_id: userId,
        deck_id: deckId,
        ...card,
        ...newCardState(now),
        first_reviewed_at: null,
        created_at: now + offset,
        updated_at: now,
      })
      .execute();
  }
  return deckId;
}

/** POST /api/quiz/generate with `payload` as its JSON body; the answer is the caller's to check. */
export function postQuiz(app: FastifyInstance, headers: Record<string, string>, payload: unknown) {
  return app.inject({ method: 'POST', url: '/api/quiz/generate', headers, payload: payload as object });
}
