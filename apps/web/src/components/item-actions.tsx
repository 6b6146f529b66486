import { Button, type ButtonVariant } from './button';

export interface ItemAction {
  /** The button's text. */
  label: string;
  variant: ButtonVariant;
  onClick: () => void;
}

interface ItemActionsProps {
  /** The row's class: how the buttons sit beside the item. */
  className: string;
  actions: readonly ItemAction[];
  /** A button's accessible name from its label: the label and the item it acts on ("Delete: Biology"). */
  name: (label: string) => string;
  small?: boolean;
  /** Read after each label by screen readers only (the item, where the text alone would repeat from row to row). */
  hiddenText?: string;
}

/** The buttons that act on one item of a list (a deck, a card), each named after the item it acts on. */
export function ItemActions({ className, actions, name, small = false, hiddenText }: ItemActionsProps) {
  return (
    <div className={className}>
      {actions.map((action) => (
        <Button
          key={action.label}
          variant={action.variant}
          small={small}
          onClick={action.onClick}
          aria-label={name(action.label)}
        >
          {action.label}
          {hiddenText !== undefined && (
            <>
              {' '}
              <span className="visually-hidden">{hiddenText}</span>
            </>
          )}
        </Button>
      ))}
    </div>
  );
}
