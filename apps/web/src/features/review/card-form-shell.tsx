import { messages } from '@flashcards/shared/messages';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { Notice } from '../../components/notice';

const isSaveShortcut = (event: KeyboardEvent) => event.key === 'Enter' && (event.ctrlKey || event.metaKey);

export interface CardFormShellProps {
  label: string;
  className: string;
  /** The submit button (and Enter in a one-line field). */
  onSubmit: () => Promise<void>;
  /** Ctrl+Enter (⌘+Enter) anywhere in the form. */
  onShortcut: () => Promise<void>;
  error: string | null;
  cancelLabel: string;
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
  /** Text typed that Escape would lose: Escape then asks first. */
  dirty: boolean;
  children: ReactNode;
}

/**
 * The frame both card forms share: the save shortcut, the error, and Cancel/Close beside the save button. Escape
 * cancels the form (asking first when something was typed) and goes no further, so a dialog around it stays open.
 */
export function CardFormShell({
  label,
  className,
  onSubmit,
  onShortcut,
  error,
  dirty,
  children,
  ...actions
}: CardFormShellProps) {
  const [confirming, setConfirming] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (confirming) keepRef.current?.focus();
  }, [confirming]);

  function keepEditing() {
    setConfirming(false);
    returnTo.current?.focus();
  }

  return (
    <form
      className={className}
      aria-label={label}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void onSubmit();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          // The dialog around the form listens on the document: it must not see this Escape.
          event.stopPropagation();
          event.preventDefault();
          if (!dirty) actions.onCancel();
          else if (confirming) keepEditing();
          else {
            returnTo.current = event.target instanceof HTMLElement ? event.target : null;
            setConfirming(true);
          }
          return;
        }
        if (!isSaveShortcut(event)) return;
        event.preventDefault();
        void onShortcut();
      }}
    >
      {children}
      {confirming && (
        <div className="card-form__discard">
          <Notice tone="info">{messages.discardCardEditConfirm}</Notice>
          <div className="form__actions">
            <Button ref={keepRef} variant="secondary" small onClick={keepEditing}>
              {messages.keepEditing}
            </Button>
            <Button variant="danger" small onClick={actions.onCancel}>
              {messages.discardChanges}
            </Button>
          </div>
        </div>
      )}
      {error && <Notice tone="error">{error}</Notice>}
      <div className="form__actions">
        <Button variant="secondary" small onClick={actions.onCancel}>
          {actions.cancelLabel}
        </Button>
        <Button type="submit" small pending={actions.pending} pendingLabel="Saving...">
          {actions.submitLabel}
        </Button>
      </div>
    </form>
  );
}
