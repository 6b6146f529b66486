import type { ClassSummary, Deck, DeckCounts } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import { limits } from '@flashcards/shared/limits';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/button';
import { type ItemAction, ItemActions } from '../../components/item-actions';
import { Notice } from '../../components/notice';
import { StatsList } from '../../components/stats-list';
import { TextField } from '../../components/text-field';
import { useClasses } from '../../lib/classes-api';
import { useCreateDeck, useDeckStats, useDecks } from '../../lib/decks-api';
import { SearchBox, SearchResults, useSettled } from './card-search';

interface DeckListProps {
  onReview: (deck: Deck | null) => void;
  onAddCard: () => void;
  onSettings: (deck: Deck) => void;
  onShare: (deck: Deck) => void;
  onDelete: (deck: Deck) => void;
  /** A teacher's "Assign to class" of one of their own decks. */
  onAssign: (deck: Deck) => void;
}

/** "From class X" under a class deck's copy: the class's name when the user's classes have come in. */
function fromClassLabel(deck: Deck, classes: readonly ClassSummary[] | undefined): string {
  const name = classes?.find((item) => item._id === deck.class_id)?.name;
  return name ? fillMessage(classMessages.fromClass, { name }) : classMessages.fromClassUnknown;
}

/**
 * The decks first (on a phone the first deck is in view at once), each with its New / Learning / Due counts and
 * Review Deck, Settings, Share and Delete; then the totals over all decks, the card tools and a form to create a deck.
 * A class deck's copy says which class it is from and offers neither Share nor Delete (its teacher keeps it); a
 * teacher's own deck adds Assign to class.
 */
export function DeckList({ onReview, onAddCard, onSettings, onShare, onDelete, onAssign }: DeckListProps) {
  const decks = useDecks();
  const stats = useDeckStats();
  const classes = useClasses();
  const teaches = classes.data?.some((item) => item.role === 'teacher') ?? false;
  const hasDecks = (decks.data?.length ?? 0) > 0;
  return (
    <>
      {decks.isError ? (
        <Notice tone="error">{messages.decksLoadFailed}</Notice>
      ) : !decks.data ? (
        <p role="status">{messages.loading}</p>
      ) : decks.data.length === 0 ? (
        <p className="muted">
          {messages.reviewNoDecks} <Link to="/create">Create cards</Link>
        </p>
      ) : (
        <ul className="deck-list">
          {decks.data.map((deck) => (
            <li key={deck._id} className="deck-item">
              <div className="deck-item__info">
                <h2 className="deck-item__name">{deck.name}</h2>
                {deck.linked && <p className="deck-item__class">{fromClassLabel(deck, classes.data)}</p>}
                {deck.counts && <DeckCountsLine counts={deck.counts} />}
                <p className="muted deck-item__count">
                  {deck.card_count} {deck.card_count === 1 ? 'card' : 'cards'} · {deck.daily_new_card_limit} new a day
                </p>
              </div>
              <ItemActions
                className="deck-item__actions"
                name={(label) => `${label}: ${deck.name}`}
                actions={deckActions(deck, teaches, { onReview, onSettings, onShare, onDelete, onAssign })}
              />
            </li>
          ))}
        </ul>
      )}
      {hasDecks && (
        // Drawn with the decks, its figures filled in when they arrive, so nothing below it moves then.
        <section className="review-overview" aria-label="All decks" aria-busy={!stats.data}>
          <StatsList
            inline
            entries={[
              ['Due now', stats.data?.due_cards ?? messages.figurePending],
              ['Learning', stats.data?.learning_cards ?? messages.figurePending],
              ['New', stats.data?.new_cards ?? messages.figurePending],
              ['Reviewed today', stats.data?.cards_reviewed_today ?? messages.figurePending],
            ]}
          />
          <button type="button" className="button button--secondary" onClick={() => onReview(null)}>
            Review All Decks
          </button>
        </section>
      )}
      {hasDecks && <DeckTools onAddCard={onAddCard} />}
      {/* Below the decks once they are in: shown under 'Loading...', the arrival of the decks would push it down. */}
      {(decks.data || decks.isError) && <CreateDeckForm />}
    </>
  );
}

/** A deck's buttons: a class deck's copy has no Share or Delete, a teacher's own deck adds Assign to class. */
function deckActions(
  deck: Deck,
  teaches: boolean,
  handlers: Omit<DeckListProps, 'onAddCard' | 'onReview'> & { onReview: (deck: Deck) => void },
): ItemAction[] {
  const actions: ItemAction[] = [
    { label: 'Review Deck', variant: 'primary', onClick: () => handlers.onReview(deck) },
    { label: 'Settings', variant: 'secondary', onClick: () => handlers.onSettings(deck) },
  ];
  if (deck.linked) return actions;
  if (teaches)
    actions.push({ label: classMessages.assignToClass, variant: 'secondary', onClick: () => handlers.onAssign(deck) });
  actions.push(
    { label: 'Share', variant: 'secondary', onClick: () => handlers.onShare(deck) },
    { label: 'Delete', variant: 'danger-outline', onClick: () => handlers.onDelete(deck) },
  );
  return actions;
}

/** What a session of the deck would show now, as Anki shows it: new, learning and due, each in its colour. */
function DeckCountsLine({ counts }: { counts: DeckCounts }) {
  const entries: [keyof DeckCounts, string][] = [
    ['new', messages.deckCountNew],
    ['learning', messages.deckCountLearning],
    ['due', messages.deckCountDue],
  ];
  return (
    <p className="deck-item__counts">
      <span className="visually-hidden">{fillMessage(messages.deckCountsLabel, { ...counts })}</span>
      {entries.map(([key, label]) => (
        <span key={key} className={`deck-count deck-count--${key}`} aria-hidden="true">
          {label} <strong>{counts[key]}</strong>
        </span>
      ))}
    </p>
  );
}

function CreateDeckForm() {
  const inputId = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateDeck();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError(messages.deckNameEmpty);
      return;
    }
    setError(null);
    try {
      await create.mutateAsync(name.trim());
      setName('');
    } catch {
      setError(messages.deckCreateFailed);
    }
  }

  return (
    <form className="create-deck" onSubmit={submit} noValidate>
      <TextField
        label="New deck name"
        fieldClassName="create-deck__field"
        id={inputId}
        type="text"
        maxLength={limits.maxDeckNameLength}
        value={name}
        onValue={setName}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
      />
      <Button type="submit" pending={create.isPending} pendingLabel="Creating...">
        Create Deck
      </Button>
      {error && (
        <Notice tone="error" id={`${inputId}-error`} className="create-deck__error">
          {error}
        </Notice>
      )}
    </form>
  );
}

/** Add Card (to any deck) and a search over every deck, whose results open the card for editing. */
function DeckTools({ onAddCard }: { onAddCard: () => void }) {
  const [query, setQuery] = useState('');
  const q = useSettled(query);
  return (
    <section className="deck-tools" aria-label="Cards in all decks">
      <div className="cards-toolbar">
        <SearchBox value={query} onChange={setQuery} label={messages.searchAllDecks} />
        <button type="button" className="button button--secondary" onClick={onAddCard}>
          {messages.addCard}
        </button>
      </div>
      {q && <SearchResults q={q} deckId={null} />}
    </section>
  );
}
