import { useEffect } from 'react';

export const appName = 'AI Flashcards';

/** Sets the tab's title while the calling page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
