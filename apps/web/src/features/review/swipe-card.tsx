import type { Card, ReviewResult } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { type CSSProperties, type PointerEvent, type Ref, useLayoutEffect, useRef, useState } from 'react';
import { CardImages } from '../../components/card-images';
import { CardMarkdown } from '../../components/card-markdown';
import { OcclusionImage } from '../../components/occlusion-image';
import { SpeakButton } from '../../components/speak-button';

export type CardSide = 'question' | 'answer';

/** A swipe further than this (px) answers the card; a shorter one snaps back. */
export const swipeThresholdPx = 100;
/** A pointer that moves less than this is a tap (flip), not a swipe. */
const tapSlopPx = 5;

interface SwipeCardProps {
  card: Card;
  flipped: boolean;
  onFlip: () => void;
  /** `fromX`: where the drag left the card (px), so that it flies off from there. */
  onAnswer: (result: ReviewResult, fromX: number) => void;
  cardRef?: Ref<HTMLDivElement>;
  /** Reads a side aloud (its speaker button). */
  onSpeak?: (side: CardSide) => void;
}

/**
 * The card under review: a tap flips it; dragging it right (know it) or left (don't know) further than 100 px
 * answers, a shorter drag snaps it back. The drag starts anywhere on the card, its text included (review.css keeps
 * the text's scroll boxes from taking the gesture), and says which answer it is heading for. Keyboard users have
 * Space, A, D and the buttons below the card.
 */
export function SwipeCard({ card, flipped, onFlip, onAnswer, cardRef, onSpeak }: SwipeCardProps) {
  const [dx, setDx] = useState(0);
  const [dragging, setDragging] = useState(false);
  const startX = useRef<number | null>(null);
  const moved = useRef(false);

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    // A press on a button inside the card (the speaker) is the button's, not the start of a swipe.
    if (event.target instanceof Element && event.target.closest('button')) return;
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
    if (Math.abs(distance) > swipeThresholdPx) onAnswer(distance > 0 ? 'pass' : 'fail', distance);
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
    onFlip();
  }

  const heading = dragging && Math.abs(dx) > tapSlopPx ? (dx > 0 ? 'pass' : 'fail') : null;
  const committed = heading !== null && Math.abs(dx) > swipeThresholdPx;
  const className = [
    'swipe-card',
    dragging ? 'swipe-card--dragging' : '',
    committed ? `swipe-card--hint-${heading}` : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the tap and swipe are pointer conveniences; the Flip, Know it and Don't know buttons and the Space, A and D keys do the same for keyboards.
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above; Space flips the card from anywhere on the page.
    <div
      ref={cardRef}
      className={className}
      data-testid="swipe-card"
      style={dragging ? { transform: `translateX(${dx}px) rotate(${dx / 20}deg)` } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onClick={onClick}
    >
      {heading && (
        <span
          className={`swipe-card__direction swipe-card__direction--${heading}`}
          style={{ opacity: Math.min(1, Math.abs(dx) / swipeThresholdPx) }}
          aria-hidden="true"
        >
          {heading === 'pass' ? messages.reviewGradePass : messages.reviewGradeFail}
        </span>
      )}
      <CardFaces card={card} flipped={flipped} onSpeak={onSpeak} />
    </div>
  );
}

/** The question, and below it the answer once flipped. */
function CardFaces({
  card,
  flipped,
  onSpeak,
}: {
  card: Card;
  flipped: boolean;
  onSpeak?: ((side: CardSide) => void) | undefined;
}) {
  return (
    <div className="swipe-card__faces">
      <div className="swipe-card__face">
        <div className="swipe-card__head">
          <p className="swipe-card__side">{messages.reviewQuestionLabel}</p>
          {onSpeak && <SpeakButton label={studyMessages.speakQuestion} onSpeak={() => onSpeak('question')} />}
        </div>
        <CardMarkdown text={card.question} />
        {card.occlusion && <OcclusionImage occlusion={card.occlusion} revealed={flipped} />}
      </div>
      {flipped && (
        <div className="swipe-card__face swipe-card__face--back">
          <div className="swipe-card__head">
            <p className="swipe-card__side">{messages.reviewAnswerLabel}</p>
            {onSpeak && <SpeakButton label={studyMessages.speakAnswer} onSpeak={() => onSpeak('answer')} />}
          </div>
          <CardMarkdown text={card.answer} />
          <CardImages images={card.images} />
        </div>
      )}
    </div>
  );
}

/**
 * The card just answered, flying off over the next one (which is already on screen beneath it), from where the drag
 * left it: `content` is a copy of what the card showed. It takes no pointer and is hidden from assistive technology.
 */
export function LeavingCard({ content, result, fromX }: { content: HTMLElement; result: ReviewResult; fromX: number }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    box.current?.replaceChildren(content);
  }, [content]);
  const style = { '--swipe-from-x': `${fromX}px`, '--swipe-from-turn': `${fromX / 20}deg` } as CSSProperties;
  return (
    <div
      ref={box}
      className={`swipe-card swipe-card--leaving swipe-card--leaving-${result}`}
      style={style}
      aria-hidden="true"
    />
  );
}
