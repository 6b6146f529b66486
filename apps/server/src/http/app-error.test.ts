import { type ErrorCode, errorCodes, isErrorCode, syncRejectionCodes } from '@flashcards/shared/errors';
import { messages } from '@flashcards/shared/messages';
import { messageText, serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { AppError, appError, errors, rateLimited } from './app-error';

const codes = Object.keys(errorCodes) as ErrorCode[];

describe('the error-code table', () => {
  it('gives every code a 4xx or 5xx status and a message that exists', () => {
    expect(codes.length).toBeGreaterThan(30);
    for (const code of codes) {
      const { status, message } = errorCodes[code];
      expect(code, code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(Number.isInteger(status) && status >= 400 && status <= 599, `${code} status ${status}`).toBe(true);
      const tables = [messages, serverMessages].filter((table) => Object.hasOwn(table, message));
      expect(tables, `${code} message key ${message}`).toHaveLength(1);
      expect(messageText(message).length, `${code} message text`).toBeGreaterThan(0);
    }
  });

  it('has a factory for every code, answering its status, code and message', () => {
    const factories = errors as unknown as Record<string, () => AppError>;
    expect(Object.keys(factories)).toHaveLength(codes.length);
    for (const code of codes) {
      const name = code.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
      const error = factories[name]?.();
      expect(error, name).toBeInstanceOf(AppError);
      expect(error?.code).toBe(code);
      expect(error?.statusCode).toBe(errorCodes[code].status);
      expect(error?.detail).toBe({ ...messages, ...serverMessages }[errorCodes[code].message]);
    }
  });

  it("keeps each text in one table: the web app's (messages.ts) or the server's (server-messages.ts)", () => {
    const shared = Object.keys(messages);
    expect(Object.keys(serverMessages).filter((key) => shared.includes(key))).toEqual([]);
    expect(messageText('selectDeck')).toBe(messages.selectDeck);
    expect(messageText('deckNotFound')).toBe(serverMessages.deckNotFound);
  });

  it("gives the codes of a sync's rejected answers texts the web app carries", () => {
    for (const code of syncRejectionCodes) expect(Object.hasOwn(messages, errorCodes[code].message), code).toBe(true);
  });

  it('lets a call site pick another message, a detail or a Retry-After', () => {
    expect(errors.validationFailed({ message: 'selectDeck' })).toMatchObject({
      statusCode: 422,
      code: 'validation_failed',
      detail: messages.selectDeck,
    });
    expect(appError('not_enough_reviews', { detail: 'At least 400 reviews…' }).detail).toBe('At least 400 reviews…');
    expect(rateLimited(1500)).toMatchObject({ statusCode: 429, code: 'rate_limited', extra: { retryAfterSeconds: 2 } });
  });

  it('tells our codes from other strings', () => {
    expect(isErrorCode('deck_not_found')).toBe(true);
    for (const value of ['deck_not_fund', 'toString', '__proto__', '', null, 404])
      expect(isErrorCode(value)).toBe(false);
  });
});
