import type { Card } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { CardMarkdown } from '../../components/card-markdown';
import { ItemActions } from '../../components/item-actions';
import { Notice } from '../../components/notice';
import { CardEditor } from './card-form';
import { useDeckCardPages } from './cards-api';

const statusLabels: Record<Card['status'], string> = {
  new: 'New',
  learning: 'Learning',
  relearning: 'Relearning',
  due: 'Review',
};

/** A first guess of a row's height before it is measured. */
const ESTIMATED_ROW_PX = 170;

/**
 * A deck's cards, however many: pages load as the list scrolls (GET /decks/{id}/cards?limit=&cursor=), and only the
 * rows in view (and a few around them) are in the DOM (@tanstack/react-virtual), each measured as it renders.
 */
export function DeckCardList({ deckId, onDeleteCard }: { deckId: string; onDeleteCard: (card: Card) => void }) {
  const pages = useDeckCardPages(deckId);
  const [editing, setEditing] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const cards = pages.data?.pages.flatMap((page) => page.cards) ?? [];
  const more = pages.hasNextPage ?? false;
  const virtualizer = useVirtualizer({
    count: cards.length + (more ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 4,
    getItemKey: (index) => cards[index]?._id ?? 'loading',
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  // The loading row came into view: fetch the next page.
  const { fetchNextPage, isFetchingNextPage } = pages;
  useEffect(() => {
    if (more && !isFetchingNextPage && lastIndex >= cards.length - 1) void fetchNextPage();
  }, [more, isFetchingNextPage, lastIndex, cards.length, fetchNextPage]);

  if (pages.isError) {
    return <Notice tone="error">{messages.reviewDeckCardsLoadFailed}</Notice>;
  }
  if (!pages.data) return <p role="status">{messages.loading}</p>;
  if (cards.length === 0) return <p className="muted">{messages.reviewDeckEmpty}</p>;

  return (
    <div ref={scrollRef} className="deck-cards__scroller" data-testid="deck-cards-scroller">
      <ol className="deck-cards deck-cards--virtual" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const card = cards[item.index];
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="deck-cards__slot"
              style={{ transform: `translateY(${item.start}px)` }}
              aria-setsize={more ? -1 : cards.length}
              aria-posinset={item.index + 1}
            >
              <div className="deck-cards__item">
                {!card ? (
                  <p role="status">{messages.cardsLoadingMore}</p>
                ) : editing === card._id ? (
                  <CardEditor card={card} onDone={() => setEditing(null)} />
                ) : (
                  <CardRow
                    card={card}
                    number={item.index + 1}
                    onEdit={() => setEditing(card._id)}
                    onDelete={() => onDeleteCard(card)}
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
  onEdit: () => void;
  onDelete: () => void;
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
    </>
  );
}
