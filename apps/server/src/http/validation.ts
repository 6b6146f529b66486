import { isErrorCode } from '@flashcards/shared/errors';
import { messages } from '@flashcards/shared/messages';
import type { z } from 'zod';
import { AppError } from './app-error';
import { containsNul } from './input-guards';

/**
 * Parses a request part with a zod schema. On failure: 422 validation_failed, the first problem as `detail`
 * (schemas carry the user-facing messages) and every problem in `errors`. A custom rule may name another 422 code
 * of the shared table with `params: { code: 'invalid_deck_id' }`.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  if (containsNul(input)) throw new AppError('validation_failed', messages.nulCharacter);
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const errors = result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  const named = first?.code === 'custom' ? first.params?.code : undefined;
  const code = isErrorCode(named) ? named : 'validation_failed';
  if (code !== 'validation_failed') throw new AppError(code, first?.message ?? messages.validationFailed);
  throw new AppError('validation_failed', errors[0]?.message ?? messages.validationFailed, { errors });
}
