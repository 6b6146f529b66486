import type { Deck } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useEffect, useId, useRef, useState } from 'react';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';
import { errorDetail } from '../../lib/api-client';
import { downloadApkg } from '../../lib/apkg-download';
import { useFetchDeckCards } from '../../lib/decks-api';
import { useTimedNotice } from '../../lib/use-timed-notice';
import { useShareDeck } from './share-api';

/** How long 'Copied!' shows after copying the link. */
export const copiedNoticeMs = 2000;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

type ExportState = { kind: 'idle' } | { kind: 'working' } | { kind: 'done'; file: string } | { kind: 'error' };

/**
 * Share a deck: a link is generated on opening (POST /decks/{id}/share), shown as origin + /share/ + code, and
 * copied with Copy ('Copied!' for 2 s). Export to Anki downloads the deck as a CSV file made in the browser.
 */
export function ShareModal({ deck, onClose }: { deck: Deck; onClose: () => void }) {
  const linkId = useId();
  const share = useShareDeck();
  const fetchCards = useFetchDeckCards();
  const copiedNotice = useTimedNotice<true>(copiedNoticeMs);
  const copied = copiedNotice.value !== null;
  const [copyError, setCopyError] = useState(false);
  const [exportState, setExportState] = useState<ExportState>({ kind: 'idle' });
  const [apkgState, setApkgState] = useState<ExportState>({ kind: 'idle' });
  const started = useRef(false);

  const { mutate } = share;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate(deck._id);
  }, [deck._id, mutate]);

  const link = share.data ? `${window.location.origin}/share/${share.data.share_code}` : null;

  async function copy() {
    if (!link) return;
    setCopyError(false);
    try {
      await navigator.clipboard.writeText(link);
      copiedNotice.show(true);
    } catch {
      copiedNotice.clear();
      setCopyError(true);
    }
  }

  async function exportApkg() {
    setApkgState({ kind: 'working' });
    try {
      setApkgState({ kind: 'done', file: await downloadApkg(deck._id, deck.name) });
    } catch {
      setApkgState({ kind: 'error' });
    }
  }

  async function exportToAnki() {
    setExportState({ kind: 'working' });
    let cards: Awaited<ReturnType<typeof fetchCards>>;
    try {
      cards = await fetchCards(deck._id);
    } catch {
      setExportState({ kind: 'error' });
      return;
    }
    const { exportDeckToAnki } = await import('../../lib/export-deck');
    setExportState({ kind: 'done', file: exportDeckToAnki(deck.name, cards) });
  }

  return (
    <Modal title={`Share deck: ${deck.name}`} onClose={onClose}>
      <section className="share-section" aria-labelledby={`${linkId}-heading`}>
        <h3 id={`${linkId}-heading`}>Share link</h3>
        {share.isPending || share.isIdle ? (
          <p role="status">{messages.reviewGeneratingLink}</p>
        ) : share.isError ? (
          <>
            <Notice tone="error">{errorDetail(share.error, messages.reviewShareFailed)}</Notice>
            <button type="button" className="button button--secondary" onClick={() => mutate(deck._id)}>
              Try again
            </button>
          </>
        ) : (
          <>
            <div className="field">
              <label htmlFor={linkId}>Anyone with this link can preview and import the deck</label>
              <div className="share-link">
                <input id={linkId} type="text" readOnly value={link ?? ''} onFocus={(event) => event.target.select()} />
                <button type="button" className="button" onClick={copy}>
                  {copied ? messages.reviewCopied : 'Copy'}
                </button>
              </div>
            </div>
            <p className="visually-hidden" role="status">
              {copied ? messages.reviewCopied : ''}
            </p>
            {copyError && <Notice tone="error">{messages.reviewCopyFailed}</Notice>}
            <p className="muted">
              {fillMessage(messages.reviewLinkExpires, { date: dateFormat.format(new Date(share.data.expires_at)) })}
            </p>
          </>
        )}
      </section>
      <section className="share-section" aria-labelledby={`${linkId}-export`}>
        <h3 id={`${linkId}-export`}>Export to Anki</h3>
        <p className="muted">
          An Anki package with the deck, its cards and their images, or a CSV file with two columns, question and
          answer, that Anki can import.
        </p>
        {(exportState.kind === 'error' || apkgState.kind === 'error') && (
          <Notice tone="error">{messages.reviewExportFailed}</Notice>
        )}
        {(exportState.kind === 'done' || apkgState.kind === 'done') && (
          <Notice tone="success">
            {fillMessage(messages.reviewExported, {
              file: apkgState.kind === 'done' ? apkgState.file : exportState.kind === 'done' ? exportState.file : '',
            })}
          </Notice>
        )}
        <button
          type="button"
          className="button button--secondary"
          onClick={exportApkg}
          disabled={apkgState.kind === 'working'}
        >
          {apkgState.kind === 'working' ? 'Exporting...' : messages.exportApkg}
        </button>{' '}
        <button
          type="button"
          className="button button--secondary"
          onClick={exportToAnki}
          disabled={exportState.kind === 'working'}
        >
          {exportState.kind === 'working' ? 'Exporting...' : 'Export Anki CSV'}
        </button>
      </section>
    </Modal>
  );
}
