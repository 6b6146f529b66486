import { Button } from '../../components/button';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';

interface ConfirmModalProps {
  title: string;
  message: string;
  confirmLabel: string;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Are you sure?" before something that cannot be undone (deleting a deck or a card). */
export function ConfirmModal({ title, message, confirmLabel, pending, error, onConfirm, onClose }: ConfirmModalProps) {
  return (
    <Modal title={title} onClose={onClose}>
      <p className="confirm__message">{message}</p>
      {error && <Notice tone="error">{error}</Notice>}
      <div className="form__actions">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} pending={pending} pendingLabel="Deleting...">
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
