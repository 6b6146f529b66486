import type { GeneratedCard, GenerateResponse } from '@flashcards/shared/api-types';
import { generationCosts, limits } from '@flashcards/shared/limits';
import type { FastifyBaseLogger } from 'fastify';
import { AiTimeoutError, AiUnavailableError } from '../../adapters/ai/ai-provider';
import { detectFileKind } from '../../adapters/extract/detect-file-type';
import { type FileKind, UnreadableFileError } from '../../adapters/extract/extracted';
import type { Extractor } from '../../adapters/extract/extractor';
import { ExtractorBusyError } from '../../adapters/extract/parser-pool';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { AppError, appError } from '../../http/app-error';
import type { QuotaService, Reservation } from '../quota/quota.service';
import {
  createGenerationPipeline,
  GenerationCancelledError,
  type GenerationEvents,
  type GenerationJob,
  type GenerationPipelineDeps,
  type GenerationRunner,
} from './generation-pipeline';

export { limitPassages } from './generation-pipeline';

export interface GenerationInput {
  text: string;
  file: { bytes: Buffer; filename: string } | null;
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
}

/** A caller that streams: `onStart` runs once the checks passed and the cost is taken, before any work. */
export interface GenerationStream extends GenerationEvents {
  onStart?: () => void;
}

/** How long a client refused as busy is told to wait. */
const busyRetrySeconds = 30;

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
  const busy = () => appError(503, 'busy', 'serverBusy', { retryAfterSeconds: busyRetrySeconds });

  return {
    async generate(
      userId: string,
      input: GenerationInput,
      log: FastifyBaseLogger,
      events?: GenerationStream,
    ): Promise<GenerateResponse> {
      // Input checks before any work (the size limits are enforced while reading the request).
      const text = input.text.trim();
      if (input.text.length > limits.maxTextLength) throw appError(413, 'text_too_long', 'textTooLong');
      if (!text && !input.file) throw appError(422, 'empty_input', 'emptyInput');
      let kind: FileKind | null = null;
      if (input.file) {
        kind = await detectFileKind(input.file.bytes);
        if (!kind) {
          const pptxName = /\.pptx$/i.test(input.file.filename);
          throw appError(415, 'unsupported_file_type', pptxName ? 'invalidFileTypePptx' : 'invalidFileType');
        }
      }

      const waitMs = await limiter.hit(userId);
      if (waitMs !== null) {
        throw appError(429, 'rate_limited', 'rateLimited', { retryAfterSeconds: Math.ceil(waitMs / 1000) });
      }
      if (kind && extractor.hasCapacity?.() === false) throw busy();
      if (kind && (await fileLock.hit(userId)) !== null) {
        throw appError(429, 'generation_in_progress', 'generationInProgress', { retryAfterSeconds: 10 });
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
      try {
        const job: GenerationJob = { text, file: input.file && kind ? { kind, bytes: input.file.bytes } : null };
        const cards = await runner.run(job, log, {
          ...(events?.signal ? { signal: events.signal } : {}),
          ...(events?.onProgress ? { onProgress: events.onProgress } : {}),
          // Only a streaming caller is given cards before the end; a JSON caller sees none until the reply.
          ...(events?.onCard
            ? {
                onCard: (card: GeneratedCard) => {
                  cardsSent++;
                  events.onCard?.(card);
                },
              }
            : {}),
        });
        const { remaining } = await quota.balance(userId);
        return { cards, cost, remaining };
      } catch (error) {
        // A client that left after seeing cards keeps them and pays (api-contract.md, "Streaming generation").
        if (!(error instanceof GenerationCancelledError && cardsSent > 0)) await quota.refund(reservation);
        if (error instanceof GenerationCancelledError) {
          log.info({ cardsSent, refunded: cardsSent === 0 }, 'generation cancelled: the client left');
          throw error;
        }
        if (error instanceof ExtractorBusyError) throw busy();
        throw toAppError(error, log);
      } finally {
        if (kind) await fileLock.reset(userId);
      }
    },
  };
}

/** Maps extraction and provider failures to the contract's statuses; anything else passes through. */
export function toAppError(error: unknown, log: FastifyBaseLogger): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof UnreadableFileError) {
    log.warn({ reason: error.message }, 'file could not be read');
    return appError(422, 'file_unreadable', 'fileUnreadable');
  }
  if (error instanceof AiTimeoutError) {
    log.warn({ reason: error.message }, 'generation timed out');
    return appError(504, 'ai_timeout', 'generationTimeout');
  }
  if (error instanceof AiUnavailableError) {
    log.error({ reason: error.message }, 'AI provider failed');
    return appError(502, 'ai_unavailable', 'aiUnavailable');
  }
  return error;
}

export type GenerationService = ReturnType<typeof createGenerationService>;
