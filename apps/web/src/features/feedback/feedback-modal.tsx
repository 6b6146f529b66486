import type { FeedbackRequest } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '../../components/modal';
import { useApi } from '../../lib/api-context';
import { useTimeout } from '../../lib/use-timed-notice';

/** How long the thank-you stays before the modal closes and resets. */
export const feedbackCloseDelayMs = 2000;

type Status = 'idle' | 'sending' | 'success' | 'error';

/**
 * Feedback modal: idle, success ('Thank you for your feedback!', closes after 2 s,
 * then resets) and error. Email is optional; submit is disabled while the text is blank or sending.
 */
export function FeedbackModal({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const emailId = useId();
  const textId = useId();
  const [email, setEmail] = useState('');
  const [feedback, setFeedback] = useState('');
  const [status, setStatus] = useState<Status>('idle');

  useTimeout(status === 'success', feedbackCloseDelayMs, () => {
    setEmail('');
    setFeedback('');
    setStatus('idle');
    onClose();
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!feedback.trim() || status === 'sending') return;
    setStatus('sending');
    const body: FeedbackRequest = { feedback: feedback.trim() };
    if (email.trim()) body.email = email.trim();
    try {
      await api.post('/send-feedback', { json: body });
      setStatus('success');
    } catch {
      setStatus('error');
    }
  }

  return (
    <Modal title="Send feedback" onClose={onClose}>
      {status === 'success' ? (
        <p className="notice notice--success" role="status">
          {messages.feedbackThanks}
        </p>
      ) : (
        <form className="form" onSubmit={submit}>
          <div className="field">
            <label htmlFor={emailId}>Email (optional)</label>
            <input
              id={emailId}
              type="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={textId}>Your feedback</label>
            <textarea
              id={textId}
              rows={5}
              required
              value={feedback}
              onChange={(event) => setFeedback(event.target.value)}
            />
          </div>
          {status === 'error' && (
            <p className="notice notice--error" role="alert">
              {messages.feedbackFailed}
            </p>
          )}
          <div className="form__actions">
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button" disabled={!feedback.trim() || status === 'sending'}>
              {status === 'sending' ? 'Sending...' : 'Send feedback'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
