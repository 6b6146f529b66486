import { useCallback, useState } from 'react';

/**
 * The deck chosen in a form and the form's error: choosing another deck clears the error, since it was about the
 * choice before.
 */
export function useDeckChoice(initialDeckId = '') {
  const [deckId, setDeckId] = useState(initialDeckId);
  const [error, setError] = useState<string | null>(null);
  const choose = useCallback((id: string) => {
    setDeckId(id);
    setError(null);
  }, []);
  return { deckId, setDeckId, error, setError, choose };
}
