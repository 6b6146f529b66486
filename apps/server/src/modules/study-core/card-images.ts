import type { Kysely } from 'kysely';
import { forEachBatch } from '../../db/batches';
import type { Database } from '../../db/schema';

/** The `images` of these cards of the user (card_media rows with a position), as media URLs in order. */
export async function cardImages(
  db: Kysely<Database>,
  userId: string,
  cardIds: readonly string[],
): Promise<Map<string, string[]>> {
  const images = new Map<string, string[]>();
  await forEachBatch([...cardIds], 500, async (batch) => {
    const rows = await db
      .selectFrom('card_media')
      .innerJoin('media', 'media.id', 'card_media.media_id')
      .select(['card_media.card_id', 'media.name'])
      .where('card_media.user_id', '=', userId)
      .where('card_media.card_id', 'in', batch)
      .where('card_media.position', 'is not', null)
      .orderBy('card_media.card_id')
      .orderBy('card_media.position')
      .execute();
    for (const row of rows) images.set(row.card_id, [...(images.get(row.card_id) ?? []), `/media/${row.name}`]);
  });
  return images;
}

/** Each card with its `images` ([] for none). */
export function withImages<T extends { _id: string }>(cards: T[], images: Map<string, string[]>) {
  return cards.map((card) => ({ ...card, images: images.get(card._id) ?? [] }));
}

/** A card's images as given to POST /save-cards: media names of the user's, at most two, in order. */
export const mediaUrlPattern = /^\/media\/([0-9a-f]{40}\.(?:png|jpg|gif|webp|avif|bmp))$/;
