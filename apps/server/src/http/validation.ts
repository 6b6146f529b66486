import { messages } from '@flashcards/shared/messages';
import type { z } from 'zod';
import { AppError } from './app-error';
import { containsNul } from './input-guards';

/**
 * Parses a request part with a zod schema. On failure: 422 validation_failed, the first problem as `detail`
 * (schemas carry the user-facing messages) and every problem in `errors`.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  if (containsNul(input)) throw new AppError(422, 'validation_failed', messages.nulCharacter);
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  throw new AppError(422, 'validation_failed', errors[0]?.message ?? messages.validationFailed, { errors });
}
