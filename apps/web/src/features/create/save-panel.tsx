import type { GeneratedCard } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/button';
import { DeckSelect } from '../../components/deck-select';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';
import { ownDecks, useCreateDeck, useDecks, useSaveCards } from '../../lib/decks-api';
import { useDeckChoice } from '../../lib/use-deck-choice';

interface Props {
  selectedCards: GeneratedCard[];
  /** A name for a new deck taken from the source (file name, first line), offered so that one click saves. */
  suggestedDeckName: string;
  /** The deck the cards were checked against for duplicates: chosen at first when given. */
  initialDeckId?: string;
  /** `saved` of the selected items went into `deck`; `skipped` were left out as exact duplicates of its cards. */
  onSaved: (deck: { _id: string; name: string }, saved: number, skipped: number) => void;
}

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * Deck picker, New Deck form and Save Selected Cards. With a suggested name and no deck chosen, the New Deck form is
 * open with that name, and Save makes the deck (or uses the learner's deck of that name) and saves in one click.
 */
export function SavePanel({ selectedCards, suggestedDeckName, initialDeckId = '', onSaved }: Props) {
  const decks = useDecks();
  const createDeck = useCreateDeck();
  const saveCards = useSaveCards();
  const [newDeckOpen, setNewDeckOpen] = useState(suggestedDeckName !== '' && initialDeckId === '');
  const [deckName, setDeckName] = useState(suggestedDeckName);
  const [deckError, setDeckError] = useState<string | null>(null);
  const { deckId, setDeckId, error: saveError, setError: setSaveError, choose } = useDeckChoice(initialDeckId);
  const deckSelectId = useId();

  const deckList = ownDecks(decks.data);
  const chosenDeck = deckList.find((deck) => deck._id === deckId);

  function chooseDeck(id: string) {
    choose(id);
    // A deck picked from the list is where the cards go: the new-deck form would only compete with it.
    if (id) setNewDeckOpen(false);
  }

  /** The deck Save writes to: the chosen one, else the one the open New Deck form names (made now if need be). */
  async function targetDeck(): Promise<{ _id: string; name: string } | null> {
    if (deckId && chosenDeck) return chosenDeck;
    const name = deckName.trim();
    if (!newDeckOpen || !name) return null;
    const existing = deckList.find((deck) => sameName(deck.name, name));
    if (existing) return existing;
    return createDeck.mutateAsync(name);
  }

  async function submitNewDeck(event: FormEvent) {
    event.preventDefault();
    const name = deckName.trim();
    if (!name) {
      setDeckError(messages.deckNameEmpty);
      return;
    }
    setDeckError(null);
    try {
      const deck = await createDeck.mutateAsync(name);
      setDeckId(deck._id);
      setDeckName('');
      setNewDeckOpen(false);
      setSaveError(null);
    } catch {
      setDeckError(messages.deckCreateFailed);
    }
  }

  async function save() {
    if (selectedCards.length === 0) {
      setSaveError(messages.noCardsSelected);
      return;
    }
    let deck: { _id: string; name: string } | null;
    try {
      deck = await targetDeck();
    } catch {
      setDeckError(messages.deckCreateFailed);
      return;
    }
    if (!deck) {
      setSaveError(messages.noDeckSelected);
      return;
    }
    setSaveError(null);
    setDeckError(null);
    if (deck._id !== deckId) {
      setDeckId(deck._id);
      setNewDeckOpen(false);
    }
    try {
      const result = await saveCards.mutateAsync({
        deckId: deck._id,
        // A cloze note is saved as its note (its cards are made from the text); a basic card as its two sides.
        cards: selectedCards.map((card) => {
          // The figures the learner kept in the grid.
          const images = card.images?.length ? { images: card.images } : {};
          return 'type' in card
            ? { type: card.type, fields: { text: card.fields.text }, ...savedSource(card), ...images }
            : { question: card.question, answer: card.answer, ...savedSource(card), ...images };
        }),
      });
      // Counted in items, as selected: a cloze note is one item however many cards it makes.
      const skipped = result.skipped_duplicates ?? 0;
      onSaved(deck, selectedCards.length - skipped, skipped);
    } catch {
      setSaveError(messages.cardsSaveFailed);
    }
  }

  return (
    <section className="panel save-panel" aria-labelledby={`${deckSelectId}-heading`}>
      <h2 id={`${deckSelectId}-heading`}>Save to a deck</h2>
      {decks.isError && <Notice tone="error">{messages.decksLoadFailed}</Notice>}
      <div className="save-panel__row">
        <DeckSelect
          id={deckSelectId}
          fieldClassName="save-panel__deck"
          decks={deckList}
          value={deckId}
          onValue={chooseDeck}
          disabled={decks.isPending}
          emptyOption={decks.isPending ? 'Loading decks...' : 'Select a deck'}
        />
        {!newDeckOpen && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setNewDeckOpen(true);
              setDeckError(null);
            }}
          >
            New Deck
          </button>
        )}
      </div>
      {newDeckOpen && (
        <form className="form save-panel__new-deck" onSubmit={submitNewDeck} noValidate>
          <TextField label="New deck name" type="text" value={deckName} maxLength={200} onValue={setDeckName} />
          {deckError && <Notice tone="error">{deckError}</Notice>}
          <div className="form__actions">
            <Button type="submit" small pending={createDeck.isPending} pendingLabel="Creating...">
              Create Deck
            </Button>
            <Button
              variant="secondary"
              small
              aria-label={messages.cancelNewDeck}
              onClick={() => {
                setNewDeckOpen(false);
                setDeckName('');
                setDeckError(null);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      )}
      {saveError && <Notice tone="error">{saveError}</Notice>}
      <button
        type="button"
        className="button button--large"
        onClick={save}
        disabled={saveCards.isPending || createDeck.isPending}
      >
        {saveCards.isPending ? 'Saving...' : `Save Selected Cards (${selectedCards.length})`}
      </button>
    </section>
  );
}

/** The source a saved card keeps: the one generation gave, when it has a quote. */
function savedSource(card: GeneratedCard): { source?: GeneratedCard['source'] } {
  return card.source?.quote ? { source: card.source } : {};
}
