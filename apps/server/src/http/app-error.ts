import { type MessageKey, messages } from '@flashcards/shared/messages';

/** An error the caller is meant to see: its status, stable code and human-readable detail go out as-is. */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: { errors?: { field: string; message: string }[]; retryAfterSeconds?: number } = {},
  ) {
    super(detail);
  }
}

/** An AppError whose detail is one of the shared messages. */
export function appError(statusCode: number, code: string, message: MessageKey, extra?: AppError['extra']): AppError {
  return new AppError(statusCode, code, messages[message], extra);
}

export const notAuthenticated = () => appError(401, 'not_authenticated', 'notAuthenticated');
