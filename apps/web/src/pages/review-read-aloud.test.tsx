import type { DueCard } from '@flashcards/shared/api-types';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '../../test/fake-server';
import { biologyDeck } from '../../test/fixtures';
import { renderApp, testUser } from '../../test/render-app';
import { localStore } from '../lib/local-store';
import { storageKeys } from '../lib/storage-keys';

const deckId = biologyDeck._id;
const past = new Date(Date.now() - 3_600_000).toISOString();
const soon = new Date(Date.now() + 600_000).toISOString();
const card = (id: string, question: string, answer: string): DueCard => ({
  _id: id,
  source: null,
  deck_id: deckId,
  question,
  answer,
  status: 'due',
  due_date: past,
  created_at: past,
  reps: 3,
  lapses: 0,
  note_id: id,
  card_type: 'basic',
  ord: 0,
  next_due: { pass: soon, fail: soon },
  last_review: null,
});

/** A stand-in for the browser's speech synthesis with the given voices: what it was asked to say, in which voice. */
function stubSpeech(voiceLangs: string[]) {
  const spoken: { text: string; lang: string }[] = [];
  const voices = voiceLangs.map((lang) => ({ lang, name: lang }) as SpeechSynthesisVoice);
  class Utterance {
    text: string;
    lang = '';
    voice: SpeechSynthesisVoice | null = null;
    constructor(text: string) {
      this.text = text;
    }
  }
  vi.stubGlobal('SpeechSynthesisUtterance', Utterance);
  vi.stubGlobal('speechSynthesis', {
    getVoices: () => voices,
    speak: (utterance: Utterance) => spoken.push({ text: utterance.text, lang: utterance.lang }),
    cancel: () => {},
    addEventListener: () => {},
  });
  return spoken;
}

function start(tts: unknown, cards: DueCard[]) {
  localStore.set(storageKeys.accessToken, 'token');
  const deck = { ...biologyDeck, card_count: cards.length, tts };
  const server = fakeServer({
    'GET /users/me': () => json(200, testUser),
    'GET /decks': () => json(200, [deck]),
    'GET /decks/stats': () => json(200, {}),
    [`GET /decks/${deckId}/stats`]: () => json(200, {}),
    'GET /cards/due': () => json(200, cards),
  });
  renderApp('/review', server.fetch);
}

async function openSession(question: string) {
  // The first render loads the page's code, which a machine busy with other tests takes longer over.
  fireEvent.click(await screen.findByRole('button', { name: `Review Deck: ${biologyDeck.name}` }, { timeout: 50_000 }));
  await screen.findByText(question);
}

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('review: read aloud', { timeout: 90_000 }, () => {
  it("reads each side in the deck's language; without a voice for one it says so once and reads nothing", async () => {
    const spoken = stubSpeech(['fr-FR', 'de-DE']);
    start({ question_lang: 'fr', answer_lang: 'it', auto: false }, [
      card('c1aaaaaaaaaaaaaaaaaaaaaa', 'le chat noir', 'il gatto'),
    ]);
    await openSession('le chat noir');
    fireEvent.click(screen.getByRole('button', { name: 'Read the question aloud' }));
    await waitFor(() => expect(spoken).toEqual([{ text: 'le chat noir', lang: 'fr-FR' }]));
    // The speaker does not flip the card.
    expect(screen.queryByText('il gatto')).toBeNull();
    fireEvent.keyDown(document.body, { key: ' ', code: 'Space' });
    fireEvent.click(await screen.findByRole('button', { name: 'Read the answer aloud' }));
    expect(
      await screen.findByText('This device has no voice for Italian, so it is not read aloud.'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Read the answer aloud' }));
    expect(screen.getAllByText(/no voice for Italian/)).toHaveLength(1);
    expect(spoken).toHaveLength(1);
  });

  it('reads automatically when the deck says so, in the language detected from its cards', async () => {
    const spoken = stubSpeech(['en-US', 'ja-JP']);
    start({ question_lang: null, answer_lang: 'en-US', auto: true }, [
      card('c1aaaaaaaaaaaaaaaaaaaaaa', 'ねこ', 'cat'),
      card('c2aaaaaaaaaaaaaaaaaaaaaa', 'いぬ', 'dog'),
    ]);
    await openSession('ねこ');
    await waitFor(() => expect(spoken).toContainEqual({ text: 'ねこ', lang: 'ja-JP' }));
    fireEvent.keyDown(document.body, { key: ' ', code: 'Space' });
    await waitFor(() => expect(spoken.at(-1)).toEqual({ text: 'cat', lang: 'en-US' }));
  });

  it('without a setting or automatic reading, nothing is read until asked', async () => {
    const spoken = stubSpeech(['en-US']);
    start(undefined, [card('c1aaaaaaaaaaaaaaaaaaaaaa', 'Powerhouse of the cell?', 'The mitochondria')]);
    await openSession('Powerhouse of the cell?');
    expect(spoken).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Read the question aloud' }));
    await waitFor(() => expect(spoken).toHaveLength(1));
  });
});
