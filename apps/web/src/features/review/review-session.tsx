import type { AnswerCheck, ReviewResult } from '@flashcards/shared/api-types';
import { idOf } from '@flashcards/shared/ids';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { formatNextDue } from '@flashcards/shared/next-due';
import { studyMessages } from '@flashcards/shared/study-messages';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { renderCardTextsAhead } from '../../components/card-markdown';
import { Notice } from '../../components/notice';
import { useCheckAnswer } from '../../lib/answer-check';
import { errorCode } from '../../lib/api-client';
import { useDeckStats, useDecks } from '../../lib/decks-api';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';
import { useCardShortcuts } from '../../lib/use-card-shortcuts';
import { speechSettingsOf, useReadAloud, useSideLanguages } from '../../lib/use-read-aloud';
import type { AnswerOp } from './answer-queue';
import { CardSourceControl } from './card-source';
import { gradeLabel } from './interval-label';
import { NextDueLine } from './next-due-line';
import { ProgressDial } from './progress-dial';
import { useAnswerQueue, useRefreshDeckData, useReviewQueue, useSchedulingParameters } from './review-api';
import {
  answerCurrent,
  answerRecorded,
  learnAheadMs,
  nextReturn,
  pickNext,
  remainingCounts,
  type SessionQueue,
  startSession,
  studyAhead,
  undoLast,
} from './session-queue';
import { type CardSide, LeavingCard, SwipeCard } from './swipe-card';
import { TypedAnswerForm, TypedVerdict } from './typed-answer';
import './review.css';

/** The answered card flies off over the next one for this long (the specification's 300 ms). */
export const answerAnimationMs = 300;

export interface ReviewTarget {
  /** null: every deck. */
  deckId: string | null;
  name: string;
}

/** A review session of one deck (or all), restarted afresh by Start New Review. */
export function ReviewSession({ target, onBack }: { target: ReviewTarget; onBack: () => void }) {
  const [session, setSession] = useState(1);
  return (
    <SessionRun
      key={session}
      session={session}
      target={target}
      onBack={onBack}
      onRestart={() => setSession((n) => n + 1)}
    />
  );
}

interface SessionRunProps {
  session: number;
  target: ReviewTarget;
  onBack: () => void;
  onRestart: () => void;
}

interface Leaving {
  /** Tells apart two fly-outs of the same card. */
  key: number;
  /** A copy of the answered card's content as it was on screen. */
  content: HTMLElement;
  result: ReviewResult;
  fromX: number;
}

const reducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

