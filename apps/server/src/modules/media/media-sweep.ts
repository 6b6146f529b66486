import type { Kysely } from 'kysely';
import type { Clock } from '../../adapters/clock';
import type { MediaStore } from '../../adapters/media/media-store';
import { rowLimit } from '../../db/row-limit';
import type { Database } from '../../db/schema';

/** Rows deleted per statement: a long sweep never holds the database for long. */
const SWEEP_BATCH = 500;

export interface MediaSweepDeps {
  db: Kysely<Database>;
  store: MediaStore;
  clock: Clock;
  /** MEDIA_UNUSED_TTL: how long after its upload an image that no card uses is kept. */
  unusedTtlMs: number;
}

/**
 * Deletes the images no card uses once MEDIA_UNUSED_TTL has passed since they were made (an upload never saved on a
 * card, a figure of a generation the learner left), then the S3 objects whose last row is gone (media_released,
 * filled by a trigger of migration 0014 whichever way a row went: its last card, its deck, its account, this sweep).
 * Database chunks go with their rows by foreign key.
 */
export function createMediaSweep(deps: MediaSweepDeps) {
  const { db } = deps;
  return {
    async run(): Promise<{ unused: number; objects: number }> {
      const cutoff = deps.clock.now() - deps.unusedTtlMs;
      let unused = 0;
      for (;;) {
        const stale = await db
          .selectFrom('media')
          .select('id')
          .where('created_at', '<', cutoff)
          .where((eb) =>
            eb.not(
              eb.exists(eb.selectFrom('card_media').select('card_id').whereRef('card_media.media_id', '=', 'media.id')),
            ),
          )
          .orderBy('created_at')
          .limit(rowLimit(SWEEP_BATCH))
          .execute();
        if (stale.length === 0) break;
        // Checked again in the delete: a card may have taken the image since the select.
        const deleted = await db
          .deleteFrom('media')
          .where(
            'id',
            'in',
            stale.map((row) => row.id),
          )
          .where((eb) =>
            eb.not(
              eb.exists(eb.selectFrom('card_media').select('card_id').whereRef('card_media.media_id', '=', 'media.id')),
            ),
          )
          .executeTakeFirst();
        unused += Number(deleted.numDeletedRows);
        if (stale.length < SWEEP_BATCH) break;
      }

      let objects = 0;
      for (;;) {
        const released = (
          await db.selectFrom('media_released').select('sha256').limit(rowLimit(SWEEP_BATCH)).execute()
        ).map((row) => row.sha256);
        if (released.length === 0) break;
        const stillUsed = new Set(
          (
            await db
              .selectFrom('media')
              .select('sha256')
              .where('store', '=', 's3')
              .where('sha256', 'in', released)
              .execute()
          ).map((row) => row.sha256),
        );
        const orphans = released.filter((sha256) => !stillUsed.has(sha256));
        await deps.store.removeObjects(orphans);
        objects += orphans.length;
        await db.deleteFrom('media_released').where('sha256', 'in', released).execute();
        if (released.length < SWEEP_BATCH) break;
      }
      return { unused, objects };
    },
  };
}

export type MediaSweep = ReturnType<typeof createMediaSweep>;

/** How often the server sweeps media. */
export const MEDIA_SWEEP_INTERVAL_MS = 3_600_000;
