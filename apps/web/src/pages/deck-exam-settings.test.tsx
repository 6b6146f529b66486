import { serverMessages } from '@flashcards/shared/server-messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type FakeCall, fakeServer, json } from '../../test/fake-server';
import { biologyDeck } from '../../test/fixtures';
import { renderApp, testUser } from '../../test/render-app';
import { localStore } from '../lib/local-store';
import { storageKeys } from '../lib/storage-keys';

const deckId = biologyDeck._id;
const settingsPath = `/decks/${deckId}/settings`;
const forecast = {
  exam_date: '2026-12-20',
  days_left: 24,
  predicted_recall: 0.734,
  cards_total: 300,
  cards_unstudied: 100,
  cards_at_risk: 42,
  new_per_day: 5,
};
type Routes = Parameters<typeof fakeServer>[0];
const puts = (calls: FakeCall[]) =>
  calls
    .filter((call) => call.method === 'PUT' && call.path === settingsPath)
    .map((call) => JSON.parse(call.body ?? ''));

async function openSettings(deck: object, routes: Routes = {}) {
  localStore.set(storageKeys.accessToken, 'token');
  let current = { ...biologyDeck, card_count: 300, ...deck };
  const server = fakeServer({
    'GET /users/me': () => json(200, testUser),
    'GET /decks': () => json(200, [current]),
    'GET /decks/stats': () => json(200, {}),
    [`GET /decks/${deckId}/stats`]: () => json(200, {}),
    [`PUT ${settingsPath}`]: (call) => {
      current = { ...current, ...JSON.parse(call.body ?? '{}') };
      return json(200, current);
    },
    ...routes,
  });
  renderApp('/review', server.fetch);
  // The first render loads the page's code, which a machine busy with other tests takes longer over.
  fireEvent.click(await screen.findByRole('button', { name: `Settings: ${biologyDeck.name}` }, { timeout: 50_000 }));
  return { calls: server.calls, dialog: screen.getByRole('dialog', { name: `Deck settings: ${biologyDeck.name}` }) };
}

const entry = (dialog: HTMLElement, label: string) => within(dialog).getByText(label).nextSibling?.textContent;

beforeEach(() => {
  localStorage.clear();
});

describe('deck settings: exam date and read aloud', { timeout: 90_000 }, () => {
  it('shows the forecast of a deck with an exam date: recall, cards at risk and the plan; clears the date', async () => {
    const { calls, dialog } = await openSettings(
      { exam_date: '2026-12-20' },
      { [`GET /decks/${deckId}/exam-forecast`]: () => json(200, forecast) },
    );
    expect(within(dialog).getByLabelText('Exam date')).toHaveValue('2026-12-20');
    expect(await within(dialog).findByText('Predicted recall on the exam day')).toBeInTheDocument();
    expect(entry(dialog, 'Predicted recall on the exam day')).toBe('73 %');
    expect(entry(dialog, 'Cards at risk')).toBe('42');
    expect(entry(dialog, 'Days left')).toBe('24');
    expect(entry(dialog, 'Plan')).toBe('5 new cards a day to see every card before the exam.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear exam date' }));
    expect(await within(dialog).findByText(studyMessages.examDateCleared)).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ exam_date: null }]);
    await waitFor(() => expect(within(dialog).getByText(studyMessages.examDateNone)).toBeInTheDocument());
    expect(within(dialog).getByLabelText('Exam date')).toHaveValue('');
  });

  it("sets a date; a past one gets the server's message", async () => {
    let refuse = true;
    const { calls, dialog } = await openSettings(
      {},
      {
        [`PUT ${settingsPath}`]: (call) =>
          refuse
            ? json(422, { detail: serverMessages.examDateInPast, code: 'validation_failed' })
            : json(200, { ...biologyDeck, ...JSON.parse(call.body ?? '{}') }),
      },
    );
    expect(within(dialog).getByText(studyMessages.examDateNone)).toBeInTheDocument();
    const field = within(dialog).getByLabelText('Exam date');
    fireEvent.change(field, { target: { value: '2020-01-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save exam date' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The exam date cannot be in the past. Choose today or a later day.',
    );
    refuse = false;
    fireEvent.change(field, { target: { value: '2030-06-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save exam date' }));
    expect(await within(dialog).findByText(studyMessages.examDateSaved)).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ exam_date: '2020-01-01' }, { exam_date: '2030-06-01' }]);
  });

  it("saves each side's language (or detection) and automatic reading", async () => {
    const { calls, dialog } = await openSettings({ tts: { question_lang: 'fr', answer_lang: null, auto: false } });
    const question = within(dialog).getByLabelText('Question language');
    expect(question).toHaveValue('fr');
    expect(within(dialog).getByLabelText('Answer language')).toHaveValue('');
    fireEvent.change(within(dialog).getByLabelText('Answer language'), { target: { value: 'ja' } });
    fireEvent.change(question, { target: { value: '' } });
    fireEvent.click(within(dialog).getByLabelText('Read each side aloud when it shows'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save read aloud' }));
    expect(await within(dialog).findByText(studyMessages.ttsSaved)).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ tts: { question_lang: null, answer_lang: 'ja', auto: true } }]);
  });
});
