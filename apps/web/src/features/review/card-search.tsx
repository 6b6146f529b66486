import type { CardSearchResult } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useEffect, useId, useState } from 'react';
import { Notice } from '../../components/notice';
import { useDecks } from '../../lib/decks-api';
import { plainTextOf } from '../../lib/plain-text';
import { EditCard } from './card-form';
import { useCardSearch } from './cards-api';

/** The text typed, settled for `delayMs` (one search per pause, not one per key). */
export function useSettled(value: string, delayMs = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return value.trim() === '' ? '' : settled;
}

/** A search box; `label` names it for screen readers. */
export function SearchBox({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
}) {
  const id = useId();
  return (
    <div className="field card-search__field">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        placeholder={label}
        autoComplete="off"
        maxLength={200}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** Search results (best first), each opening its card for editing; more on request. */
export function SearchResults({ q, deckId }: { q: string; deckId: string | null }) {
  const search = useCardSearch(q, deckId);
  const decks = useDecks();
  const [editing, setEditing] = useState<string | null>(null);
  const linked = new Set((decks.data ?? []).filter((deck) => deck.linked).map((deck) => deck._id));
  if (search.isError) {
    return <Notice tone="error">{messages.searchFailed}</Notice>;
  }
  if (!search.data) return <p role="status">{messages.loading}</p>;
  const results = search.data.pages.flatMap((page) => page.cards);
  if (results.length === 0) {
    return (
      <p className="muted" role="status">
        {fillMessage(messages.searchNoResults, { q: q.trim() })}
      </p>
    );
  }
  return (
    <>
      <ul className="search-results" aria-label="Search results">
        {results.map((card) => (
          <li key={card._id} className="search-results__item">
            {editing === card._id ? (
              <EditCard card={card} onDone={() => setEditing(null)} />
            ) : (
              <SearchHit
                card={card}
                showDeck={deckId === null}
                onOpen={linked.has(card.deck_id) ? null : () => setEditing(card._id)}
              />
            )}
          </li>
        ))}
      </ul>
      {search.hasNextPage && (
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={search.isFetchingNextPage}
          onClick={() => void search.fetchNextPage()}
        >
          {search.isFetchingNextPage ? messages.loading : 'More results'}
        </button>
      )}
    </>
  );
}

/**
 * One result: the card's question and answer as the plain text of the rendered card (markdown and LaTeX undone), so
 * the button's name (its visible text, after a hidden "Edit card:") reads as the card does. A card of a class deck's
 * copy (no `onOpen`) shows the same text, not as a button: it cannot be edited.
 */
function SearchHit({
  card,
  showDeck,
  onOpen,
}: {
  card: CardSearchResult;
  showDeck: boolean;
  onOpen: (() => void) | null;
}) {
  const content = (
    <>
      <span className="search-hit__question">{plainTextOf(card.question)}</span>{' '}
      <span className="search-hit__answer muted">{plainTextOf(card.answer)}</span>
      {showDeck && (
        <>
          {' '}
          <span className="search-hit__deck">{card.deck_name}</span>
        </>
      )}
    </>
  );
  if (!onOpen) return <div className="search-hit search-hit--read-only">{content}</div>;
  return (
    <button type="button" className="search-hit" onClick={onOpen}>
      <span className="visually-hidden">{messages.searchHitPrefix}</span> {content}
    </button>
  );
}
