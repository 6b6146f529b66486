import type { ReactNode } from 'react';
import { appName, useDocumentTitle } from '../lib/use-document-title';

interface TitledPageProps {
  /** The tab's title is "`title` | AI Flashcards". */
  title: string;
  /** Shows `title` as the page's heading; off where the screen has its own. */
  heading?: boolean;
  /** Extra classes beside `page`. */
  className?: string;
  children: ReactNode;
}

/** A page of the signed-in app: the tab's title and the `main` landmark the skip link leads to. */
export function TitledPage({ title, heading = true, className, children }: TitledPageProps) {
  useDocumentTitle(`${title} | ${appName}`);
  return (
    <main id="main" className={className ? `page ${className}` : 'page'}>
      {heading && <h1>{title}</h1>}
      {children}
    </main>
  );
}
