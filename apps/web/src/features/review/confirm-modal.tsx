import { Modal } from '../../components/modal';

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
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm} disabled={pending}>
          {pending ? 'Deleting...' : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
