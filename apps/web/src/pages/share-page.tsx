import { fillMessage, messages } from '@flashcards/shared/messages';
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Notice } from '../components/notice';
import { importErrorText, sharedDeckErrorText, useImportSharedDeck, useSharedDeck } from '../features/share/share-api';
import { SharePreview } from '../features/share/share-preview';
import { SiteLayout } from '../layout/site-layout';
import { useAuth } from '../lib/auth-context';
import { pendingImport } from '../lib/pending-import';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** After a successful import, the page moves on to /review after this long. */
export const importRedirectDelayMs = 3000;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

/**
 * /share/{code}: what a shared deck holds, its first cards to flip through, and an Import Deck button. A visitor's code is kept as the pending
 * import while they sign in on /login, which brings them back here, where the import then runs by itself.
 */
export function SharePage() {
  const code = useParams().shareCode;
  const navigate = useNavigate();
  const { user, loading: authLoading } = useAuth();
  const deck = useSharedDeck(code);
  const importDeck = useImportSharedDeck();
  const autoImportStarted = useRef(false);
  useDocumentTitle(deck.data ? `${deck.data.deck_name} | Shared deck | ${appName}` : `Shared deck | ${appName}`);

  const { mutate } = importDeck;
  useEffect(() => {
    if (!code || !user || autoImportStarted.current || pendingImport.get() !== code) return;
    autoImportStarted.current = true;
    pendingImport.clear();
    mutate(code);
  }, [code, user, mutate]);

  useEffect(() => {
    if (!importDeck.isSuccess) return;
    const timer = setTimeout(() => navigate('/review'), importRedirectDelayMs);
    return () => clearTimeout(timer);
  }, [importDeck.isSuccess, navigate]);

  function onImport() {
    if (!code) return;
    if (!user) {
      pendingImport.set(code);
      navigate('/login');
      return;
    }
    importDeck.mutate(code);
  }

  return (
    <SiteLayout>
      <main id="main" className="page page--narrow">
        <h1>Shared deck</h1>
        {!code ? (
          <Notice tone="error">{messages.invalidShareLink}</Notice>
        ) : deck.isPending ? (
          <p role="status">{messages.loading}</p>
        ) : deck.isError ? (
          <Notice tone="error">{sharedDeckErrorText(deck.error)}</Notice>
        ) : (
          <article className="panel panel--flat shared-deck" aria-labelledby="shared-deck-name">
            <h2 id="shared-deck-name" className="shared-deck__name">
              {deck.data.deck_name}
            </h2>
            <dl className="shared-deck__facts">
              <div>
                <dt>Shared by</dt>
                <dd>{deck.data.owner_name}</dd>
              </div>
              <div>
                <dt>Cards</dt>
                <dd>{deck.data.card_count}</dd>
              </div>
              <div>
                <dt>Shared on</dt>
                <dd>
                  <time dateTime={deck.data.shared_at}>{dateFormat.format(new Date(deck.data.shared_at))}</time>
                </dd>
              </div>
            </dl>
            {importDeck.isSuccess ? (
              <Notice tone="success">{fillMessage(messages.importSucceeded, { name: importDeck.data.name })}</Notice>
            ) : (
              <>
                {importDeck.isError && <Notice tone="error">{importErrorText(importDeck.error)}</Notice>}
                <button
                  type="button"
                  className="button button--large"
                  onClick={onImport}
                  disabled={authLoading || importDeck.isPending}
                >
                  {importDeck.isPending ? 'Importing...' : 'Import Deck'}
                </button>
              </>
            )}
            <SharePreview deck={deck.data} />
          </article>
        )}
      </main>
    </SiteLayout>
  );
}
