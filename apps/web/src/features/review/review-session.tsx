import type { Card, ReviewResult } from '@flashcards/shared/api-types';
import { idOf } from '@flashcards/shared/ids';
import { messages } from '@flashcards/shared/messages';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { errorCode } from '../../lib/api-client';
import { useUndoReview } from '../cards/cards-api';
import { useDeckStats } from '../decks/decks-api';
import { NextDueLine } from './next-due-line';
import { ProgressDial } from './progress-dial';
import { useRefreshDeckData, useReviewCard, useReviewQueue } from './review-api';
import { sessionCounts } from './session-counts';
import { SwipeCard } from './swipe-card';
import './review.css';
import { Notice } from '../../components/notice';
import { useCardShortcuts } from '../../lib/use-card-shortcuts';

/** The card flies out for this long before its answer is sent. */
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

function SessionRun({ session, target, onBack, onRestart }: SessionRunProps) {
  const queue = useReviewQueue(target.deckId, session);
  const stats = useDeckStats(target.deckId ?? undefined);
  const review = useReviewCard();
  const refresh = useRefreshDeckData();
  // The session keeps the queue it started with.
  const [cards, setCards] = useState<Card[] | null>(null);
  if (cards === null && queue.data) setCards(queue.data);
  const [position, setPosition] = useState(0);
  const [flipped, setFlipped] = useState(false);
  const [leaving, setLeaving] = useState<ReviewResult | null>(null);
  const [tally, setTally] = useState({ pass: 0, fail: 0 });
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The answers of this session that can still be taken back, the latest last.
  const [answered, setAnswered] = useState<{ at: number; cardId: string; result: ReviewResult }[]>([]);
  const undoReview = useUndoReview();

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const current = cards?.[position];
  const total = cards?.length ?? 0;
  const done = cards !== null && position >= total;

  async function send(card: Card, at: number, result: ReviewResult) {
    timer.current = null;
    const id = idOf(card);
    if (typeof id !== 'string' || !id) {
      setError(messages.cardIdMissing);
      setLeaving(null);
      return;
    }
    try {
      await review.mutateAsync({ cardId: id, result });
    } catch {
      setError(messages.reviewUpdateFailed);
      setLeaving(null);
      return;
    }
    setTally((before) => ({ ...before, [result]: before[result] + 1 }));
    setAnswered((before) => [...before, { at, cardId: id, result }]);
    setFlipped(false);
    setLeaving(null);
    setPosition(at + 1);
    // After the last card the statistics refresh.
    if (at + 1 >= total) void refresh();
  }

  function answer(result: ReviewResult) {
    if (!current || leaving || review.isPending) return;
    setError(null);
    setLeaving(result);
    const at = position;
    timer.current = setTimeout(() => void send(current, at, result), answerAnimationMs);
  }

  /** Takes back the latest answer (POST /cards/{id}/undo-review): its card comes back, as it was, to answer again. */
  async function undo() {
    const last = answered.at(-1);
    if (!last || leaving || review.isPending || undoReview.isPending) return;
    setError(null);
    try {
      const { card } = await undoReview.mutateAsync(last.cardId);
      setCards((before) => (before ? before.map((item, index) => (index === last.at ? card : item)) : before));
      setTally((before) => ({ ...before, [last.result]: Math.max(0, before[last.result] - 1) }));
      setPosition(last.at);
      setFlipped(false);
      void refresh();
    } catch (caught) {
      // Already undone (or never recorded), or the card was deleted meanwhile: either way the answer is dropped.
      const code = errorCode(caught);
      if (code !== 'nothing_to_undo' && code !== 'card_not_found') {
        setError(messages.undoFailed);
        return;
      }
      setError(messages.undoNothing);
    }
    setAnswered((before) => before.slice(0, -1));
  }

  const flip = () => {
    if (current && !leaving) setFlipped((side) => !side);
  };

  // Keyboard: Space flips, A is don't know, D is know it, U undoes the last answer.
  useCardShortcuts(Boolean(cards && cards.length > 0), {
    a: () => answer('fail'),
    d: () => answer('pass'),
    space: flip,
    u: () => void undo(),
  });

  const headingId = `review-session-${session}`;
  // The deck list (and the button that started the session) is gone: focus moves to the session's heading.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const undoButton = answered.length > 0 && (
    <button
      type="button"
      className="button button--secondary review-actions__undo"
      aria-keyshortcuts="U"
      disabled={undoReview.isPending}
      onClick={() => void undo()}
    >
      {messages.undoAnswer}{' '}
      <span className="kbd" aria-hidden="true">
        U
      </span>
    </button>
  );
  const backButton = (
    <button type="button" className="button button--secondary" onClick={onBack}>
      Back to Decks
    </button>
  );

  let body: ReactNode;
  if (queue.isError) {
    body = <Notice tone="error">{messages.reviewQueueLoadFailed}</Notice>;
  } else if (cards === null) {
    body = <p role="status">{messages.loading}</p>;
  } else if (total === 0) {
    body = (
      <div className="review-end" role="status">
        <h3>{messages.noCardsToReview}</h3>
        <NextDueLine stats={stats.data} />
      </div>
    );
  } else if (done) {
    body = (
      <div className="review-end">
        <div role="status">
          <h3>{messages.reviewCompleted}</h3>
        </div>
        <SessionStats reviewed={tally.pass + tally.fail} pass={tally.pass} fail={tally.fail} />
        {error && <Notice tone="error">{error}</Notice>}
        {undoButton}
        <NextDueLine stats={stats.isFetching ? undefined : stats.data} />
        {stats.data && !stats.isFetching && (
          <p className="muted">Cards reviewed today: {stats.data.cards_reviewed_today}</p>
        )}
        <button type="button" className="button" onClick={onRestart}>
          Start New Review
        </button>
      </div>
    );
  } else if (current) {
    const counts = sessionCounts(cards.slice(position), Date.now());
    body = (
      <>
        <div className="review-status">
          <ProgressDial done={position} total={total} />
          <dl className="session-counts" aria-label="Cards left in this session">
            <div className="session-counts__item session-counts__item--new">
              <dt>New</dt>
              <dd>{counts.new}</dd>
            </div>
            <div className="session-counts__item session-counts__item--learning">
              <dt>Learning</dt>
              <dd>{counts.learning}</dd>
            </div>
            <div className="session-counts__item session-counts__item--due">
              <dt>Due</dt>
              <dd>{counts.due}</dd>
            </div>
          </dl>
        </div>
        <div className="review-stage" aria-live="polite">
          <SwipeCard
            key={`${position}-${current._id}`}
            card={current}
            flipped={flipped}
            leaving={leaving}
            onFlip={flip}
            onAnswer={answer}
          />
        </div>
        {error && <Notice tone="error">{error}</Notice>}
        <div className="review-actions">
          <button
            type="button"
            className="button review-actions__fail"
            aria-keyshortcuts="A"
            onClick={() => answer('fail')}
          >
            Don't know{' '}
            <span className="kbd" aria-hidden="true">
              A
            </span>
          </button>
          <button
            type="button"
            className="button button--secondary review-actions__flip"
            aria-keyshortcuts="Space"
            onClick={flip}
          >
            {flipped ? 'Show question' : 'Show answer'}
          </button>
          <button
            type="button"
            className="button review-actions__pass"
            aria-keyshortcuts="D"
            onClick={() => answer('pass')}
          >
            Know it{' '}
            <span className="kbd" aria-hidden="true">
              D
            </span>
          </button>
        </div>
        {undoButton && <div className="review-undo">{undoButton}</div>}
        <p className="review-hint muted">
          Tap the card or press Space to flip it. Swipe right or press D if you know it; swipe left or press A if you
          don't. Press U to undo the last answer.
        </p>
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
      </div>
      {body}
    </section>
  );
}

function SessionStats({ reviewed, pass, fail }: { reviewed: number; pass: number; fail: number }) {
  return (
    <dl className="session-stats" aria-label="This session">
      <div>
        <dt>Reviewed</dt>
        <dd>{reviewed}</dd>
      </div>
      <div>
        <dt>Knew</dt>
        <dd>{pass}</dd>
      </div>
      <div>
        <dt>Didn't know</dt>
        <dd>{fail}</dd>
      </div>
    </dl>
  );
}
