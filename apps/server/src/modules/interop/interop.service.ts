import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FileImportResponse } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { type ApkgCard, writeApkg } from '../../adapters/anki/apkg-writer';
import { markdownToAnkiHtml } from '../../adapters/anki/markdown-to-html';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import type { UserLimits } from '../decks/user-limits';
import { newCardRow } from '../study-core/card-state';
import type { ImportKind } from './import-parser';
import { ImportBusyError, type ImportParser, ImportUnreadableError } from './import-runner';
import type { ImportPlan, InteropRepo } from './interop.repo';

export interface InteropServiceDeps {
  repo: InteropRepo;
  clock: Clock;
  newId: IdGenerator;
  parse: ImportParser;
  /** IMPORT_MAX_UNZIPPED_BYTES: what a package may unpack to. */
  maxUnzippedBytes: number;
  defaultDailyNewCardLimit: number;
  /** MAX_DECKS_PER_USER and MAX_CARDS_PER_USER: an import that would pass either is refused whole. */
  userLimits: UserLimits;
  /** Per-user counters of imports and exports, and per-address counters of media reads (429 past them). */
  limits: { imports: RateLimiter; exports: RateLimiter; media: RateLimiter };
}

export interface Upload {
  filePath: string;
  filename: string;
  /** The form's deck_name: the deck of a text or CSV file without a `#deck:` header. */
  deckName?: string | undefined;
}

const kinds: Record<string, ImportKind> = { apkg: 'apkg', colpkg: 'apkg', txt: 'txt', csv: 'csv', tsv: 'tsv' };

/** The import kind from a file name's extension, or null when it is not one we read. */
export function importKind(filename: string): ImportKind | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return (ext && kinds[ext]) || null;
}

export const unsupportedImportType = () => errors.unsupportedFileType({ message: 'importUnsupportedType' });
export const importTooLarge = (maxBytes: number) =>
  errors.fileTooLarge({
    detail: fillMessage(messages.importFileTooLarge, { size: `${Math.round((maxBytes / 1_048_576) * 10) / 10} MB` }),
  });

/** Cards converted to Anki HTML between two turns of the event loop during an export. */
const CONVERT_BATCH = 200;

const mediaNamePattern = /^[0-9a-f]{40}\.(png|jpg|gif|webp|avif|bmp)$/;

