import { fillMessage, messages } from '@flashcards/shared/messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { type FormEvent, useId, useState } from 'react';
import { Notice } from '../../components/notice';
import { StatsList } from '../../components/stats-list';
import { errorDetail } from '../../lib/api-client';
import { languageName, type SpeechSettings, speechSettingsOf } from '../../lib/use-read-aloud';
import { examDateOf, useExamForecast, useSaveStudySettings } from './exam-api';

/** The languages offered for reading aloud (BCP-47), beside "detect from the cards". */
const speechLanguages = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'tr',
  'ru',
  'el',
  'ar',
  'he',
  'hi',
  'th',
  'zh',
  'ja',
  'ko',
  'vi',
];

/**
 * A deck's exam date, with the forecast for the exam day (predicted recall, cards at risk, the new cards a day to
 * see every card first), and its read-aloud setting: each side's language and automatic reading.
 */
export function ExamSettings({ deck }: { deck: { _id: string } }) {
  return (
    <>
      <ExamDate deckId={deck._id} examDate={examDateOf(deck)} />
      <ReadAloudSettings deckId={deck._id} settings={speechSettingsOf(deck)} />
    </>
  );
}

function ExamDate({ deckId, examDate }: { deckId: string; examDate: string | null }) {
  const fieldId = useId();
  const [date, setDate] = useState(examDate ?? '');
  const [done, setDone] = useState<string | null>(null);
  const save = useSaveStudySettings(deckId);
  const forecast = useExamForecast(deckId, examDate !== null);

  const send = (value: string | null) => {
    setDone(null);
    save.mutate(
      { exam_date: value },
      {
        onSuccess: () => {
          setDone(value ? studyMessages.examDateSaved : studyMessages.examDateCleared);
          if (!value) setDate('');
        },
      },
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (date) send(date);
  };

  const data = forecast.data;
  return (
    <section className="exam-settings" aria-labelledby={`${fieldId}-heading`}>
      <h3 id={`${fieldId}-heading`} className="deck-settings__heading">
        {studyMessages.examHeading}
      </h3>
      <form className="form exam-settings__form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={fieldId}>{studyMessages.examDateLabel}</label>
          <input
            id={fieldId}
            type="date"
            value={date}
            onChange={(event) => {
              setDate(event.target.value);
              setDone(null);
              save.reset();
            }}
          />
        </div>
        <div className="form__actions">
          <button type="submit" className="button" disabled={save.isPending || !date}>
            {studyMessages.examDateSave}
          </button>
          {examDate && (
            <button
              type="button"
              className="button button--secondary"
              disabled={save.isPending}
              onClick={() => send(null)}
            >
              {studyMessages.examDateClear}
            </button>
          )}
        </div>
      </form>
      {done && <Notice tone="success">{done}</Notice>}
      {save.isError && <Notice tone="error">{errorDetail(save.error, studyMessages.examDateSaveFailed)}</Notice>}
      {!examDate ? (
        <p className="muted">{studyMessages.examDateNone}</p>
      ) : forecast.isError ? (
        <Notice tone="error">{studyMessages.examForecastLoadFailed}</Notice>
      ) : !data ? (
        <p>{messages.loading}</p>
      ) : (
        <StatsList
          entries={[
            [studyMessages.examDaysLeft, data.days_left],
            [studyMessages.examPredictedRecall, `${Math.round(data.predicted_recall * 100)} %`],
            [studyMessages.examCardsAtRisk, data.cards_at_risk],
            [studyMessages.examCardsUnstudied, data.cards_unstudied],
            [
              studyMessages.examPlan,
              data.cards_unstudied === 0
                ? studyMessages.examPlanDone
                : fillMessage(studyMessages.examPlanNewCards, { n: data.new_per_day }),
            ],
          ]}
        />
      )}
    </section>
  );
}

function ReadAloudSettings({ deckId, settings }: { deckId: string; settings: SpeechSettings }) {
  const baseId = useId();
  const [question, setQuestion] = useState(settings.question_lang ?? '');
  const [answer, setAnswer] = useState(settings.answer_lang ?? '');
  const [auto, setAuto] = useState(settings.auto);
  const save = useSaveStudySettings(deckId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ tts: { question_lang: question || null, answer_lang: answer || null, auto } });
  };
  const options = (current: string) => {
    const tags = current && !speechLanguages.includes(current) ? [current, ...speechLanguages] : speechLanguages;
    return [
      <option key="" value="">
        {studyMessages.ttsDetect}
      </option>,
      ...tags.map((tag) => (
        <option key={tag} value={tag}>
          {languageName(tag)}
        </option>
      )),
    ];
  };
  return (
    <section className="exam-settings" aria-labelledby={`${baseId}-heading`}>
      <h3 id={`${baseId}-heading`} className="deck-settings__heading">
        {studyMessages.ttsHeading}
      </h3>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${baseId}-q`}>{studyMessages.ttsQuestionLang}</label>
          <select id={`${baseId}-q`} value={question} onChange={(event) => setQuestion(event.target.value)}>
            {options(question)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${baseId}-a`}>{studyMessages.ttsAnswerLang}</label>
          <select id={`${baseId}-a`} value={answer} onChange={(event) => setAnswer(event.target.value)}>
            {options(answer)}
          </select>
        </div>
        <label className="exam-settings__check">
          <input type="checkbox" checked={auto} onChange={(event) => setAuto(event.target.checked)} />{' '}
          {studyMessages.ttsAuto}
        </label>
        {save.isSuccess && <Notice tone="success">{studyMessages.ttsSaved}</Notice>}
        {save.isError && <Notice tone="error">{errorDetail(save.error, studyMessages.ttsSaveFailed)}</Notice>}
        <div className="form__actions">
          <button type="submit" className="button" disabled={save.isPending}>
            {studyMessages.ttsSave}
          </button>
        </div>
      </form>
    </section>
  );
}
