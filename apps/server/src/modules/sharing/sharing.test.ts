import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import {
  type AuthHeaders,
  DEFAULT_PASSWORD,
  loginForm,
  postSignup,
  signUpAndLogIn,
  uniqueEmail,
} from '../../../test/support/factories';
import { createDeck, DAY, importShare, learnerWithDeck, reviewCard, saveCards } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', SHARE_TTL_DAYS: '3' } });

async function share(headers: AuthHeaders, deckId: string) {
  const response = await ctx.app.inject({ method: 'POST', url: `/decks/${deckId}/share`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ share_code: string; expires_at: string }>();
}

/** GET /decks. */
function listDecks(headers: AuthHeaders) {
  return ctx.app.inject({ method: 'GET', url: '/decks', headers });
}

/** A user with the given display name (the factory's users are all called Ada). */
async function owner(name: string) {
  const email = uniqueEmail('owner');
  const signup = await postSignup(ctx.app, { email, password: DEFAULT_PASSWORD, name });
  expect(signup.statusCode).toBe(201);
  const login = await loginForm(ctx.app, email, DEFAULT_PASSWORD);
  expect(login.statusCode).toBe(200);
  return { headers: { authorization: `Bearer ${login.json().access_token}` } };
}

describe('POST /decks/{id}/share', () => {
  it('answers an unguessable URL-safe code and its expiry, the same live code when asked again', async () => {
    ctx.clock.set('2026-12-01T10:00:00.000Z');
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const first = await share(headers, deck._id);
    expect(Object.keys(first).sort()).toEqual(['expires_at', 'share_code']);
    // 128 random bits in base64url.
    expect(first.share_code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.expires_at).toBe('2026-12-04T10:00:00.000Z');

    ctx.clock.advance(DAY);
    expect(await share(headers, deck._id)).toEqual(first);

    const other = await createDeck(ctx.app, headers, 'Other');
    const otherShare = await share(headers, other._id);
    expect(otherShare.share_code).not.toBe(first.share_code);

    const rows = await ctx.database.db.selectFrom('shares').selectAll().where('deck_id', '=', deck._id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ code: first.share_code, expires_at: Date.parse(first.expires_at) });
  });

  it('gives a new code once the old one has expired', async () => {
    ctx.clock.set('2026-12-10T10:00:00.000Z');
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const first = await share(headers, deck._id);
    ctx.clock.set(first.expires_at);
    const second = await share(headers, deck._id);
    expect(second.share_code).not.toBe(first.share_code);
    expect(second.expires_at).toBe('2026-12-16T10:00:00.000Z');
  });

  it.each(['0123456789abcdef01234567', 'xyz'])('answers 404 deck_not_found for %s', async (id) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await ctx.app.inject({ method: 'POST', url: `/decks/${id}/share`, headers });
    expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
  });

  it('needs a login', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/decks/0123456789abcdef01234567/share' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /shared/{code}', () => {
  it('is public and answers SharedDeckInfo', async () => {
    ctx.clock.set('2026-12-20T08:30:00.000Z');
    const { headers } = await owner('Marie Curie');
    const deck = await createDeck(ctx.app, headers, 'Radioactivity');
    await saveCards(ctx.app, headers, deck._id, 4);
    const { share_code } = await share(headers, deck._id);
    ctx.clock.advance(1000);

    const response = await ctx.app.inject({ method: 'GET', url: `/shared/${share_code}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      deck_name: 'Radioactivity',
      owner_name: 'Marie Curie',
      card_count: 4,
      shared_at: '2026-12-20T08:30:00.000Z',
      expires_at: '2026-12-23T08:30:00.000Z',
      preview: [1, 2, 3, 4].map((n) => ({ question: `Question ${n}`, answer: `Answer ${n}` })),
    });
  });

  it("previews the deck's first 20 cards in creation order, markdown and math as written, to anyone", async () => {
    const { headers } = await owner('Euler');
    const deck = await createDeck(ctx.app, headers, 'Analysis');
    const first = { question: '**Euler** says $e^{i\\pi} + 1 = ?$', answer: '$$0$$\n\n- a list <b>not html</b>' };
    await saveCards(ctx.app, headers, deck._id, [first]);
    ctx.clock.advance(1000);
    const more = Array.from({ length: 24 }, (_, index) => ({ question: `Later ${index}`, answer: `A${index}` }));
    await saveCards(ctx.app, headers, deck._id, more);
    const { share_code } = await share(headers, deck._id);

    const stranger = await signUpAndLogIn(ctx.app);
    for (const requestHeaders of [{}, stranger.headers]) {
      const response = await ctx.app.inject({ method: 'GET', url: `/shared/${share_code}`, headers: requestHeaders });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.card_count).toBe(25);
      expect(body.preview).toHaveLength(20);
      expect(body.preview[0]).toEqual(first);
      expect(body.preview.slice(1)).toEqual(more.slice(0, 19));
      // Only question and answer: no ids, schedules or the owner's review state.
      for (const card of body.preview) expect(Object.keys(card).sort()).toEqual(['answer', 'question']);
    }
  });

  it('previews nothing for an empty deck, and only the shared deck’s cards', async () => {
    const { headers } = await owner('Empty');
    const deck = await createDeck(ctx.app, headers, 'Empty');
    const other = await createDeck(ctx.app, headers, 'Other');
    await saveCards(ctx.app, headers, other._id, 3);
    const { share_code } = await share(headers, deck._id);
    const response = await ctx.app.inject({ method: 'GET', url: `/shared/${share_code}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ card_count: 0, preview: [] });
  });

  it('shows an owner without a name as Anonymous, never their email', async () => {
    const { headers } = await owner('');
    const deck = await createDeck(ctx.app, headers);
    const { share_code } = await share(headers, deck._id);
    const response = await ctx.app.inject({ method: 'GET', url: `/shared/${share_code}` });
    expect(response.json().owner_name).toBe(serverMessages.anonymousOwner);
  });

  it.each(['AAAAAAAAAAAAAAAAAAAAAA', 'no%20such%20code', 'x'.repeat(65)])(
    'answers 404 share_not_found for an unknown code %s',
    async (code) => {
      const response = await ctx.app.inject({ method: 'GET', url: `/shared/${code}` });
      expectError(response, 404, 'share_not_found', messages.shareNotFound);
    },
  );

  it('answers 410 share_expired once the link has expired, and 404 once the deck is deleted', async () => {
    ctx.clock.set('2027-01-01T00:00:00.000Z');
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const { share_code, expires_at } = await share(headers, deck._id);
    ctx.clock.set(expires_at);
    ctx.clock.advance(-1);
    expect((await ctx.app.inject({ method: 'GET', url: `/shared/${share_code}` })).statusCode).toBe(200);
    ctx.clock.advance(1);
    const expired = await ctx.app.inject({ method: 'GET', url: `/shared/${share_code}` });
    expectError(expired, 410, 'share_expired', messages.shareExpired);

    ctx.clock.set('2027-01-01T00:00:00.000Z');
    const login = await signUpAndLogIn(ctx.app);
    const deck2 = await createDeck(ctx.app, login.headers);
    const live = await share(login.headers, deck2._id);
    await ctx.app.inject({ method: 'DELETE', url: `/decks/${deck2._id}`, headers: login.headers });
    const gone = await ctx.app.inject({ method: 'GET', url: `/shared/${live.share_code}` });
    expectError(gone, 404, 'share_not_found', messages.shareNotFound);
  });
});

describe('POST /shared/{code}/import', () => {
  it('copies the deck and its cards into the caller’s account as new cards, without review history', async () => {
    ctx.clock.set('2027-02-01T10:00:00.000Z');
    const sharer = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, sharer.headers, 'Anatomy');
    const originals = await saveCards(ctx.app, sharer.headers, deck._id, [
      { question: 'Femur?', answer: 'Thigh bone' },
      { question: 'Tibia?', answer: 'Shin bone' },
      { question: 'Ulna?', answer: 'Forearm bone' },
    ]);
    await reviewCard(ctx.app, sharer.headers, originals[0]?._id ?? '', 'pass');
    await reviewCard(ctx.app, sharer.headers, originals[1]?._id ?? '', 'fail');
    const { share_code } = await share(sharer.headers, deck._id);

    ctx.clock.advance(60_000);
    const importer = await signUpAndLogIn(ctx.app);
    const response = await importShare(ctx.app, importer.headers, share_code);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['_id', 'name']);
    expect(body.name).toBe('Anatomy');
    expect(body._id).not.toBe(deck._id);

    const copy = await ctx.app.inject({ method: 'GET', url: `/decks/${body._id}`, headers: importer.headers });
    expect(copy.statusCode).toBe(200);
    const now = new Date(ctx.clock.now()).toISOString();
    expect(copy.json()).toMatchObject({ _id: body._id, name: 'Anatomy', daily_new_card_limit: 20, card_count: 3 });
    const copied = copy.json().flashcards as { _id: string; note_id: string }[];
    expect(copied.map(({ _id, note_id, ...rest }) => rest)).toEqual(
      originals.map((card) => ({
        deck_id: body._id,
        question: card.question,
        answer: card.answer,
        status: 'new',
        due_date: now,
        created_at: now,
        reps: 0,
        lapses: 0,
        card_type: 'basic',
        ord: 0,
        source: null,
      })),
    );
    for (const card of copied) expect(originals.map((original) => original._id)).not.toContain(card._id);
    // Each copy is in a basic note of its own, new to the importer.
    const copiedNotes = await ctx.database.db
      .selectFrom('notes')
      .select(['id', 'type'])
      .where('deck_id', '=', body._id)
      .orderBy('id')
      .execute();
    expect(copiedNotes.map((note) => note.id).sort()).toEqual(copied.map((card) => card.note_id).sort());
    expect(copiedNotes.map((note) => note.type)).toEqual(['basic', 'basic', 'basic']);
    for (const card of copied) expect(originals.map((original) => original.note_id)).not.toContain(card.note_id);
    const logs = await ctx.database.db.selectFrom('review_logs').select('id').where('deck_id', '=', body._id).execute();
    expect(logs).toHaveLength(0);
    // The owner's deck is untouched.
    const ownerCards = await ctx.database.db.selectFrom('cards').select('id').where('deck_id', '=', deck._id).execute();
    expect(ownerCards).toHaveLength(3);

    // The same share again: 409, and nothing more is copied.
    const again = await importShare(ctx.app, importer.headers, share_code);
    expectError(again, 409, 'already_imported', serverMessages.alreadyImported);
    const decks = await listDecks(importer.headers);
    expect(decks.json()).toHaveLength(1);

    // Deleting the copy allows importing it again.
    await ctx.app.inject({ method: 'DELETE', url: `/decks/${body._id}`, headers: importer.headers });
    const reimport = await importShare(ctx.app, importer.headers, share_code);
    expect(reimport.statusCode).toBe(201);
  });

  it('refuses to import your own deck with 409 already_imported', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const { share_code } = await share(headers, deck._id);
    const response = await importShare(ctx.app, headers, share_code);
    expectError(response, 409, 'already_imported', serverMessages.ownDeckImport);
    const decks = await listDecks(headers);
    expect(decks.json()).toHaveLength(1);
  });

  it('imports once when the same share is imported twice at the same moment', async () => {
    const sharer = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, sharer.headers);
    await saveCards(ctx.app, sharer.headers, deck._id, 3);
    const { share_code } = await share(sharer.headers, deck._id);
    const importer = await signUpAndLogIn(ctx.app);
    const responses = await Promise.all([1, 2, 3].map(() => importShare(ctx.app, importer.headers, share_code)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409]);
    const decks = await listDecks(importer.headers);
    expect(decks.json()).toHaveLength(1);
    expect(decks.json()[0].card_count).toBe(3);
  });

  it('answers 404 for an unknown code and 410 for an expired one, copying nothing', async () => {
    ctx.clock.set('2027-03-01T00:00:00.000Z');
    const sharer = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, sharer.headers);
    const { share_code, expires_at } = await share(sharer.headers, deck._id);
    const importer = await signUpAndLogIn(ctx.app);

    const unknown = await importShare(ctx.app, importer.headers, 'AAAAAAAAAAAAAAAAAAAAAA');
    expectError(unknown, 404, 'share_not_found', messages.shareNotFound);

    ctx.clock.set(expires_at);
    const expired = await importShare(ctx.app, importer.headers, share_code);
    expectError(expired, 410, 'share_expired', messages.shareExpired);
    const decks = await listDecks(importer.headers);
    expect(decks.json()).toEqual([]);
  });

  it('needs a login', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/shared/AAAAAAAAAAAAAAAAAAAAAA/import' });
    expect(response.statusCode).toBe(401);
  });
});