function SessionRun({ session, target, onBack, onRestart }: SessionRunProps) {
  const fetched = useReviewQueue(target.deckId, session);
  const stats = useDeckStats(target.deckId ?? undefined);
  const refresh = useRefreshDeckData();
  const decks = useDecks();
  const parametersFor = useSchedulingParameters();
  const [queue, setQueue] = useState<SessionQueue | null>(null);
  if (queue === null && fetched.data) setQueue(startSession(fetched.data, Date.now()));
  const [flipped, setFlipped] = useState(false);
  const [sourceOpen, setSourceOpen] = useState(false);
  const [leaving, setLeaving] = useState<Leaving | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // "Type the answer": kept on this device, so that the next session asks the same way.
  const [typing, setTyping] = useState(() => localStore.get(storageKeys.typeAnswers) === 'on');
  const [check, setCheck] = useState<AnswerCheck | null>(null);
  const checker = useCheckAnswer();
  const suggestionId = useId();

  const answers = useAnswerQueue({
    onAnswered: (answerId, response) =>
      setQueue((before) => before && answerRecorded(before, answerId, response.card, Date.now())),
    onDropped: (op: AnswerOp, error) => {
      const code = errorCode(error);
      if (op.kind === 'undo') setNotice(code === 'nothing_to_undo' ? messages.undoNothing : messages.undoFailed);
      else setNotice(code === 'card_not_found' ? messages.reviewAnswerDropped : messages.reviewUpdateFailed);
    },
    cardOf: (cardId) => fetched.data?.find((card) => card._id === cardId),
    parametersOf: (card) => parametersFor(decks.data?.find((deck) => deck._id === card.deck_id)?.desired_retention),
  });

  const leavingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const liveCard = useRef<HTMLDivElement>(null);
  useEffect(
    () => () => {
      if (leavingTimer.current) clearTimeout(leavingTimer.current);
    },
    [],
  );

  const current = queue?.current ?? null;
  const shownCardId = useRef<string | null>(null);
  shownCardId.current = current ? current.card._id : null;
  // The source belongs to the answer side of the card shown: it closes when the card turns back or another comes.
  const sourceCard = current && flipped && current.card.source ? current.card : null;
  const sourceShown = sourceOpen && sourceCard !== null;
  useEffect(() => {
    if (!flipped) setSourceOpen(false);
  }, [flipped]);

  // Read aloud: the current card's deck says each side's language (or its cards in this session tell it).
  const cardDeckId = current?.card.deck_id ?? target.deckId;
  const speech = speechSettingsOf(decks.data?.find((deck) => deck._id === cardDeckId));
  const deckCards = (fetched.data ?? []).filter((card) => card.deck_id === cardDeckId);
  const languages = useSideLanguages(
    speech,
    deckCards.map((card) => card.question),
    deckCards.map((card) => card.answer),
  );
  const readAloud = useReadAloud();
  const { read } = readAloud;
  const speakSide = (side: CardSide) => {
    if (current) void read(current.card[side], languages[side]);
  };
  // Automatic reading: the question when a card shows, the answer when it flips.
  const autoText = current && speech.auto ? (flipped ? current.card.answer : current.card.question) : null;
  const autoLang = flipped ? languages.answer : languages.question;
  useEffect(() => {
    if (autoText !== null) void read(autoText, autoLang);
  }, [autoText, autoLang, read]);
  // The card after this one is rendered while the learner reads this one, so that an answer shows it at once.
  const upcoming = queue ? (queue.main[0] ?? queue.learning[0] ?? null) : null;
  const upcomingCard = upcoming?.card ?? null;
  useEffect(() => {
    if (!upcomingCard) return;
    const texts = [upcomingCard.question, upcomingCard.answer];
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => renderCardTextsAhead(texts), { timeout: 1_000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => renderCardTextsAhead(texts), 0);
    return () => clearTimeout(timer);
  }, [upcomingCard]);
  const ended = queue !== null && current === null;
  const comesBackAt = queue ? nextReturn(queue) : null;

  // Past the end, a card of this session that comes back is shown once it is within the learn-ahead.
  useEffect(() => {
    if (!ended || comesBackAt === null) return;
    const timer = setTimeout(
      () => setQueue((before) => before && pickNext(before, Date.now())),
      Math.max(0, comesBackAt - learnAheadMs - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [ended, comesBackAt]);

  // Once the session is over and its answers are all in, the statistics (and the deck list's counts) are fetched.
  const { queue: answerQueue } = answers;
  useEffect(() => {
    if (!ended) return;
    let live = true;
    void answerQueue.idle().then(() => {
      if (live) void refresh();
    });
    return () => {
      live = false;
    };
  }, [ended, answerQueue, refresh]);

  function answer(result: ReviewResult, fromX = 0) {
    if (!queue || !current) return;
    const cardId = idOf(current.card);
    if (typeof cardId !== 'string' || !cardId) {
      setNotice(messages.cardIdMissing);
      return;
    }
    setNotice(null);
    const typed = check ? { typed: check.typed, verdict: check.verdict } : undefined;
    setCheck(null);
    const answerId = answerQueue.answer(cardId, result, typed);
    setQueue(answerCurrent(queue, result, answerId, Date.now()));
    const shown = liveCard.current?.querySelector('.swipe-card__faces');
    if (shown && !reducedMotion()) {
      // A copy of what is on screen, not a second render: the outgoing card costs no markdown or math work.
      setLeaving({ key: answerId, content: shown.cloneNode(true) as HTMLElement, result, fromX });
      if (leavingTimer.current) clearTimeout(leavingTimer.current);
      leavingTimer.current = setTimeout(() => setLeaving(null), answerAnimationMs);
    }
    setFlipped(false);
  }

  /** Takes back the latest answer: still queued, it is dropped; already sent, an undo request follows it. */
  function undo() {
    if (!queue) return;
    const { queue: after, undone } = undoLast(queue);
    if (!undone) {
      setNotice(messages.undoNothing);
      return;
    }
    const outcome = answerQueue.takeBack(undone.answerId);
    setNotice(null);
    setCheck(null);
    setLeaving(null);
    setFlipped(false);
    // The server undoes only a card's latest answer: once that one is taken back, its earlier ones stay.
    const cardId = undone.before.card._id;
    setQueue(
      outcome === 'undo_queued'
        ? { ...after, answered: after.answered.filter((item) => item.before.card._id !== cardId) }
        : after,
    );
  }

  /** A new session once this one's answers are in, so that the new queue does not offer them again. */
  function restart() {
    if (answers.failed) onRestart();
    else void answerQueue.idle().then(onRestart);
  }

  const flip = () => {
    if (current) setFlipped((side) => !side);
  };

  /** Checks the typed answer, then shows the card's answer with the verdict; a failed check leaves the grade to the learner. */
  async function checkTyped(typed: string) {
    const card = current?.card;
    const cardId = card ? idOf(card) : null;
    if (!card || typeof cardId !== 'string' || !cardId) return;
    setNotice(null);
    try {
      const result = await checker.mutateAsync({ cardId, typed });
      // The learner may have moved on while the check was on its way.
      if (shownCardId.current !== cardId) return;
      setCheck(result);
    } catch {
      if (shownCardId.current !== cardId) return;
      setNotice(studyMessages.typedAnswerCheckFailed);
    }
    setFlipped(true);
  }

  function toggleTyping(on: boolean) {
    setTyping(on);
    localStore.set(storageKeys.typeAnswers, on ? 'on' : 'off');
  }

  // Keyboard: Space flips, A is don't know, D is know it, U undoes the last answer.
  useCardShortcuts(queue !== null, {
    a: () => answer('fail'),
    d: () => answer('pass'),
    space: flip,
    u: undo,
    s: () => {
      if (sourceCard) setSourceOpen((open) => !open);
    },
    enter: () => {
      if (check) answer(check.suggested_result);
    },
  });

  const headingId = `review-session-${session}`;
  // The deck list (and the button that started the session) is gone: focus moves to the session's heading.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const answeredCount = queue?.answered.length ?? 0;
  const undoButton = answeredCount > 0 && (
    <button
      type="button"
      className="button button--secondary review-actions__undo"
      aria-keyshortcuts="U"
      onClick={undo}
    >
      {messages.undoAnswer}{' '}
      <span className="kbd" aria-hidden="true">
        U
      </span>
    </button>
  );
  const backButton = (
    <button type="button" className="button button--secondary" onClick={onBack}>
      {messages.reviewBackToDecks}
    </button>
  );
  const notices = (
    <>
      {answers.failed && (
        <Notice tone="error" className="review-save-failed">
          {messages.reviewAnswersNotSaved}{' '}
          <button type="button" className="button button--secondary" onClick={() => answerQueue.retry()}>
            {messages.reviewRetrySaving}
          </button>
        </Notice>
      )}
      {notice && <Notice tone="error">{notice}</Notice>}
      {readAloud.notice && <Notice tone="info">{readAloud.notice}</Notice>}
    </>
  );
  const tally = queue?.tally ?? { pass: 0, fail: 0 };

  let body: ReactNode;
  if (fetched.isError) {
    body = <Notice tone="error">{messages.reviewQueueLoadFailed}</Notice>;
  } else if (queue === null) {
    body = <p role="status">{messages.loading}</p>;
  } else if (current === null && answeredCount === 0 && comesBackAt === null) {
    body = (
      <div className="review-end" role="status">
        <h3>{messages.noCardsToReview}</h3>
        <NextDueLine stats={stats.data} />
      </div>
    );
  } else if (current === null) {
    const later = queue.learning.length;
    body = (
      <div className="review-end">
        {comesBackAt === null ? (
          <div role="status">
            <h3>{messages.reviewCompleted}</h3>
          </div>
        ) : (
          <p role="status" className="review-next-due">
            {fillMessage(later === 1 ? messages.reviewSessionLaterOne : messages.reviewSessionLater, {
              count: later,
              when: formatNextDue(comesBackAt),
            })}
          </p>
        )}
        <SessionStats reviewed={tally.pass + tally.fail} pass={tally.pass} fail={tally.fail} />
        {notices}
        {answers.pending > 0 && !answers.failed && <p className="muted">{messages.reviewAnswersSaving}</p>}
        {undoButton}
        {comesBackAt === null && answers.pending === 0 && (
          <>
            <NextDueLine stats={stats.isFetching ? undefined : stats.data} />
            {stats.data && !stats.isFetching && (
              <p className="muted">
                {fillMessage(messages.reviewReviewedToday, { n: stats.data.cards_reviewed_today })}
              </p>
            )}
          </>
        )}
        {comesBackAt !== null && (
          <button
            type="button"
            className="button"
            onClick={() => setQueue((before) => before && studyAhead(before, Date.now()))}
          >
            {messages.reviewKeepGoing}
          </button>
        )}
        <button type="button" className="button" onClick={restart}>
          {messages.reviewStartNew}
        </button>
      </div>
    );
  } else {
    const counts = remainingCounts(queue);
    const intervals = current.intervals;
    body = (
      <>
        <div className="review-status">
          <ProgressDial done={answeredCount} total={answeredCount + counts.new + counts.learning + counts.due} />
          <dl className="session-counts" aria-label={messages.reviewCountsLabel}>
            <div className="session-counts__item session-counts__item--new">
              <dt>{messages.reviewCountNew}</dt>
              <dd>{counts.new}</dd>
            </div>
            <div className="session-counts__item session-counts__item--learning">
              <dt>{messages.reviewCountLearning}</dt>
              <dd>{counts.learning}</dd>
            </div>
            <div className="session-counts__item session-counts__item--due">
              <dt>{messages.reviewCountDue}</dt>
              <dd>{counts.due}</dd>
            </div>
          </dl>
        </div>
        <div className="review-stage" aria-live="polite">
          <SwipeCard
            key={`${answeredCount}-${current.card._id}`}
            card={current.card}
            flipped={flipped}
            onFlip={flip}
            onAnswer={answer}
            cardRef={liveCard}
            onSpeak={speakSide}
          />
          {leaving && (
            <LeavingCard key={leaving.key} content={leaving.content} result={leaving.result} fromX={leaving.fromX} />
          )}
        </div>
        {sourceCard && (
          <CardSourceControl
            key={`${answeredCount}-${sourceCard._id}`}
            card={sourceCard}
            open={sourceShown}
            onOpenChange={setSourceOpen}
            shortcut="S"
          />
        )}
        {typing && !flipped && !check && (
          <TypedAnswerForm key={`${answeredCount}-${current.card._id}`} busy={checker.isPending} onCheck={checkTyped} />
        )}
        {check && <TypedVerdict check={check} id={suggestionId} />}
        {notices}
        <div className="review-actions">
          <GradeButton
            result="fail"
            shortcut="A"
            interval={intervals?.fail ?? null}
            onAnswer={answer}
            suggestedBy={check?.suggested_result === 'fail' ? suggestionId : undefined}
          />
          <button
            type="button"
            className="button button--secondary review-actions__flip"
            aria-keyshortcuts="Space"
            onClick={flip}
          >
            {flipped ? messages.reviewHideAnswer : messages.reviewShowAnswer}
          </button>
          <GradeButton
            result="pass"
            shortcut="D"
            interval={intervals?.pass ?? null}
            onAnswer={answer}
            suggestedBy={check?.suggested_result === 'pass' ? suggestionId : undefined}
          />
        </div>
        {undoButton && <div className="review-undo">{undoButton}</div>}
        <p className="review-hint review-hint--keys muted">
          {typing ? studyMessages.typedAnswerHintKeys : messages.reviewHintKeys}
        </p>
        <p className="review-hint review-hint--touch muted">{messages.reviewHintTouch}</p>
        <SessionStats reviewed={tally.pass + tally.fail} pass={tally.pass} fail={tally.fail} />
      </>
    );
  }

  return (
    <section className="review-session" aria-labelledby={headingId}>
      <div className="review-session__top">
        {backButton}
        <h2 id={headingId} className="review-session__title" ref={headingRef} tabIndex={-1}>
          {target.name}
        </h2>
        <label className="review-session__typing">
          <input type="checkbox" checked={typing} onChange={(event) => toggleTyping(event.target.checked)} />{' '}
          {studyMessages.typeAnswerToggle}
        </label>
      </div>
      {body}
    </section>
  );
}

/** A grade's button: its label names the interval it schedules, its key is shown beside it. */
function GradeButton({
  result,
  shortcut,
  interval,
  onAnswer,
  suggestedBy,
}: {
  result: ReviewResult;
  shortcut: string;
  interval: number | null;
  onAnswer: (result: ReviewResult) => void;
  /** The id of the text suggesting this grade for a typed answer. */
  suggestedBy?: string | undefined;
}) {
  return (
    <button
      type="button"
      className={`button review-actions__${result}${suggestedBy ? ' review-actions__suggested' : ''}`}
      aria-describedby={suggestedBy}
      aria-keyshortcuts={suggestedBy ? `${shortcut} Enter` : shortcut}
      onClick={() => onAnswer(result)}
    >
      {gradeLabel(result, interval)}{' '}
      <span className="kbd" aria-hidden="true">
        {shortcut}
      </span>
    </button>
  );
}

function SessionStats({ reviewed, pass, fail }: { reviewed: number; pass: number; fail: number }) {
  return (
    <dl className="session-stats" aria-label={messages.reviewSessionStatsLabel}>
      <div>
        <dt>{messages.reviewStatReviewed}</dt>
        <dd>{reviewed}</dd>
      </div>
      <div>
        <dt>{messages.reviewStatKnew}</dt>
        <dd>{pass}</dd>
      </div>
      <div>
        <dt>{messages.reviewStatDidNotKnow}</dt>
        <dd>{fail}</dd>
      </div>
    </dl>
  );
}
