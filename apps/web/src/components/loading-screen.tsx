import { messages } from '@flashcards/shared/messages';

export function LoadingScreen() {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      {messages.loading}
    </div>
  );
}
