import type { ErrorCode } from '@flashcards/shared/errors';
import { expect } from 'vitest';

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
