import type { Card, CardPage, CardSearchResponse, SaveCardsResponse } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import { exactKey } from '../generation/deck-duplicates';
import type { CardImageLink, NotesRepo } from '../notes/notes.repo';
import { assertOwnImages, notesOfItems, type SaveItem } from '../notes/notes.service';
import { mediaUrlPattern, withImages } from '../study-core/card-images';
import { toCard } from '../study-core/card-state';
import { type DeckLookup, requireOwnDeck } from '../study-core/deck-scope';
import type { NewNote } from '../study-core/note-rows';
import type { UserLimits } from '../study-core/user-limits';
import type { CardsRepo } from './cards.repo';
import {
  decodeDeckCursor,
  decodeSearchCursor,
  encodeDeckCursor,
  encodeSearchCursor,
  MAX_SEARCH_OFFSET,
  searchWords,
} from './cursors';

export interface CardsServiceDeps {
  cards: CardsRepo;
  decks: DeckLookup;
  clock: Clock;
  newId: IdGenerator;
  userLimits: UserLimits;
  /** The exact-duplicate keys (deck-duplicates.ts `exactKey`) of a deck's cards: POST /save-cards skips those. */
  existingKeys: (userId: string, deckId: string) => Promise<Set<string>>;
  /** SEARCH_RATE_LIMIT_PER_MINUTE: searches per user (429 past it). */
  searchLimiter: RateLimiter;
  notes: NotesRepo;
}

type CardText = { question: string; answer: string };

const cursorInvalid = () =>
  errors.validationFailed({
    message: 'cursorInvalid',
    errors: [{ field: 'cursor', message: serverMessages.cursorInvalid }],
  });

