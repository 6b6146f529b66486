import { useId } from 'react';

/** One choice of a few, as radio buttons under a legend (arrow keys move between them). */
export function RadioChoice<T extends string>({
  legend,
  options,
  value,
  onValue,
}: {
  legend: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onValue: (value: T) => void;
}) {
  const name = useId();
  return (
    <fieldset className="note-type">
      <legend>{legend}</legend>
      <div className="note-type__options">
        {options.map((option) => (
          <label key={option.value} className="note-type__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onValue(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
