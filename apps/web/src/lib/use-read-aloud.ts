import type { DeckTts } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { useCallback, useEffect, useState } from 'react';
import { detectLanguage } from './detect-language';
import { plainTextOf } from './plain-text';
import { speak, stopSpeaking } from './speech';

/** A deck's read-aloud setting (PUT /decks/{id}/settings `tts`): each side's BCP-47 language, and automatic reading. */
export type SpeechSettings = DeckTts;

export const noSpeechSettings: SpeechSettings = { question_lang: null, answer_lang: null, auto: false };

/** A deck's `tts` as the server sent it, or no setting. */
export function speechSettingsOf(deck: unknown): SpeechSettings {
  const tts = (deck as { tts?: Partial<SpeechSettings> | null } | null | undefined)?.tts;
  if (!tts || typeof tts !== 'object') return noSpeechSettings;
  const lang = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);
  return { question_lang: lang(tts.question_lang), answer_lang: lang(tts.answer_lang), auto: tts.auto === true };
}

const languageNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'language' });
  } catch {
    return null;
  }
})();

/** A language's name for people ("French"), or its tag when the browser cannot name it. */
export function languageName(lang: string): string {
  try {
    return languageNames?.of(lang) ?? lang;
  } catch {
    return lang;
  }
}

/** The languages a device was found to have no voice for (and "no speech at all"), said once per page load. */
const told = new Set<string>();

/**
 * Reading aloud for a card screen: `read` speaks a card side's text in its language, and `notice` says once per
 * language (and page load) that the device has no voice for it, or that the browser cannot speak at all.
 */
export function useReadAloud() {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => stopSpeaking, []);
  const read = useCallback(async (markdown: string, lang: string | null) => {
    const outcome = await speak(plainTextOf(markdown), lang);
    const key = outcome === 'no_voice' ? (lang ?? '') : outcome;
    if (outcome === 'spoken' || told.has(key)) return;
    told.add(key);
    setNotice(
      outcome === 'no_voice'
        ? fillMessage(studyMessages.speechNoVoice, { lang: languageName(lang ?? '') })
        : studyMessages.speechUnavailable,
    );
  }, []);
  return { read, notice };
}

/**
 * Each side's language: the deck's setting, else detected from the texts of that side (the cards at hand of the
 * deck), null while unknown.
 */
export function useSideLanguages(settings: SpeechSettings, questions: readonly string[], answers: readonly string[]) {
  const [detected, setDetected] = useState<{ question: string | null; answer: string | null }>({
    question: null,
    answer: null,
  });
  const questionKey = settings.question_lang ? '' : questions.join('\u0000');
  const answerKey = settings.answer_lang ? '' : answers.join('\u0000');
  useEffect(() => {
    let live = true;
    const split = (key: string) => (key ? key.split('\u0000') : []);
    void Promise.all([
      questionKey ? detectLanguage(split(questionKey)) : null,
      answerKey ? detectLanguage(split(answerKey)) : null,
    ]).then(([question, answer]) => {
      if (live) setDetected({ question, answer });
    });
    return () => {
      live = false;
    };
  }, [questionKey, answerKey]);
  return {
    question: settings.question_lang ?? detected.question,
    answer: settings.answer_lang ?? detected.answer,
  };
}
