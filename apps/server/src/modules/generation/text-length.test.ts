import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { freeUsed, postCreate } from '../../../test/support/generation';
import { postForm } from '../../../test/support/request-bodies';
import { useTestApp } from '../../../test/support/test-app';

// The 10,000-character limit of POST /create counts characters as the web app's counter does (JavaScript string
// length, UTF-16 code units), never UTF-8 bytes: every earlier test text was ASCII, where the two agree.

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', FREE_GENERATIONS_PER_MONTH: '100' } });

const french =
  "La photosynthèse est le processus par lequel les végétaux chlorophylliens synthétisent de la matière organique à l'aide de l'énergie lumineuse. ";
const japanese =
  '光合成とは、植物が光のエネルギーを使って二酸化炭素と水からブドウ糖を作る過程です。葉緑素は光を吸収する緑色の色素です。';

/** `unit` repeated and cut to exactly `length` UTF-16 code units. */
function textOf(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length) + 1).slice(0, length);
}

describe('POST /create counts the text limit in characters, not bytes', () => {
  it('the texts below are longer in UTF-8 bytes than in characters (else this file proves nothing)', () => {
    expect(textOf(french, limits.maxTextLength).length).toBe(10_000);
    expect(Buffer.byteLength(textOf(french, limits.maxTextLength))).toBeGreaterThan(10_000);
    expect(Buffer.byteLength(textOf(japanese, limits.maxTextLength))).toBe(30_000);
    expect(Buffer.byteLength('é'.repeat(limits.maxTextLength))).toBe(20_000);
  });

  it.each([
    ['accented Latin', french],
    ['Japanese (CJK)', japanese],
  ])(
    'accepts exactly 10,000 characters of %s and refuses 10,001 with 413, charging only the accepted one',
    async (_name, unit) => {
      const { user, headers } = await signUpAndLogIn(ctx.app);
      const accepted = await postCreate(ctx.app, headers, [{ name: 'text', value: textOf(unit, 10_000) }]);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toMatchObject({ cost: 1 });
      expect(accepted.json().cards.length).toBeGreaterThan(0);

      const refused = await postCreate(ctx.app, headers, [{ name: 'text', value: textOf(unit, 10_001) }]);
      expectError(refused, 413, 'text_too_long', messages.textTooLong);
      expect(await freeUsed(ctx.database, user._id)).toBe(1);
    },
  );

  it('counts 10,000 é (20,000 bytes) as 10,000: past the length check, the same in a url-encoded form', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    for (const send of [
      (text: string) => postCreate(ctx.app, headers, [{ name: 'text', value: text }]),
      (text: string) => postForm(ctx.app, '/create', headers, { text }),
    ]) {
      const atLimit = await send('é'.repeat(10_000));
      // A text of one repeated letter passes the length check and then makes no card: 422, never 413.
      expectError(atLimit, 422, 'no_cards_generated', serverMessages.noCardsGenerated);
      expectError(await send('é'.repeat(10_001)), 413, 'text_too_long', messages.textTooLong);
    }
    expect(await freeUsed(ctx.database, user._id)).toBe(0);
  });

  it('counts a character outside the Basic Multilingual Plane (an emoji) as 2, as the web counter does', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const emoji = '🧠';
    expect(emoji.length).toBe(2);
    const atLimit = `${textOf(french, 9_000)}${emoji.repeat(500)}`;
    expect(atLimit.length).toBe(10_000);
    expect([...atLimit].length).toBe(9_500);
    const accepted = await postCreate(ctx.app, headers, [{ name: 'text', value: atLimit }]);
    expect(accepted.statusCode, accepted.body).toBe(200);

    // 9,501 code points, 10,002 code units: refused, as the web app's "10002 / 10000 characters" says.
    const over = `${textOf(french, 9_000)}${emoji.repeat(501)}`;
    expect([...over].length).toBeLessThan(10_000);
    expectError(
      await postCreate(ctx.app, headers, [{ name: 'text', value: over }]),
      413,
      'text_too_long',
      messages.textTooLong,
    );
  });
});
