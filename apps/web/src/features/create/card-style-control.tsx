import type { CardStyle } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { useId } from 'react';

const options: { style: CardStyle; label: string; hint: string }[] = [
  { style: 'basic', label: messages.cardStyleBasic, hint: messages.cardStyleBasicHint },
  { style: 'cloze', label: messages.cardStyleCloze, hint: messages.cardStyleClozeHint },
  { style: 'mixed', label: messages.cardStyleMixed, hint: messages.cardStyleMixedHint },
];

interface Props {
  value: CardStyle;
  onValue: (style: CardStyle) => void;
  disabled?: boolean;
}

/** The card style the generator is asked for: a radio group (arrow keys move between the three). */
export function CardStyleControl({ value, onValue, disabled }: Props) {
  const name = useId();
  return (
    <fieldset className="card-style" disabled={disabled}>
      <legend>{messages.cardStyleLegend}</legend>
      <div className="card-style__options">
        {options.map((option) => (
          <label key={option.style} className="card-style__option">
            <input
              type="radio"
              name={name}
              value={option.style}
              checked={value === option.style}
              onChange={() => onValue(option.style)}
            />
            <span className="card-style__text">
              <span className="card-style__label">{option.label}</span>
              <span className="card-style__hint muted">{option.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