/** Cards of one user. A card or deck id that is malformed, missing or someone else's is the same 404. */
export function createCardsService(deps: CardsServiceDeps) {
  const { cards, decks, clock } = deps;

  /**
   * Every card of an item shows the item's images; each must be an image of the user's (another user's name, even
   * a real one, is refused at `cards.N.images`).
   */
  async function imageLinks(userId: string, items: SaveItem[], made: NewNote[]): Promise<CardImageLink[]> {
    const names = [...new Set(items.flatMap((item) => item.images ?? []))].map(
      (url) => mediaUrlPattern.exec(url)?.[1] ?? '',
    );
    const ids = await deps.notes.ownMediaIds(userId, names);
    const links: CardImageLink[] = [];
    for (const [index, item] of items.entries()) {
      const wanted = [...new Set(item.images ?? [])];
      for (const [position, url] of wanted.entries()) {
        const mediaId = ids.get(mediaUrlPattern.exec(url)?.[1] ?? '');
        if (!mediaId) {
          throw errors.validationFailed({
            message: 'cardImageNotYours',
            errors: [{ field: `cards.${index}.images.${position}`, message: serverMessages.cardImageNotYours }],
          });
        }
        for (const card of made[index]?.cards ?? []) links.push({ cardId: card.id, mediaId, position });
      }
    }
    return links;
  }

  return {
    /** The list without `limit`: the deck's first page of the largest size, as a plain array (the older shape). */
    async listByDeck(userId: string, deckId: string): Promise<Card[]> {
      await requireOwnDeck(decks, userId, deckId);
      const rows = (await cards.listByDeck(userId, deckId, limits.maxCardsPage)).map(toCard);
      return withImages(
        rows,
        await cards.imagesOf(
          userId,
          rows.map((card) => card._id),
        ),
      );
    },

    /** One page of a deck's cards in creation order; `next_cursor` continues after its last card. */
    async pageByDeck(userId: string, deckId: string, limit: number, cursor: string | undefined): Promise<CardPage> {
      const after = cursor === undefined ? undefined : decodeDeckCursor(cursor);
      if (cursor !== undefined && !after) throw cursorInvalid();
      await requireOwnDeck(decks, userId, deckId);
      const rows = await cards.listPage(userId, deckId, limit + 1, after);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        cards: withImages(
          page.map(toCard),
          await cards.imagesOf(
            userId,
            page.map((row) => row.id),
          ),
        ),
        next_cursor: rows.length > limit && last ? encodeDeckCursor(last) : null,
      };
    },

    /**
     * Cards of the user (or of one of their decks) that contain every word of `q`, each word also as a prefix, best
     * matches first. Text with no word in it (only punctuation) finds nothing.
     */
    async search(
      userId: string,
      input: { q: string; deck_id: string | undefined; limit: number; cursor?: string | undefined },
    ): Promise<CardSearchResponse> {
      const waitMs = await deps.searchLimiter.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
      const offset = input.cursor === undefined ? 0 : decodeSearchCursor(input.cursor);
      if (offset === undefined) throw cursorInvalid();
      const deckId = input.deck_id;
      if (deckId !== undefined) await requireOwnDeck(decks, userId, deckId);
      const words = searchWords(input.q);
      if (words.length === 0) return { cards: [], next_cursor: null };
      const limit = Math.min(input.limit, MAX_SEARCH_OFFSET - offset);
      const rows = limit > 0 ? await cards.search({ userId, words, deckId, limit: limit + 1, offset }) : [];
      const page = rows.slice(0, limit);
      return {
        cards: withImages(
          page.map((row) => ({ ...toCard(row), deck_name: row.deck_name })),
          await cards.imagesOf(
            userId,
            page.map((row) => row.id),
          ),
        ),
        next_cursor: rows.length > limit ? encodeSearchCursor(offset + limit) : null,
      };
    },

    /**
     * Saves every item into the deck in one transaction, or none of them: `{ question, answer }` as a basic note,
     * `{ type, fields }` as a note of that type. The cap counts the cards the notes make.
     */
    async save(userId: string, deckId: string, items: SaveItem[]): Promise<SaveCardsResponse> {
      const now = clock.now();
      const made = notesOfItems({ userId, deckId, newId: deps.newId }, items, now);
      if (!isId(deckId)) throw errors.deckNotFound();
      const contents = made.map((item) => ({ type: item.note.type, fields: JSON.parse(item.note.fields) as unknown }));
      await assertOwnImages(deps.notes, userId, contents, (index) => `cards.${index}.fields.image`);
      const allLinks = await imageLinks(userId, items, made);
      // A note whose every card is already in the deck (or earlier in this save) is left out, and counted.
      const seen = await deps.existingKeys(userId, deckId);
      const fresh = made.filter((note) => {
        const keys = note.cards.map(exactKey);
        if (keys.every((key) => seen.has(key))) return false;
        for (const key of keys) seen.add(key);
        return true;
      });
      const skipped = made.length - fresh.length;
      const rows = fresh.flatMap((item) => item.cards);
      if (rows.length === 0) {
        await requireOwnDeck(decks, userId, deckId);
        return { saved: 0, cards: [], skipped_duplicates: skipped };
      }
      await deps.userLimits.assertRoom(userId, { cards: rows.length });
      const kept = new Set(rows.map((row) => row.id));
      const links = allLinks.filter((link) => kept.has(link.cardId));
      if (!(await deps.notes.insertIntoDeck(userId, deckId, fresh, links))) throw errors.deckNotFound();
      const images = new Map<string, string[]>();
      for (const [index, item] of made.entries()) {
        for (const card of item.cards) images.set(card.id, [...new Set(items[index]?.images ?? [])]);
      }
      return {
        saved: rows.length,
        cards: withImages(
          rows.map((row) =>
            toCard({ card_type: 'basic', ord: 0, source: null, ...row, occlusion: row.occlusion ?? null }),
          ),
          images,
        ),
        skipped_duplicates: skipped,
      };
    },

    /** A basic card's question and answer (its note's front and back); a card of another note type: edit the note. */
    async update(userId: string, cardId: string, text: CardText): Promise<Card> {
      const row = isId(cardId) ? await cards.updateText(userId, cardId, text, clock.now()) : undefined;
      if (row === 'edit_note_instead') throw errors.editNoteInstead();
      if (!row) throw errors.cardNotFound();
      return toCard(row);
    },

    /** DELETE /cards/{id}/source: the card and its note's other cards forget where they came from. */
    async deleteSource(userId: string, cardId: string): Promise<void> {
      if (!(isId(cardId) && (await cards.clearSource(userId, cardId)))) throw errors.cardNotFound();
    },

    async delete(userId: string, cardId: string): Promise<void> {
      const deleted = isId(cardId) && (await cards.delete(userId, cardId));
      if (!deleted) throw errors.cardNotFound();
    },
  };
}

export type CardsService = ReturnType<typeof createCardsService>;
