import { type ErrorCode, errorCodes } from '@flashcards/shared/errors';
import { type AnyMessageKey, messageText } from '@flashcards/shared/server-messages';

export interface AppErrorExtra {
  errors?: { field: string; message: string }[];
  retryAfterSeconds?: number;
}

/**
 * An error the caller is meant to see: its code (which fixes the status, packages/shared/src/errors.ts) and its
 * human-readable detail go out as-is. Build one with a factory: `errors.deckNotFound()`.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: AppErrorExtra = {},
  ) {
    super(detail);
    this.statusCode = errorCodes[code].status;
  }
}

export interface AppErrorOptions extends AppErrorExtra {
  /** Another shared message than the code's usual one (e.g. `validation_failed` with `selectDeck`). */
  message?: AnyMessageKey;
  /** A detail built at run time (a zod rule's message, a filled template). */
  detail?: string;
}

/** `deck_not_found` → `deckNotFound`. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

export type ErrorFactories = { readonly [C in ErrorCode as CamelCase<C>]: (options?: AppErrorOptions) => AppError };

/** An AppError for a code, with the code's own message unless the options say otherwise. */
export function appError(code: ErrorCode, options: AppErrorOptions = {}): AppError {
  const { message, detail, ...extra } = options;
  return new AppError(code, detail ?? messageText(message ?? errorCodes[code].message), extra);
}

const camelCase = (code: string) => code.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** One factory per code of the shared table: `errors.deckNotFound()`, `errors.rateLimited({ retryAfterSeconds })`. */
export const errors = Object.fromEntries(
  (Object.keys(errorCodes) as ErrorCode[]).map((code) => [
    camelCase(code),
    (options?: AppErrorOptions) => appError(code, options),
  ]),
) as unknown as ErrorFactories;

/** 429 with `Retry-After` rounded up to whole seconds. */
export const rateLimited = (waitMs: number) => errors.rateLimited({ retryAfterSeconds: Math.ceil(waitMs / 1000) });
