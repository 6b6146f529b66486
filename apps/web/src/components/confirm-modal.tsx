import { Button } from './button';
import { Modal } from './modal';
import { Notice } from './notice';

interface ConfirmModalProps {
  title: string;
  message: string;
  confirmLabel: string;
  pending: boolean;
  /** The confirm button's text while the action runs. */
  pendingLabel?: string;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Are you sure?" before something that cannot be undone (deleting a deck or a card, leaving a class). */
export function ConfirmModal({
  title,
  message,
  confirmLabel,
  pending,
  pendingLabel = 'Deleting...',
  error,
  onConfirm,
  onClose,
}: ConfirmModalProps) {
  return (
    <Modal title={title} onClose={onClose}>
      <p className="confirm__message">{message}</p>
      {error && <Notice tone="error">{error}</Notice>}
      <div className="form__actions">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} pending={pending} pendingLabel={pendingLabel}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
