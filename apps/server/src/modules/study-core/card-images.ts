import type { Kysely } from 'kysely';
import { forEachBatch } from '../../db/batches';
import type { Database } from '../../db/schema';

/**
 * The `images` of these cards of the user (card_media rows with a position), as media URLs in order. A class's linked
 * copy holds no image links of its own: a card without any shows the images of the teacher's card it copies.
 */
export async function cardImages(
  db: Kysely<Database>,
  userId: string,
  cardIds: readonly string[],
): Promise<Map<string, string[]>> {
  const own = new Map<string, string[]>();
  const copied = new Map<string, string[]>();
  await forEachBatch([...cardIds], 500, async (batch) => {
    const rows = await db
      .selectFrom('cards')
      .innerJoin('card_media', (join) =>
        join.on((eb) =>
          eb.or([
            eb('card_media.card_id', '=', eb.ref('cards.id')),
            eb('card_media.card_id', '=', eb.ref('cards.source_card_id')),
          ]),
        ),
      )
      .innerJoin('media', 'media.id', 'card_media.media_id')
      .select(['cards.id as card_id', 'card_media.card_id as linked_card_id', 'media.name'])
      .where('cards.user_id', '=', userId)
      .where('cards.id', 'in', batch)
      .where('card_media.position', 'is not', null)
      .orderBy('cards.id')
      .orderBy('card_media.position')
      .execute();
    for (const row of rows) {
      const into = row.linked_card_id === row.card_id ? own : copied;
      into.set(row.card_id, [...(into.get(row.card_id) ?? []), `/media/${row.name}`]);
    }
  });
  for (const [cardId, urls] of copied) if (!own.has(cardId)) own.set(cardId, urls);
  return own;
}

/** Each card with its `images` ([] for none). */
export function withImages<T extends { _id: string }>(cards: T[], images: Map<string, string[]>) {
  return cards.map((card) => ({ ...card, images: images.get(card._id) ?? [] }));
}

/** A card's images as given to POST /save-cards: media names of the user's, at most two, in order. */
export const mediaUrlPattern = /^\/media\/([0-9a-f]{40}\.(?:png|jpg|gif|webp|avif|bmp))$/;
