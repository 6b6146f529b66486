import type { FastifyBaseLogger } from 'fastify';
import { AiTimeoutError, AiUnavailableError } from '../adapters/ai/ai-provider';
import { UnreadableFileError } from '../adapters/extract/extracted';
import { ExtractorBusyError } from '../adapters/extract/parser-pool';
import { AppError, errors } from './app-error';

/** How long a client refused as busy is told to wait. */
export const busyRetrySeconds = 30;

/**
 * Maps the adapters' failures (extraction, AI provider) to the API's errors, logging why; AppErrors and anything
 * else pass through unchanged (the error handler answers the rest with a generic 500).
 */
export function toAppError(error: unknown, log: FastifyBaseLogger): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof UnreadableFileError) {
    log.warn({ reason: error.message }, 'file could not be read');
    return errors.fileUnreadable();
  }
  if (error instanceof ExtractorBusyError) {
    log.warn({ reason: error.message }, 'parsers busy');
    return errors.busy({ retryAfterSeconds: busyRetrySeconds });
  }
  if (error instanceof AiTimeoutError) {
    log.warn({ reason: error.message }, 'generation timed out');
    return errors.aiTimeout();
  }
  if (error instanceof AiUnavailableError) {
    log.error({ reason: error.message }, 'AI provider failed');
    return errors.aiUnavailable();
  }
  return error;
}