/** Anki interop: imports of packages and text files, stored images, and .apkg exports. */
export function createInteropService(deps: InteropServiceDeps) {
  const { repo, clock } = deps;

  return {
    /** IMPORT_RATE_LIMIT_PER_HOUR per user, counted before the upload is even received: 429 past it. */
    async admitImport(userId: string): Promise<void> {
      const waitMs = await deps.limits.imports.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
    },

    async import(userId: string, upload: Upload): Promise<FileImportResponse> {
      const kind = importKind(upload.filename);
      if (!kind) throw unsupportedImportType();
      const mediaSecret = await repo.mediaSecret(userId, randomBytes(32).toString('hex'));
      const defaultDeckName = upload.deckName?.trim() || upload.filename.replace(/\.[^.]*$/, '').trim() || 'Import';
      let parsed: Awaited<ReturnType<ImportParser>>;
      try {
        parsed = await deps.parse({
          filePath: upload.filePath,
          kind,
          defaultDeckName,
          mediaSecret,
          maxUnzippedBytes: deps.maxUnzippedBytes,
        });
      } catch (error) {
        if (error instanceof ImportUnreadableError) throw errors.invalidPackage();
        if (error instanceof ImportBusyError) throw errors.busy({ retryAfterSeconds: 30 });
        throw error;
      }

      const guids = [...new Set(parsed.cards.flatMap((card) => (card.guid ? [card.guid] : [])))];
      const seen = await repo.importedGuids(userId, guids);
      const now = clock.now();
      const plan: ImportPlan = { userId, now, decks: [], cards: [], media: [], cardMedia: [], notes: [] };
      const deckIds = new Map<string, string>();
      const noteDecks = new Map<string, string>();
      const usedMedia = new Set<string>();
      let skipped = parsed.skipped;
      for (const card of parsed.cards) {
        if (card.guid && seen.has(card.guid)) {
          skipped += 1;
          continue;
        }
        let deckId = deckIds.get(card.deck);
        if (!deckId) {
          deckId = deps.newId();
          deckIds.set(card.deck, deckId);
          plan.decks.push({ id: deckId, name: card.deck, daily_new_card_limit: deps.defaultDailyNewCardLimit });
        }
        const row = newCardRow({ id: deps.newId(), userId, deckId }, card, now);
        plan.cards.push(row);
        for (const name of card.media) {
          plan.cardMedia.push({ cardId: row.id, mediaName: name });
          usedMedia.add(name);
        }
        if (card.guid && !noteDecks.has(card.guid)) noteDecks.set(card.guid, deckId);
      }
      plan.media = parsed.media
        .filter((media) => usedMedia.has(media.name))
        .map((media) => ({ ...media, id: deps.newId() }));
      plan.notes = [...noteDecks].map(([guid, deckId]) => ({ guid, deckId }));
      await deps.userLimits.assertRoom(userId, { decks: plan.decks.length, cards: plan.cards.length });
      const counts = await repo.writeImport(plan);

      const warnings: string[] = [];
      if (parsed.sounds > 0) warnings.push(fillMessage(messages.importSoundsDropped, { count: parsed.sounds }));
      if (parsed.missingImages > 0) {
        warnings.push(fillMessage(messages.importImagesMissing, { count: parsed.missingImages }));
      }
      if (parsed.tooLong > 0) {
        warnings.push(
          fillMessage(messages.importCardsTooLong, { count: parsed.tooLong, max: limits.maxCardSideLength }),
        );
      }
      return {
        decks: plan.decks.map((deck) => ({ _id: deck.id, name: deck.name, card_count: counts.get(deck.id) ?? 0 })),
        cards_imported: plan.cards.length,
        skipped,
        warnings,
      };
    },

    /**
     * A stored image by name, streamed in chunks, or 404: names that are not ours in form are not even looked up.
     * MEDIA_RATE_LIMIT_PER_MINUTE per client address (the route needs no token), 429 past it.
     */
    async media(name: string, address: string): Promise<{ contentType: string; size: number; body: Readable }> {
      const waitMs = await deps.limits.media.hit(address);
      if (waitMs !== null) throw rateLimited(waitMs);
      const row = mediaNamePattern.test(name) ? await repo.findMedia(name) : undefined;
      if (!row) throw errors.mediaNotFound();
      return { contentType: row.content_type, size: row.size, body: repo.mediaBytes(row.id) };
    },

    /** The deck as an Anki package (collection.anki2), with the images its cards show. */
    async exportApkg(userId: string, deckId: string): Promise<{ deckName: string; body: Buffer }> {
      const waitMs = await deps.limits.exports.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
      const deck = isId(deckId) ? await repo.deckForExport(userId, deckId) : undefined;
      if (!deck) throw errors.deckNotFound();
      const names = new Set<string>();
      // Read a page at a time and converted CONVERT_BATCH cards at a time, yielding between batches; each page is
      // written to the collection before the next is read, so a deck of 200,000 cards is never held whole.
      async function* pages(): AsyncGenerator<ApkgCard[]> {
        for await (const page of repo.exportCardPages(userId, deckId)) {
          const converted: ApkgCard[] = [];
          for (const [index, card] of page.entries()) {
            if (index > 0 && index % CONVERT_BATCH === 0) await nextTurn();
            const front = markdownToAnkiHtml(card.question);
            const back = markdownToAnkiHtml(card.answer);
            for (const name of [...front.media, ...back.media]) names.add(name);
            converted.push({ guid: `fc${card.id}`, front: front.html, back: back.html, createdAt: card.created_at });
          }
          yield converted;
        }
      }
      const body = await writeApkg({
        deckName: deck.name,
        pages: pages(),
        media: () => repo.userMedia(userId, [...names]),
        now: clock.now(),
      });
      return { deckName: deck.name, body };
    },
  };
}

export type InteropService = ReturnType<typeof createInteropService>;
