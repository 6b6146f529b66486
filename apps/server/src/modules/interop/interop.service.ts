import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FileImportResponse } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { fillMessage } from '@flashcards/shared/messages';
import { type NoteContent, noteLimits } from '@flashcards/shared/notes';
import { serverMessages } from '@flashcards/shared/server-messages';
import { type ApkgNote, writeApkg } from '../../adapters/anki/apkg-writer';
import { imageField, occlusionField } from '../../adapters/anki/image-occlusion';
import { markdownToAnkiHtml } from '../../adapters/anki/markdown-to-html';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import { S3ObjectMissingError } from '../../adapters/media/s3-objects';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { AppError, errors, rateLimited } from '../../http/app-error';
import { newNote } from '../study-core/note-rows';
import type { UserLimits } from '../study-core/user-limits';
import type { ImportKind, ImportRefusal } from './import-parser';
import { ImportBusyError, ImportKilledError, type ImportParser, ImportRefusedError } from './import-runner';
import { type ImportPlan, ImportUserGoneError, type InteropRepo } from './interop.repo';

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
  /** MAX_CARDS_PER_USER: the reading process is told the room left, and refuses a larger file before reading notes. */
  maxCardsPerUser: number;
  /** IMPORT_MAX_IMAGE_BYTES, IMPORT_MAX_IMAGE_PIXELS and MEDIA_QUOTA_BYTES_PER_USER. */
  maxImageBytes: number;
  maxImagePixels: number;
  mediaQuotaBytes: number;
  /**
   * Per-user counters of imports (IMPORT_RATE_LIMIT_PER_HOUR) and exports, and per-address counters of media reads
   * (429 past them).
   */
  limits: { imports: RateLimiter; exports: RateLimiter; media: RateLimiter };
  /** One import at a time per user: a one-point limiter used as a lock, released when the import ends. */
  lock: RateLimiter;
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
    detail: fillMessage(serverMessages.importFileTooLarge, {
      size: `${Math.round((maxBytes / 1_048_576) * 10) / 10} MB`,
    }),
  });

/** A size for a message: bytes, KB or MB, one decimal at most. */
function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1_048_576) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}

