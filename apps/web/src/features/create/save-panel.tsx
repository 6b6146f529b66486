import type { GeneratedCard } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/button';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';
import { DeckSelect } from '../decks/deck-select';
import { useCreateDeck, useDecks, useSaveCards } from '../decks/decks-api';
import { useDeckChoice } from '../decks/use-deck-choice';

interface Props {
  selectedCards: GeneratedCard[];
  onSaved: (deckName: string, count: number) => void;
}

/** Deck picker, New Deck form and Save Selected Cards. */
export function SavePanel({ selectedCards, onSaved }: Props) {
  const decks = useDecks();
  const createDeck = useCreateDeck();
  const saveCards = useSaveCards();
  const [newDeckOpen, setNewDeckOpen] = useState(false);
  const [deckName, setDeckName] = useState('');
  const [deckError, setDeckError] = useState<string | null>(null);
  const { deckId, setDeckId, error: saveError, setError: setSaveError, choose: chooseDeck } = useDeckChoice();
  const deckSelectId = useId();

  const deckList = decks.data ?? [];
  const chosenDeck = deckList.find((deck) => deck._id === deckId);

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
    if (!deckId || !chosenDeck) {
      setSaveError(messages.noDeckSelected);
      return;
    }
    setSaveError(null);
    try {
      await saveCards.mutateAsync({
        deckId,
        cards: selectedCards.map((card) => ({ question: card.question, answer: card.answer })),
      });
      onSaved(chosenDeck.name, selectedCards.length);
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
      <button type="button" className="button button--large" onClick={save} disabled={saveCards.isPending}>
        {saveCards.isPending ? 'Saving...' : `Save Selected Cards (${selectedCards.length})`}
      </button>
    </section>
  );
}
