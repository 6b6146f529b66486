import type { Deck } from '@flashcards/shared/api-types';
import { useId } from 'react';
import { Field } from './text-field';

interface DeckSelectProps {
  decks: readonly Deck[];
  value: string;
  onValue: (deckId: string) => void;
  /** The first option, for no deck chosen; left out when every choice is a deck. */
  emptyOption?: string;
  /** The text of a deck's option; its name unless given. */
  optionLabel?: (deck: Deck) => string;
  /** Extra classes on the `.field` box. */
  fieldClassName?: string;
  /** The select's id; its own unique id when not given. */
  id?: string;
  disabled?: boolean;
  /** The field's label; "Deck" unless given. */
  label?: string;
}

/** "Deck": a labelled choice among the user's decks. */
export function DeckSelect({
  decks,
  value,
  onValue,
  emptyOption,
  optionLabel,
  fieldClassName,
  id,
  disabled,
  label = 'Deck',
}: DeckSelectProps) {
  const ownId = useId();
  const selectId = id ?? ownId;
  return (
    <Field label={label} controlId={selectId} className={fieldClassName}>
      <select
        className="deck-select"
        id={selectId}
        value={value}
        onChange={(event) => onValue(event.target.value)}
        disabled={disabled}
      >
        {emptyOption !== undefined && <option value="">{emptyOption}</option>}
        {decks.map((deck) => (
          <option key={deck._id} value={deck._id}>
            {optionLabel ? optionLabel(deck) : deck.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
