import type { ErrorCode } from '@flashcards/shared/errors';
import { expect } from 'vitest';
import { AppError } from '../../src/http/app-error';

/** What an answer needs for expectError: an injected response, or one a helper read. */
interface Answer {
  statusCode: number;
  body?: string;
  json(): unknown;
}

/** Asserts an error answer as the contract writes it: the status, and exactly the body `{ detail, code }`. */
export function expectError(response: Answer, status: number, code: ErrorCode, detail: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ detail, code });
}

/** Asserts a 422 validation_failed answer for one broken rule: exactly `{ detail, code, errors: [{ field, message }] }`. */
export function expectValidationError(response: Answer, field: string, detail: string): void {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json()).toEqual({ detail, code: 'validation_failed', errors: [{ field, message: detail }] });
}

/** What a service call was refused with: the AppError's code and detail, and its Retry-After seconds when it has some. */
export async function refusalOf(
  promise: Promise<unknown>,
): Promise<{ code: string; detail: string; retryAfterSeconds?: number }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  const { code, detail, extra } = error as AppError;
  return extra.retryAfterSeconds === undefined
    ? { code, detail }
    : { code, detail, retryAfterSeconds: extra.retryAfterSeconds };
}
