import type { FeedbackRequest } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';
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
        <Notice tone="success">{messages.feedbackThanks}</Notice>
      ) : (
        <form className="form" onSubmit={submit}>
          <TextField label="Email (optional)" type="email" autoComplete="email" value={email} onValue={setEmail} />
          <TextField multiline label="Your feedback" rows={5} required value={feedback} onValue={setFeedback} />
          {status === 'error' && <Notice tone="error">{messages.feedbackFailed}</Notice>}
          <div className="form__actions">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!feedback.trim()} pending={status === 'sending'} pendingLabel="Sending...">
              Send feedback
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