/** The answer to a refused file: 422 with what was wrong, or too_many_cards as when saving cards. */
function refusalError(refusal: ImportRefusal, maxCards: number): AppError {
  switch (refusal.reason) {
    case 'tooManyCards':
      return new AppError('too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: maxCards }));
    case 'schema':
      return errors.invalidPackage({ detail: serverMessages.importUnexpectedSchema });
    case 'template':
      return errors.invalidPackage({ detail: serverMessages.importTemplateTooComplex });
    default:
      return errors.invalidPackage();
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** How often a running read checks that its account still exists (the read is stopped when it was deleted). */
const ACCOUNT_CHECK_MS = 1000;
/** Cards of a file that may turn out empty or broken (skipped): allowed beyond the room by the early refusal. */
const SKIPPABLE_CARDS = 1000;
/** Parsed cards planned between two yields to the event loop. */
const PLAN_SLICE = 1000;

/** Cards converted to Anki HTML between two turns of the event loop during an export. */
const CONVERT_BATCH = 200;

export const mediaNamePattern = /^[0-9a-f]{40}\.(png|jpg|gif|webp|avif|bmp)$/;

/**
 * A note's fields as HTML in the order of the Anki stock note type it is exported as (Front, Back; Text, Back Extra;
 * Occlusion, Image, Header, Back Extra, Comments), with the media names they show. The cards' `images` go at the
 * end of the back (the answer side, where review shows them), as `<img>` of the package's media files.
 */
function apkgFields(content: NoteContent, images: readonly string[]): { fields: string[]; media: string[] } {
  const media: string[] = [];
  const html = (markdown: string) => {
    const converted = markdownToAnkiHtml(markdown);
    media.push(...converted.media);
    return converted.html;
  };
  const withImages = (field: string) =>
    images.length === 0 ? field : [field, images.map(imageField).join('')].filter(Boolean).join('<br>');
  media.push(...images);
  switch (content.type) {
    case 'occlusion': {
      const { fields } = content;
      media.push(fields.image);
      const header = html(fields.header ?? '');
      const extra = html(fields.back_extra ?? '');
      return {
        fields: [occlusionField(fields.masks, fields.mode), imageField(fields.image), header, withImages(extra), ''],
        media,
      };
    }
    case 'cloze':
      return { fields: [html(content.fields.text), withImages(html(content.fields.extra ?? ''))], media };
    default:
      return { fields: [html(content.fields.front), withImages(html(content.fields.back))], media };
  }
}

/** Anki interop: imports of packages and text files, stored images, and .apkg exports. */
export function createInteropService(deps: InteropServiceDeps) {
  const { repo, clock } = deps;

  async function importFile(
    userId: string,
    upload: Upload,
    kind: ImportKind,
    signal: AbortSignal | undefined,
  ): Promise<FileImportResponse> {
    const mediaSecret = await repo.mediaSecret(userId, randomBytes(32).toString('hex'));
    const defaultDeckName = upload.deckName?.trim() || upload.filename.replace(/\.[^.]*$/, '').trim() || 'Import';
    // The reader refuses, before reading a note, a file with more cards than could fit: the user's room, plus the
    // cards that may be skipped rather than added (repeats of notes imported before, at most what the account holds;
    // empty or broken cards, up to SKIPPABLE_CARDS). The exact check, once those are skipped, is assertRoom below.
    const room = await deps.userLimits.cardRoom(userId);
    const repeatable = (await repo.importedNoteCount(userId)) > 0 ? deps.maxCardsPerUser - room : 0;
    // The reading process is also stopped when the account is deleted meanwhile (checked every ACCOUNT_CHECK_MS).
    const reading = new AbortController();
    let accountGone = false;
    const onClientGone = () => reading.abort();
    signal?.addEventListener('abort', onClientGone, { once: true });
    if (signal?.aborted) reading.abort();
    const accountCheck = setInterval(() => {
      void repo.userExists(userId).then(
        (exists) => {
          if (exists) return;
          accountGone = true;
          reading.abort();
        },
        () => {},
      );
    }, ACCOUNT_CHECK_MS);
    accountCheck.unref();
    let parsed: Awaited<ReturnType<ImportParser>>;
    try {
      parsed = await deps.parse(
        {
          filePath: upload.filePath,
          kind,
          defaultDeckName,
          mediaSecret,
          maxUnzippedBytes: deps.maxUnzippedBytes,
          maxCards: room + repeatable + SKIPPABLE_CARDS,
          maxImageBytes: deps.maxImageBytes,
          maxImagePixels: deps.maxImagePixels,
        },
        { signal: reading.signal },
      );
    } catch (error) {
      if (accountGone) throw errors.notAuthenticated();
      if (error instanceof ImportRefusedError) throw refusalError(error.refusal, deps.maxCardsPerUser);
      if (error instanceof ImportKilledError) {
        if (error.failure === 'timeout') throw errors.invalidPackage({ detail: serverMessages.importTooSlow });
        if (error.failure === 'memory') throw errors.invalidPackage({ detail: serverMessages.importTooMuchMemory });
        throw errors.invalidPackage();
      }
      if (error instanceof ImportBusyError) throw errors.busy({ retryAfterSeconds: 30 });
      throw error;
    } finally {
      clearInterval(accountCheck);
      signal?.removeEventListener('abort', onClientGone);
    }
    // The account may have been deleted while the file was read: nothing is planned or written for it.
    if (!(await repo.userExists(userId))) throw errors.notAuthenticated();

    const guidSet = new Set<string>();
    for (const [index, note] of parsed.notes.entries()) {
      if (index > 0 && index % PLAN_SLICE === 0) await yieldToEventLoop();
      if (note.guid) guidSet.add(note.guid);
    }
    const guids = [...guidSet];
    const seen = await repo.importedGuids(userId, guids);
    await yieldToEventLoop();
    const now = clock.now();
    const plan: ImportPlan = { userId, now, decks: [], notes: [], media: [], cardMedia: [], guids: [] };
    const deckIds = new Map<string, string>();
    const guidDecks = new Map<string, string>();
    const usedMedia = new Set<string>();
    let skipped = parsed.skipped;
    for (const [index, note] of parsed.notes.entries()) {
      if (index > 0 && index % PLAN_SLICE === 0) await yieldToEventLoop();
      if (note.guid && seen.has(note.guid)) {
        skipped += note.cards.length;
        continue;
      }
      let deckId = deckIds.get(note.deck);
      if (!deckId) {
        deckId = deps.newId();
        deckIds.set(note.deck, deckId);
        plan.decks.push({ id: deckId, name: note.deck, daily_new_card_limit: deps.defaultDailyNewCardLimit });
      }
      const made = newNote({ userId, deckId, newId: deps.newId }, note.content, note.cards, now);
      plan.notes.push(made);
      for (const card of made.cards) {
        for (const name of note.media) {
          plan.cardMedia.push({ cardId: card.id, mediaName: name });
          usedMedia.add(name);
        }
      }
      if (note.guid && !guidDecks.has(note.guid)) guidDecks.set(note.guid, deckId);
    }
    plan.media = parsed.media
      .filter((media) => usedMedia.has(media.name))
      .map((media) => ({ ...media, id: deps.newId() }));
    plan.guids = [...guidDecks].map(([guid, deckId]) => ({ guid, deckId }));
    const cardCount = plan.notes.reduce((sum, note) => sum + note.cards.length, 0);
    await deps.userLimits.assertRoom(userId, { decks: plan.decks.length, cards: cardCount });
    const newBytes = plan.media.reduce((sum, media) => sum + media.data.byteLength, 0);
    if (newBytes > 0) {
      const left = Math.max(0, deps.mediaQuotaBytes - (await repo.mediaBytes(userId)));
      if (newBytes > left) {
        throw errors.mediaQuotaExceeded({
          detail: fillMessage(serverMessages.mediaQuotaExceeded, { size: formatSize(newBytes), max: formatSize(left) }),
        });
      }
    }
    let counts: Map<string, number>;
    try {
      counts = await repo.writeImport(plan);
    } catch (error) {
      if (error instanceof ImportUserGoneError) throw errors.notAuthenticated();
      throw error;
    }

    const warnings: string[] = [];
    if (parsed.sounds > 0) warnings.push(fillMessage(serverMessages.importSoundsDropped, { count: parsed.sounds }));
    if (parsed.missingImages > 0) {
      warnings.push(fillMessage(serverMessages.importImagesMissing, { count: parsed.missingImages }));
    }
    if (parsed.imagesTooLarge > 0) {
      warnings.push(
        fillMessage(serverMessages.importImagesTooLarge, {
          count: parsed.imagesTooLarge,
          max: formatSize(deps.maxImageBytes),
          pixels: deps.maxImagePixels,
        }),
      );
    }
    if (parsed.occlusionSkipped > 0) {
      warnings.push(
        fillMessage(serverMessages.importOcclusionSkipped, {
          count: parsed.occlusionSkipped,
          max: noteLimits.maxOcclusionMasks,
        }),
      );
    }
    if (parsed.occlusionPolygons > 0) {
      warnings.push(fillMessage(serverMessages.importOcclusionPolygons, { count: parsed.occlusionPolygons }));
    }
    if (parsed.tooLong > 0) {
      warnings.push(
        fillMessage(serverMessages.importCardsTooLong, { count: parsed.tooLong, max: limits.maxCardSideLength }),
      );
    }
    for (const { line, reason } of parsed.skippedLines) {
      warnings.push(fillMessage(serverMessages.importLineSkipped, { line, reason }));
    }
    const unlisted = parsed.skippedLineCount - parsed.skippedLines.length;
    if (unlisted > 0) warnings.push(fillMessage(serverMessages.importLinesSkippedMore, { count: unlisted }));
    return {
      decks: plan.decks.map((deck) => ({ _id: deck.id, name: deck.name, card_count: counts.get(deck.id) ?? 0 })),
      cards_imported: cardCount,
      skipped,
      warnings,
    };
  }

  return {
    /** IMPORT_RATE_LIMIT_PER_HOUR per user, counted before the upload is even received: 429 past it. */
    async admitImport(userId: string): Promise<void> {
      const waitMs = await deps.limits.imports.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
    },

    /**
     * POST /import (after admitImport): one import per user at a time; the file is read in a process of
     * its own (killed when `signal` aborts: the client left), then planned and written in slices that let other
     * requests through.
     */
    async import(userId: string, upload: Upload, signal?: AbortSignal): Promise<FileImportResponse> {
      const kind = importKind(upload.filename);
      if (!kind) throw unsupportedImportType();
      if ((await deps.lock.hit(userId)) !== null) throw errors.importInProgress({ retryAfterSeconds: 10 });
      try {
        return await importFile(userId, upload, kind, signal);
      } finally {
        await deps.lock.reset(userId);
      }
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
      try {
        return { contentType: row.content_type, size: row.size, body: await repo.mediaContent(row) };
      } catch (error) {
        // The row outlived its object (deleted from the bucket by hand): the image is gone.
        if (error instanceof S3ObjectMissingError) throw errors.mediaNotFound();
        throw error;
      }
    },

    /** The deck as an Anki package (collection.anki2), with the images its cards show. */
    async exportApkg(userId: string, deckId: string): Promise<{ deckName: string; body: Buffer }> {
      const waitMs = await deps.limits.exports.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
      const deck = isId(deckId) ? await repo.deckForExport(userId, deckId) : undefined;
      if (!deck) throw errors.deckNotFound();
      const names = new Set<string>();
      const teacherId = deck.teacher_id;
      // Read a page at a time and converted CONVERT_BATCH notes at a time, yielding between batches; each page is
      // written to the collection before the next is read, so a deck of 200,000 cards is never held whole.
      async function* pages(): AsyncGenerator<ApkgNote[]> {
        for await (const page of repo.exportNotePages(userId, deckId)) {
          const converted: ApkgNote[] = [];
          for (const [index, note] of page.entries()) {
            if (index > 0 && index % CONVERT_BATCH === 0) await nextTurn();
            const { fields, media } = apkgFields(note.content, note.images);
            for (const name of media) names.add(name);
            converted.push({
              guid: `fc${note.id}`,
              type: note.content.type,
              fields,
              ords: note.ords,
              createdAt: note.created_at,
            });
          }
          yield converted;
        }
      }
      const body = await writeApkg({
        deckName: deck.name,
        pages: pages(),
        // A linked copy's images are its teacher's (media is per user), as the copy shows them.
        media: () => repo.userMedia(teacherId ? [userId, teacherId] : [userId], [...names]),
        now: clock.now(),
      });
      return { deckName: deck.name, body };
    },
  };
}

export type InteropService = ReturnType<typeof createInteropService>;
