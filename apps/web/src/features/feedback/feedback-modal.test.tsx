import { serverMessages } from '@flashcards/shared/server-messages';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, never } from '../../../test/fake-server';
import { createApiClient } from '../../lib/api-client';
import { ApiProvider } from '../../lib/api-context';
import { localTokenStore } from '../../lib/token-store';
import { FeedbackModal, feedbackCloseDelayMs } from './feedback-modal';

function renderModal(routes: Parameters<typeof fakeServer>[0]) {
  const server = fakeServer(routes);
  const onClose = vi.fn();
  const api = createApiClient({ tokens: localTokenStore, onUnauthorized: vi.fn(), fetch: server.fetch });
  render(
    <ApiProvider client={api}>
      <FeedbackModal onClose={onClose} />
    </ApiProvider>,
  );
  return { onClose, calls: server.calls };
}

const submitButton = () => screen.getByRole('button', { name: 'Send feedback' });
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => {
  vi.useRealTimers();
});

describe('feedback modal', () => {
  it('is a labelled dialog whose submit stays disabled while the feedback is blank', () => {
    renderModal({});
    expect(screen.getByRole('dialog', { name: 'Send feedback' })).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
    type('Your feedback', '   ');
    expect(submitButton()).toBeDisabled();
    type('Your feedback', 'Great app');
    expect(submitButton()).toBeEnabled();
  });

  it('sends the feedback without an email when none is given, and is disabled while sending', async () => {
    const { calls } = renderModal({ 'POST /send-feedback': never });
    type('Your feedback', 'More decks please');
    await act(async () => fireEvent.click(submitButton()));
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(calls[0]?.path).toBe('/send-feedback');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ feedback: 'More decks please' });
  });

  it('on success thanks the user, then closes after 2 seconds', async () => {
    vi.useFakeTimers();
    const { onClose, calls } = renderModal({ 'POST /send-feedback': () => json(201, { ok: true }) });
    type('Email (optional)', 'ada@example.com');
    type('Your feedback', 'Love it');
    await act(async () => fireEvent.click(submitButton()));
    expect(screen.getByText('Thank you for your feedback!')).toBeInTheDocument();
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ email: 'ada@example.com', feedback: 'Love it' });
    await act(async () => vi.advanceTimersByTime(feedbackCloseDelayMs - 1));
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(feedbackCloseDelayMs).toBe(2000);
  });

  it('on failure shows the error and keeps the text for another try', async () => {
    const { onClose } = renderModal({
      'POST /send-feedback': () => json(500, { detail: serverMessages.internalError, code: 'internal_error' }),
    });
    type('Your feedback', 'Bug report');
    await act(async () => fireEvent.click(submitButton()));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There was an error sending your feedback. Please try again.',
    );
    expect(screen.getByLabelText('Your feedback')).toHaveValue('Bug report');
    expect(submitButton()).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on Escape', () => {
    const { onClose } = renderModal({});
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
