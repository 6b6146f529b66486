import type { CardSource, GeneratedCard, GenerateResponse } from '@flashcards/shared/api-types';
import { generationCosts, limits } from '@flashcards/shared/limits';
import type { FastifyBaseLogger } from 'fastify';
import { type AiProvider, AiTimeoutError, dropNearDuplicates, similarity } from '../../adapters/ai/ai-provider';
import type { Clock } from '../../adapters/clock';
import { withAbortDeadline } from '../../adapters/deadline';
import { detectFileKind } from '../../adapters/extract/detect-file-type';
import type { FileKind, Passage } from '../../adapters/extract/extracted';
import type { Extractor } from '../../adapters/extract/extractor';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import type { Config } from '../../config';
import { errors, rateLimited } from '../../http/app-error';
import { busyRetrySeconds, toAppError } from '../../http/to-app-error';
import type { QuotaService, Reservation } from '../quota/quota.service';
import { type Chunk, chunkPassages, mapWithConcurrency } from './chunking';
import { cleanPassages } from './clean-text';

export interface GenerationInput {
  text: string;
  file: { bytes: Buffer; filename: string } | null;
}

export interface GenerationServiceDeps {
  provider: AiProvider;
  /** `hasCapacity` (the isolated parser pool has it) lets a full queue be refused before anything is charged. */
  extractor: Extractor & { hasCapacity?: () => boolean };
  /** Generations per user per hour; every request that passes the input checks counts, failed ones too. */
  limiter: RateLimiter;
  /** One file generation at a time per user: a one-point limiter used as a lock, released when the work ends. */
  fileLock: RateLimiter;
  quota: QuotaService;
  clock: Clock;
  ai: Config['ai'];
}

/** The cost of a generation: the file's price when there is one, else the text's. */
export function costOf(kind: FileKind | null): number {
  if (kind === 'pptx') return generationCosts.pptx;
  if (kind) return generationCosts.file;
  return generationCosts.text;
}

/** Which passage of a chunk a card most likely came from (the one sharing most words with it). */
function sourceOf(card: { question: string; answer: string }, chunk: Chunk): CardSource | undefined {
  let best: Passage | undefined;
  let bestScore = -1;
  for (const passage of chunk.passages) {
    const score = similarity(`${card.question} ${card.answer}`, passage.text);
    if (score > bestScore) {
      best = passage;
      bestScore = score;
    }
  }
  if (best?.page !== undefined) return { page: best.page };
  if (best?.slide !== undefined) return { slide: best.slide };
  return undefined;
}

/** The leading passages up to `maxChars` characters in all (the last one cut), in source order. */
export function limitPassages(passages: Passage[], maxChars: number): Passage[] {
  const out: Passage[] = [];
  let left = maxChars;
  for (const passage of passages) {
    if (left <= 0) break;
    out.push(passage.text.length <= left ? passage : { ...passage, text: passage.text.slice(0, left) });
    left -= passage.text.length;
  }
  return out;
}

/**
 * POST /create: checks the input before any work, reserves the cost atomically, extracts the file's text,
 * generates per chunk with bounded parallelism under one deadline, merges and caps the cards, and gives the cost
 * back if anything after the reservation fails.
 */
export function createGenerationService(deps: GenerationServiceDeps) {
  const { provider, extractor, quota, clock, ai, limiter, fileLock } = deps;

  async function generateFromPassages(passages: Passage[], log: FastifyBaseLogger, inputChars: number) {
    const started = clock.now();
    const chunks = chunkPassages(passages, ai.chunkChars);
    const total = chunks.reduce((sum, chunk) => sum + chunk.text.length, 0);
    const usage = { promptTokens: 0, completionTokens: 0, known: false };
    return withAbortDeadline(ai.timeoutMs, async (signal) => {
      const perChunk = await mapWithConcurrency(chunks, ai.concurrency, async (chunk) => {
        const budget = Math.max(3, Math.ceil((ai.maxCardsPerGeneration * chunk.text.length) / total));
        const result = await provider.generateCards(
          { text: chunk.text, maxCards: Math.min(budget, ai.maxCardsPerGeneration) },
          signal,
        );
        if (result.usage) {
          usage.known = true;
          usage.promptTokens += result.usage.promptTokens;
          usage.completionTokens += result.usage.completionTokens;
        }
        return result.cards.map((card): GeneratedCard => {
          const source = sourceOf(card, chunk);
          return source ? { ...card, source } : { ...card };
        });
      });
      if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
      const cards = dropNearDuplicates(perChunk.flat()).slice(0, ai.maxCardsPerGeneration);
      log.info(
        {
          generation: {
            provider: provider.name,
            model: provider.model,
            inputChars,
            chunks: chunks.length,
            cards: cards.length,
            ...(usage.known ? { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens } : {}),
            ms: clock.now() - started,
            ...(ai.logText ? { text: passages.map((p) => p.text).join('\n\n') } : {}),
          },
        },
        'generation finished',
      );
      return cards;
    });
  }

  return {
    async generate(userId: string, input: GenerationInput, log: FastifyBaseLogger): Promise<GenerateResponse> {
      // Input checks before any work (the size limits are enforced while reading the request).
      const text = input.text.trim();
      if (input.text.length > limits.maxTextLength) throw errors.textTooLong();
      if (!text && !input.file) throw errors.emptyInput();
      let kind: FileKind | null = null;
      if (input.file) {
        kind = await detectFileKind(input.file.bytes);
        if (!kind) {
          const pptxName = /\.pptx$/i.test(input.file.filename);
          throw errors.unsupportedFileType({ message: pptxName ? 'invalidFileTypePptx' : 'invalidFileType' });
        }
      }

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
      try {
        const passages: Passage[] = text ? [{ text }] : [];
        if (input.file && kind) {
          const extracted = await extractor.extract(kind, input.file.bytes);
          if (!extracted.some((passage) => passage.text.trim())) {
            throw errors.fileUnreadable({ message: 'noTextInFile' });
          }
          passages.push(...cleanPassages(extracted));
        }
        const inputChars = passages.reduce((sum, passage) => sum + passage.text.length, 0);
        const cards = await generateFromPassages(limitPassages(passages, ai.maxInputChars), log, inputChars);
        if (cards.length === 0) throw errors.noCardsGenerated();
        const { remaining } = await quota.balance(userId);
        return { cards, cost, remaining };
      } catch (error) {
        await quota.refund(reservation);
        throw toAppError(error, log);
      } finally {
        if (kind) await fileLock.reset(userId);
      }
    },
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
