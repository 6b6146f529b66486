import { createContext, useContext, useEffect } from 'react';

export const appName = 'AI Flashcards';

/** Where the build's prerender collects a page's title (there is no document there); absent in the browser. */
export const DocumentTitleSink = createContext<((title: string) => void) | null>(null);

/** Sets the tab's title while the calling page is shown; `undefined` leaves it as it is. */
export function useDocumentTitle(title: string | undefined): void {
  const sink = useContext(DocumentTitleSink);
  if (sink && title !== undefined) sink(title);
  useEffect(() => {
    if (title !== undefined) document.title = title;
  }, [title]);
}
