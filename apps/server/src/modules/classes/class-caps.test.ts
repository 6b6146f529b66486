import type { ClassSummary, DeckSummary } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { assignDeck, createClass, joinClass, postJoin } from '../../../test/support/classes';
import { type AuthHeaders, signUpAndLogIn } from '../../../test/support/factories';
import { createDeck, postSaveCards, saveCards } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

// A student's linked copies count towards their own MAX_DECKS_PER_USER and MAX_CARDS_PER_USER: joining is refused
// with the cap's 422 when the class's decks would not fit; the teacher's later additions reach every copy even past
// a student's cap (the teacher is never refused because a student is full), and then the student's own additions
// are refused as usual.
const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', MAX_CARDS_PER_USER: '5', MAX_DECKS_PER_USER: '3' } });

async function decksOf(headers: AuthHeaders): Promise<DeckSummary[]> {
  const response = await ctx.app.inject({ method: 'GET', url: '/decks', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DeckSummary[]>();
}

async function classesOf(headers: AuthHeaders): Promise<ClassSummary[]> {
  const response = await ctx.app.inject({ method: 'GET', url: '/classes', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ClassSummary[]>();
}

const card = (n: number) => ({ question: `Question ${n}?`, answer: `Answer ${n}` });

async function classOfThreeCards() {
  const teacher = await signUpAndLogIn(ctx.app);
  const klass = await createClass(ctx.app, teacher.headers);
  const deck = await createDeck(ctx.app, teacher.headers, 'Cells');
  await saveCards(ctx.app, teacher.headers, deck._id, [card(1), card(2), card(3)]);
  await assignDeck(ctx.app, teacher.headers, klass._id, deck._id);
  return { teacher, klass, deck };
}

describe('classes and the per-user caps', () => {
  it("refuses to join with 422 too_many_cards when the copies would pass the student's card cap", async () => {
    const { klass } = await classOfThreeCards();
    const student = await signUpAndLogIn(ctx.app);
    const own = await createDeck(ctx.app, student.headers, 'Mine');
    await saveCards(ctx.app, student.headers, own._id, [card(1), card(2), card(3)]);
    const before = await decksOf(student.headers);

    const refused = await postJoin(ctx.app, student.headers, klass.join_code);
    expectError(refused, 422, 'too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: 5 }));
    expect(await classesOf(student.headers)).toEqual([]);
    expect(await decksOf(student.headers)).toEqual(before);
  });

  it("refuses to join with 422 too_many_decks when the copies would pass the student's deck cap", async () => {
    const { klass } = await classOfThreeCards();
    const student = await signUpAndLogIn(ctx.app);
    for (const name of ['One', 'Two', 'Three']) await createDeck(ctx.app, student.headers, name);
    const before = await decksOf(student.headers);

    const refused = await postJoin(ctx.app, student.headers, klass.join_code);
    expectError(refused, 422, 'too_many_decks', fillMessage(serverMessages.tooManyDecks, { max: 3 }));
    expect(await classesOf(student.headers)).toEqual([]);
    expect(await decksOf(student.headers)).toEqual(before);
  });

  it("lets the teacher's later cards reach a student past the cap, then refuses the student's own", async () => {
    const { teacher, deck } = await classOfThreeCards();
    const klass = (await classesOf(teacher.headers))[0] as ClassSummary & { join_code: string };
    const student = await signUpAndLogIn(ctx.app);
    const own = await createDeck(ctx.app, student.headers, 'Mine');
    await saveCards(ctx.app, student.headers, own._id, [card(1)]);
    await joinClass(ctx.app, student.headers, klass.join_code);
    const copyCount = async () => (await decksOf(student.headers)).find((d) => d.linked)?.card_count;
    expect(await copyCount()).toBe(3);

    // The teacher stays within their own cap (5 cards); the student's copy takes them past theirs (1 + 5 > 5).
    await saveCards(ctx.app, teacher.headers, deck._id, [card(4), card(5)]);
    expect(await copyCount()).toBe(5);

    const refused = await postSaveCards(ctx.app, student.headers, { deck_id: own._id, cards: [card(2)] });
    expectError(refused, 422, 'too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: 5 }));
    expect((await decksOf(student.headers)).find((d) => d._id === own._id)?.card_count).toBe(1);
  });
});
