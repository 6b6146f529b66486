import type { Card, ReviewResult } from '@flashcards/shared/api-types';
import { type PointerEvent, useRef, useState } from 'react';
import { CardMarkdown } from '../../components/card-markdown';

/** A swipe further than this (px) answers the card; a shorter one snaps back. */
export const swipeThresholdPx = 100;
/** A pointer that moves less than this is a tap (flip), not a swipe. */
const tapSlopPx = 5;

interface SwipeCardProps {
  card: Card;
  flipped: boolean;
  /** Set while the card flies out after an answer. */
  leaving: ReviewResult | null;
  onFlip: () => void;
  onAnswer: (result: ReviewResult) => void;
}

/**
 * The card under review: a tap flips it; dragging it right (know it) or left (don't know) further than 100 px
 * answers, a shorter drag snaps it back. Keyboard users have Space, A, D and the buttons below the card.
 */
export function SwipeCard({ card, flipped, leaving, onFlip, onAnswer }: SwipeCardProps) {
  const [dx, setDx] = useState(0);
  const [dragging, setDragging] = useState(false);
  const startX = useRef<number | null>(null);
  const moved = useRef(false);

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (leaving || (event.pointerType === 'mouse' && event.button !== 0)) return;
    startX.current = event.clientX;
    moved.current = false;
    setDx(0);
    setDragging(true);
    if (typeof event.currentTarget.setPointerCapture === 'function') {
      event.currentTarget.setPointerCapture(event.pointerId);
    }
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (startX.current === null) return;
    const distance = event.clientX - startX.current;
    if (Math.abs(distance) > tapSlopPx) moved.current = true;
    setDx(distance);
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    if (startX.current === null) return;
    const distance = event.clientX - startX.current;
    if (Math.abs(distance) > tapSlopPx) moved.current = true;
    startX.current = null;
    setDragging(false);
    setDx(0);
    if (Math.abs(distance) > swipeThresholdPx) onAnswer(distance > 0 ? 'pass' : 'fail');
  }

  function onPointerCancel() {
    startX.current = null;
    setDragging(false);
    setDx(0);
  }

  function onClick() {
    // The click that ends a drag is not a tap.
    if (moved.current) {
      moved.current = false;
      return;
    }
    if (!leaving) onFlip();
  }

  const hint = dragging && Math.abs(dx) > swipeThresholdPx ? (dx > 0 ? 'pass' : 'fail') : null;
  const className = [
    'swipe-card',
    dragging ? 'swipe-card--dragging' : '',
    leaving ? `swipe-card--leaving-${leaving}` : '',
    hint ? `swipe-card--hint-${hint}` : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the tap and swipe are pointer conveniences; the Flip, Know it and Don't know buttons and the Space, A and D keys do the same for keyboards.
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above; Space flips the card from anywhere on the page.
    <div
      className={className}
      data-testid="swipe-card"
      style={dragging ? { transform: `translateX(${dx}px) rotate(${dx / 20}deg)` } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onClick={onClick}
    >
      <div
        key={flipped ? 'answer' : 'question'}
        className={`swipe-card__face${flipped ? ' swipe-card__face--back' : ''}`}
      >
        <p className="swipe-card__side">{flipped ? 'Answer' : 'Question'}</p>
        <CardMarkdown text={flipped ? card.answer : card.question} />
      </div>
    </div>
  );
}
