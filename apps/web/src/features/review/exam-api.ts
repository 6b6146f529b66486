import type { ExamForecast } from '@flashcards/shared/api-types';
import { useApiGet, useApiMutation } from '../../lib/api-hooks';
import { deckKeys } from '../../lib/decks-api';
import type { SpeechSettings } from '../../lib/use-read-aloud';

/** The study-mode part of PUT /decks/{id}/settings: the exam date (null clears it) and reading aloud. */
export interface StudySettingsUpdate {
  exam_date?: string | null;
  tts?: SpeechSettings;
}

const forecastKey = (deckId: string) => [...deckKeys.deck(deckId), 'exam-forecast'] as const;

/** The deck's exam forecast, asked only while the deck has an exam date. */
export function useExamForecast(deckId: string, hasExamDate: boolean) {
  return useApiGet<ExamForecast>(
    forecastKey(deckId),
    hasExamDate ? `/decks/${encodeURIComponent(deckId)}/exam-forecast` : null,
  );
}

/** PUT /decks/{id}/settings with the exam date or the read-aloud setting; the deck list and forecast follow. */
export function useSaveStudySettings(deckId: string) {
  return useApiMutation(
    (api, settings: StudySettingsUpdate) =>
      api.request<unknown>(`/decks/${encodeURIComponent(deckId)}/settings`, { method: 'PUT', json: settings }),
    [deckKeys.all],
  );
}

/** The deck's exam date (YYYY-MM-DD) as the server sent it, or null. */
export function examDateOf(deck: unknown): string | null {
  const value = (deck as { exam_date?: unknown } | null | undefined)?.exam_date;
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}
