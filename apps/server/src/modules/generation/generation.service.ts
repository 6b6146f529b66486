import type { CardStyle, DuplicateOf, GeneratedCard, GenerateResponse } from '@flashcards/shared/api-types';
import { generationCosts, limits } from '@flashcards/shared/limits';
import type { FastifyBaseLogger } from 'fastify';
import { detectFileKind } from '../../adapters/extract/detect-file-type';
import type { FileKind, FileSource } from '../../adapters/extract/extracted';
import type { Extractor } from '../../adapters/extract/extractor';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import { busyRetrySeconds, toAppError } from '../../http/to-app-error';
import type { FigureStore } from '../media/media.service';
import type { QuotaService, Reservation } from '../quota/quota.service';
import type { CardFigure, RunnerCard } from './card-figures';
import type { DeckDuplicates } from './deck-duplicates';
import {
  createGenerationPipeline,
  GenerationCancelledError,
  type GenerationEvents,
  type GenerationJob,
  type GenerationPipelineDeps,
  type GenerationRunner,
} from './generation-pipeline';

export interface GenerationInput {
  text: string;
  cardStyle: CardStyle;
  /** The upload: its bytes, or (from the route) the temporary file it was streamed to. */
  file: { source: FileSource; filename: string } | null;
  /** POST /create's `deck_id`: the user's deck whose cards the generated ones are checked against. */
  deckId?: string;
}

export interface GenerationServiceDeps extends GenerationPipelineDeps {
  /** `hasCapacity` (the isolated parser pool has it) lets a full queue be refused before anything is charged. */
  extractor: Extractor & { hasCapacity?: () => boolean };
  /** Generations per user per hour; every request that passes the input checks counts, failed ones too. */
  limiter: RateLimiter;
  /** One file generation at a time per user: a one-point limiter used as a lock, released when the work ends. */
  fileLock: RateLimiter;
  quota: QuotaService;
  /** Where extraction and generation run: the queue's worker processes; unset, this process's pipeline. */
  runner?: GenerationRunner;
  /** The duplicate check against `deck_id`'s cards; unset, `deck_id` is not accepted. */
  duplicates?: DeckDuplicates;
  /** Where the figures of generated cards are kept as the user's media; unset, cards come without images. */
  storeFigure?: FigureStore;
}

/** A caller that streams: `onStart` runs once the checks passed and the cost is taken, before any work. */
export interface GenerationStream extends GenerationEvents {
  onStart?: () => void;
}

/** The cost of a generation: the file's price when there is one, else the text's. */
export function costOf(kind: FileKind | null): number {
  if (kind === 'pptx') return generationCosts.pptx;
  if (kind) return generationCosts.file;
  return generationCosts.text;
}

/**
 * POST /create: checks the input before any work, reserves the cost atomically, hands the job to the runner
 * (extraction, then per-chunk generation under one deadline, in this process or on a queue's workers), and gives
 * the cost back if anything after the reservation fails. A caller that leaves (its signal aborts) pays only if it
 * was already given a card.
 */
