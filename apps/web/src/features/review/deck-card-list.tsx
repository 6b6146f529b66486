import type { Card } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { CardImages } from '../../components/card-images';
import { CardMarkdown } from '../../components/card-markdown';
import { ItemActions } from '../../components/item-actions';
import { Notice } from '../../components/notice';
import { EditCard } from './card-form';
import { CardSourceControl } from './card-source';
import { useDeckCardPages } from './cards-api';
import { previewCardTitle } from './note-draft';
import { noteTypeNames } from './note-fields';
import { groupByNote, type NoteGroup } from './note-groups';

const statusLabels: Record<Card['status'], string> = {
  new: 'New',
  learning: 'Learning',
  relearning: 'Relearning',
  due: 'Review',
};

/** A first guess of a row's height before it is measured. */
const ESTIMATED_ROW_PX = 170;

/**
 * A deck's cards, however many, one row per note (a cloze note's cards, a reversed note's two, together): pages load
 * as the list scrolls (GET /decks/{id}/cards?limit=&cursor=), and only the rows in view (and a few around them) are
 * in the DOM (@tanstack/react-virtual), each measured as it renders.
 */
export function DeckCardList({
  deckId,
  onDeleteCard,
  readOnly = false,
}: {
  deckId: string;
  onDeleteCard: (card: Card) => void;
  /** A class deck's copy: the cards show without Edit or Delete. */
  readOnly?: boolean;
}) {
  const pages = useDeckCardPages(deckId);
  const [editing, setEditing] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const cards = useMemo(() => pages.data?.pages.flatMap((page) => page.cards) ?? [], [pages.data]);
  const groups = useMemo(() => groupByNote(cards), [cards]);
  const more = pages.hasNextPage ?? false;
  const virtualizer = useVirtualizer({
    count: groups.length + (more ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 4,
    getItemKey: (index) => groups[index]?.noteId ?? 'loading',
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  // The loading row came into view: fetch the next page.
  const { fetchNextPage, isFetchingNextPage } = pages;
  useEffect(() => {
    if (more && !isFetchingNextPage && lastIndex >= groups.length - 1) void fetchNextPage();
  }, [more, isFetchingNextPage, lastIndex, groups.length, fetchNextPage]);

  if (pages.isError) {
    return <Notice tone="error">{messages.reviewDeckCardsLoadFailed}</Notice>;
  }
  if (!pages.data) return <p role="status">{messages.loading}</p>;
  if (cards.length === 0) return <p className="muted">{messages.reviewDeckEmpty}</p>;

  return (
    <div ref={scrollRef} className="deck-cards__scroller" data-testid="deck-cards-scroller">
      <ol className="deck-cards deck-cards--virtual" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const group = groups[item.index];
          const first = group?.cards[0];
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="deck-cards__slot"
              style={{ transform: `translateY(${item.start}px)` }}
              aria-setsize={more ? -1 : groups.length}
              aria-posinset={item.index + 1}
            >
              <div className="deck-cards__item">
                {!group || !first ? (
                  <p role="status">{messages.cardsLoadingMore}</p>
                ) : editing === group.noteId ? (
                  <EditCard card={first} ofNote={group.type !== 'basic'} onDone={() => setEditing(null)} />
                ) : group.type === 'basic' ? (
                  <CardRow
                    card={first}
                    number={group.firstNumber}
                    onEdit={readOnly ? null : () => setEditing(group.noteId)}
                    onDelete={readOnly ? null : () => onDeleteCard(first)}
                  />
                ) : (
                  <NoteRow
                    group={group}
                    onEdit={readOnly ? null : () => setEditing(group.noteId)}
                    onDeleteCard={readOnly ? null : onDeleteCard}
                  />
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function CardRow({
  card,
  number,
  onEdit,
  onDelete,
}: {
  card: Card;
  number: number;
  onEdit: (() => void) | null;
  onDelete: (() => void) | null;
}) {
  return (
    <>
      <div className="deck-cards__meta">
        <span>Card {number}</span>
        <span className={`badge badge--${card.status}`}>{statusLabels[card.status]}</span>
      </div>
      <p className="deck-cards__label">Question</p>
      <CardMarkdown text={card.question} />
      <p className="deck-cards__label">Answer</p>
      <CardMarkdown text={card.answer} />
      <CardImages images={card.images} />
      <CardSourceControl card={card} />
      {onEdit && onDelete && (
        <ItemActions
          className="deck-cards__actions"
          small
          name={(label) => `${label} card ${number}`}
          hiddenText={`card ${number}`}
          actions={[
            { label: 'Edit', variant: 'secondary', onClick: onEdit },
            { label: 'Delete', variant: 'danger-outline', onClick: onDelete },
          ]}
        />
      )}
    </>
  );
}

/**
 * A note of several cards (or of a type other than basic): Edit note at its head (one edit for all its cards), then its
 * cards one under another, each with its own Delete.
 */
function NoteRow({
  group,
  onEdit,
  onDeleteCard,
}: {
  group: NoteGroup;
  onEdit: (() => void) | null;
  onDeleteCard: ((card: Card) => void) | null;
}) {
  const count = group.cards.length;
  const last = group.firstNumber + count - 1;
  const cardsName = count === 1 ? `card ${group.firstNumber}` : `cards ${group.firstNumber} to ${last}`;
  return (
    <>
      <div className="deck-cards__meta note-cards__head">
        <span className="note-cards__title">
          {fillMessage(count === 1 ? messages.noteCardsLabelOne : messages.noteCardsLabel, {
            type: noteTypeNames[group.type],
            count,
          })}
        </span>
        {onEdit && (
          <ItemActions
            className="note-cards__edit"
            small
            name={(label) => `${label} of ${cardsName}`}
            hiddenText={`of ${cardsName}`}
            actions={[{ label: messages.editNote, variant: 'secondary', onClick: onEdit }]}
          />
        )}
      </div>
      <ol className="note-cards">
        {group.cards.map((card, index) => {
          const number = group.firstNumber + index;
          return (
            <li key={card._id} className="note-cards__card">
              <div className="deck-cards__meta">
                <span>{previewCardTitle(card, number - 1)}</span>
                <span className={`badge badge--${card.status}`}>{statusLabels[card.status]}</span>
              </div>
              <p className="deck-cards__label">Question</p>
              <CardMarkdown text={card.question} />
              <p className="deck-cards__label">Answer</p>
              <CardMarkdown text={card.answer} />
              <CardImages images={card.images} />
              {onDeleteCard && (
                <ItemActions
                  className="deck-cards__actions"
                  small
                  name={(label) => `${label} card ${number}`}
                  hiddenText={`card ${number}`}
                  actions={[{ label: 'Delete', variant: 'danger-outline', onClick: () => onDeleteCard(card) }]}
                />
              )}
            </li>
          );
        })}
      </ol>
      {/* A note's cards share one source: it is shown once, under them. */}
      {group.cards[0] && <CardSourceControl card={group.cards[0]} />}
    </>
  );
}
