import { randomBytes } from 'node:crypto';
import type { ImportResponse, SharedDeckInfo, ShareResponse } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { isoTime } from '@flashcards/shared/time';
import type { Clock } from '../../adapters/clock';
import type { IdGenerator } from '../../adapters/ids';
import { isUniqueViolation } from '../../db/errors';
import { errors } from '../../http/app-error';
import { newCardRow } from '../study-core/card-state';
import { type DeckLookup, requireOwnDeck } from '../study-core/deck-scope';
import type { UserLimits } from '../study-core/user-limits';
import type { SharedDeckRow, SharingRepo } from './sharing.repo';

/** 128 random bits, URL-safe (base64url, 22 characters). */
export function randomShareCode(): string {
  return randomBytes(16).toString('base64url');
}

export interface SharingServiceDeps {
  shares: SharingRepo;
  decks: DeckLookup;
  clock: Clock;
  newId: IdGenerator;
  newShareCode: () => string;
  /** How long a share link stays valid (SHARE_TTL_DAYS). */
  shareTtlMs: number;
  /** The daily new-card limit of an imported deck. */
  defaultDailyNewCardLimit: number;
  userLimits: UserLimits;
}

const codePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** How many of a shared deck's cards GET /shared/{code} shows to anyone with the link. */
export const SHARE_PREVIEW_CARDS = 20;

/** Share links: the owner makes one per deck (reused while it lasts); anyone may look; a signed-in user may import. */
export function createSharingService(deps: SharingServiceDeps) {
  const { shares, decks, clock } = deps;

  /** The share behind a code: 404 when unknown (or its deck is gone), 410 once it has expired. */
  const liveShare = async (code: string): Promise<SharedDeckRow> => {
    const share = codePattern.test(code) ? await shares.findByCode(code) : undefined;
    if (!share) throw errors.shareNotFound();
    if (share.expires_at <= clock.now()) throw errors.shareExpired();
    return share;
  };

  return {
    async share(userId: string, deckId: string): Promise<ShareResponse> {
      await requireOwnDeck(decks, userId, deckId);
      const now = clock.now();
      const live = await shares.findLive(userId, deckId, now);
      if (live) return { share_code: live.code, expires_at: isoTime(live.expires_at) };
      const row = {
        id: deps.newId(),
        user_id: userId,
        deck_id: deckId,
        code: deps.newShareCode(),
        created_at: now,
        expires_at: now + deps.shareTtlMs,
      };
      await shares.insert(row);
      return { share_code: row.code, expires_at: isoTime(row.expires_at) };
    },

    async info(code: string): Promise<SharedDeckInfo> {
      const share = await liveShare(code);
      const preview = await shares.preview(share, SHARE_PREVIEW_CARDS);
      return {
        deck_name: share.deck_name,
        owner_name: share.owner_name.trim() || serverMessages.anonymousOwner,
        card_count: share.card_count,
        shared_at: isoTime(share.created_at),
        expires_at: isoTime(share.expires_at),
        preview: preview.map(({ question, answer }) => ({ question, answer })),
      };
    },

    /** Copies the shared deck into the caller's account, its notes with their types, as new cards (no review history). */
    async import(userId: string, code: string): Promise<ImportResponse> {
      const share = await liveShare(code);
      if (share.user_id === userId) throw errors.alreadyImported({ message: 'ownDeckImport' });
      if (await shares.hasImported(userId, share.id)) throw errors.alreadyImported();
      await deps.userLimits.assertRoom(userId, { decks: 1, cards: share.card_count });
      const now = clock.now();
      const deck = { id: deps.newId(), name: share.deck_name, daily_new_card_limit: deps.defaultDailyNewCardLimit };
      try {
        await shares.importDeck({
          share,
          importerId: userId,
          importId: deps.newId(),
          deck,
          now,
          copy: (text, note) =>
            newCardRow({ id: deps.newId(), userId, deckId: deck.id, noteId: note.noteId }, text, now, note),
          newId: deps.newId,
          freshMediaSecret: randomBytes(32).toString('hex'),
        });
      } catch (error) {
        // The same share imported twice at once: the other request's copy stands, this one rolled back.
        if (isUniqueViolation(error)) throw errors.alreadyImported();
        throw error;
      }
      return { _id: deck.id, name: deck.name };
    },
  };
}

export type SharingService = ReturnType<typeof createSharingService>;