export function createGenerationService(deps: GenerationServiceDeps) {
  const { extractor, quota, limiter, fileLock } = deps;
  const runner = deps.runner ?? createGenerationPipeline(deps);

  return {
    async generate(
      userId: string,
      input: GenerationInput,
      log: FastifyBaseLogger,
      events?: GenerationStream,
    ): Promise<GenerateResponse> {
      // Input checks before any work (the size limits are enforced while reading the request).
      const text = input.text.trim();
      if (input.text.length > limits.maxTextLength) throw errors.textTooLong();
      if (!text && !input.file) throw errors.emptyInput();
      let kind: FileKind | null = null;
      if (input.file) {
        kind = await detectFileKind(input.file.source);
        if (!kind) {
          const pptxName = /\.pptx$/i.test(input.file.filename);
          throw errors.unsupportedFileType({ message: pptxName ? 'invalidFileTypePptx' : 'invalidFileType' });
        }
      }

      const deckId = input.deckId;
      if (deckId !== undefined) {
        if (!deps.duplicates) throw errors.deckNotFound();
        await deps.duplicates.requireDeck(userId, deckId);
      }
      const finish = finishCards(userId, input, deps.duplicates, figureImages(userId, deps.storeFigure));

      const waitMs = await limiter.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
      if (kind && extractor.hasCapacity?.() === false) throw errors.busy({ retryAfterSeconds: busyRetrySeconds });
      if (kind && (await fileLock.hit(userId)) !== null) {
        throw errors.generationInProgress({ retryAfterSeconds: 10 });
      }

      const cost = costOf(kind);
      let reservation: Reservation;
      try {
        reservation = await quota.reserve(userId, cost);
      } catch (error) {
        if (kind) await fileLock.reset(userId);
        throw error;
      }
      // From here on the work has started: a streaming caller switches to its event stream.
      events?.onStart?.();
      let cardsSent = 0;
      // Streamed cards are finished (duplicate check) one after another, in the order the runner gave them.
      let streaming: Promise<void> = Promise.resolve();
      try {
        const job: GenerationJob = {
          text,
          file: input.file && kind ? { kind, source: input.file.source } : null,
          cardStyle: input.cardStyle,
        };
        const cards = await runner.run(job, log, {
          ...(events?.signal ? { signal: events.signal } : {}),
          ...(events?.onProgress ? { onProgress: events.onProgress } : {}),
          // Only a streaming caller is given cards before the end; a JSON caller sees none until the reply.
          ...(events?.onCard
            ? {
                onCard: (card: RunnerCard) => {
                  cardsSent++;
                  streaming = streaming.then(async () => events.onCard?.(await finish(card)));
                },
              }
            : {}),
        });
        await streaming;
        const finished = [];
        for (const card of cards) finished.push(await finish(card));
        const { remaining } = await quota.balance(userId);
        return { cards: finished, cost, remaining };
      } catch (error) {
        // A client that left after seeing cards keeps them and pays (docs/api.md, "Streaming generation").
        if (!(error instanceof GenerationCancelledError && cardsSent > 0)) await quota.refund(reservation);
        if (error instanceof GenerationCancelledError) {
          log.info({ cardsSent, refunded: cardsSent === 0 }, 'generation cancelled: the client left');
          throw error;
        }
        throw toAppError(error, log);
      } finally {
        if (kind) await fileLock.reset(userId);
      }
    },
  };
}

/**
 * The `images` of a card from its figures: each figure stored once per generation (cards of one slide share them),
 * those the user's media quota has no room for left out.
 */
function figureImages(userId: string, storeFigure: FigureStore | undefined) {
  const stored = new Map<string, Promise<string | null>>();
  return async (figures: CardFigure[] | undefined): Promise<string[]> => {
    if (!storeFigure || !figures?.length) return [];
    const urls = await Promise.all(
      figures.map((figure) => {
        let url = stored.get(figure.base64);
        if (!url) {
          url = storeFigure(userId, { data: Buffer.from(figure.base64, 'base64'), contentType: figure.contentType });
          stored.set(figure.base64, url);
        }
        return url;
      }),
    );
    return urls.filter((url): url is string => url !== null);
  };
}

/**
 * What a generated card gets once the runner gave it: its document's name, and the card of `deck_id` it repeats.
 * Each card is checked once per generation (a streamed card is in the final list too).
 */
function finishCards(
  userId: string,
  input: GenerationInput,
  duplicates: DeckDuplicates | undefined,
  imagesOf: (figures: CardFigure[] | undefined) => Promise<string[]>,
) {
  const document = input.file?.filename.trim().slice(0, 255);
  const textToo = input.text.trim() !== '';
  const known = new Map<string, Promise<DuplicateOf | undefined>>();
  const duplicateOf = input.deckId !== undefined ? duplicates?.forDeck(userId, input.deckId) : undefined;
  return async ({ figures, ...card }: RunnerCard): Promise<GeneratedCard> => {
    const images = await imagesOf(figures);
    if (images.length) card.images = images;
    // With pasted text beside the file, a card without a page or slide came from the text, not the document.
    const fromFile = !textToo || card.source.page !== undefined || card.source.slide !== undefined;
    const source = document && fromFile ? { document, ...card.source } : card.source;
    if (!duplicateOf) return { ...card, source };
    const key = `${card.question}\n${card.answer}`;
    let found = known.get(key);
    if (!found) {
      found = duplicateOf(card);
      known.set(key, found);
    }
    const duplicate = await found;
    return duplicate ? { ...card, source, duplicate_of: duplicate } : { ...card, source };
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
